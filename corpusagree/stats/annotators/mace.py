"""MACE, multi-annotator competence estimation (Hovy et al. 2013): on each item, annotator w
either knows the true label and gives it (probability ξ_w, the competence) or guesses one from
their own strategy θ_w (probability 1 − ξ_w), so P(gives k | true c) = (1 − ξ_w) θ_w[k] +
ξ_w [k = c]; the true labels are uniform.

As Hovy et al.'s release (``MACE.java``, version 0.3): random restarts from ξ_w and θ_w drawn
as 1 + 0.5·U(0, 1) per entry and normalised; each restart runs a first E-step and then
``n_iter`` (50) M- and E-steps, no other stopping rule; the restart with the largest log
marginal likelihood wins and a last E-step gives the posteriors. ``method="em"`` adds the
smoothing 0.01 / K to every expected count before normalising; ``method="vb"`` (variational
Bayes, the release's default) replaces the normalised counts by exp ψ(count + prior) /
exp ψ(Σ (count + prior)), with a Beta(α = 0.5, β = 0.5) prior on (guessing, knowing) and a
symmetric Dirichlet(10) prior on each strategy. The random numbers come from numpy's
generator seeded by ``seed`` (the release's ``java.util.Random`` is unseeded), so a seed
reproduces a fit but not a run of the release.

The E-step is computed in logarithms (the release multiplies probabilities, which underflows
on items with many judgements) and vectorised over the judgements: the posterior that
annotator w knew the label k they gave is P(true = k | item) ξ_w / ((1 − ξ_w) θ_w[k] + ξ_w),
so w's expected counts need only the sums of P(true = k | item) over w's judgements k.

References
----------
Hovy, D., Berg-Kirkpatrick, T., Vaswani, A. & Hovy, E. (2013). Learning whom to trust with
MACE. NAACL-HLT 2013, 1120–1130.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import digamma

from ...model.data import ReliabilityData
from ...model.params import SEED, Param, checked
from .annotations import DATA, Annotations
from .dawid_skene import log_joint, normalise_log
from .result import AnnotatorModel

METHODS = ("vb", "em")
#: the release's defaults: restarts, iterations, initial noise, Beta prior, strategy prior
RESTARTS, ITERATIONS, NOISE, ALPHA, BETA, STRATEGY_PRIOR = 10, 50, 0.5, 0.5, 0.5, 10.0


@dataclass
class MaceState:
    """One restart's parameters and E-step: ``spamming`` annotators × (guess, know),
    ``strategies`` annotators × labels, and from the E-step the posteriors, the expected
    counts and the log marginal likelihood."""

    spamming: np.ndarray
    strategies: np.ndarray
    posteriors: np.ndarray | None = None
    know_counts: np.ndarray | None = None
    strategy_counts: np.ndarray | None = None
    log_likelihood: float = -np.inf


def e_step(ann: Annotations, s: MaceState) -> MaceState:
    """Posteriors of the true labels, expected (guess, know) and strategy counts, and the log
    marginal likelihood under ``s``'s parameters (``MACE.EStep`` without control items).

    P(gives k | true c) = (1 − ξ) θ[k] + ξ [k = c] is an (annotator, given label) × true label
    table, as Dawid–Skene's, so the posteriors are its E-step; the expected counts of
    annotator w and label k are sums over w's judgements k of P(true = k | item), one
    sparse product."""
    A, K = ann.n_annotators, ann.n_labels
    guess = s.spamming[:, :1] * s.strategies  # annotators × given labels
    know = np.broadcast_to(s.spamming[:, 1:], (A, K))
    err = np.repeat(guess.ravel(), K).reshape(A, K, K)
    err[:, np.arange(K), np.arange(K)] += know
    T, log_z = normalise_log(log_joint(ann, np.full(K, 1 / K), err.reshape(A * K, K)))
    right = np.asarray(ann.incidence @ T).reshape(A, K, K)[:, np.arange(K), np.arange(K)]
    knew = right * know / (guess + know)  # Σ P(knew) over w's judgements k
    given = ann.votes_by_annotator
    strategy_counts = given - knew
    know_counts = np.stack([strategy_counts.sum(1), knew.sum(1)], axis=1)
    return MaceState(s.spamming, s.strategies, T, know_counts, strategy_counts,
                     float(ann.item_sum(log_z)))


def m_step(s: MaceState, method: str, smoothing: float, alpha: float, beta: float,
           strategy_prior: float) -> MaceState:
    """New parameters from ``s``'s expected counts: smoothed and normalised (``MStep``) or
    by variational Bayes (``variationalMStep``)."""
    if method == "em":
        spam = s.know_counts + smoothing
        strat = s.strategy_counts + smoothing
        return MaceState(spam / spam.sum(1, keepdims=True), strat / strat.sum(1, keepdims=True))
    spam = s.know_counts + np.array([alpha, beta])
    strat = s.strategy_counts + strategy_prior
    return MaceState(np.exp(digamma(spam) - digamma(spam.sum(1, keepdims=True))),
                     np.exp(digamma(strat) - digamma(strat.sum(1, keepdims=True))))


def random_start(rng: np.random.Generator, A: int, K: int, noise: float = NOISE) -> MaceState:
    """``MACE.initialize``: 1 + noise·U(0, 1) per entry, normalised by rows."""
    spam = 1 + noise * rng.random((A, 2))
    strat = 1 + noise * rng.random((A, K))
    return MaceState(spam / spam.sum(1, keepdims=True), strat / strat.sum(1, keepdims=True))


def run(ann: Annotations, start: MaceState, n_iter: int, method: str, smoothing: float,
        alpha: float = ALPHA, beta: float = BETA, strategy_prior: float = STRATEGY_PRIOR
        ) -> MaceState:
    """One restart from ``start``: an E-step, then ``n_iter`` M- and E-steps."""
    s = e_step(ann, start)
    for _ in range(n_iter):
        s = e_step(ann, m_step(s, method, smoothing, alpha, beta, strategy_prior))
    return s


@checked(DATA, Param("method", str, choices=METHODS), SEED, Param("restarts", int, low=1),
         Param("n_iter", int, low=1), Param("smoothing", float, low=0, none=True),
         Param("alpha", float, low=0, closed="neither"),
         Param("beta", float, low=0, closed="neither"),
         Param("start", AnnotatorModel, none=True))
def mace(data: ReliabilityData | Annotations, *, method: str = "vb", seed: int | None = 0,
         restarts: int = RESTARTS, n_iter: int = ITERATIONS, smoothing: float | None = None,
         alpha: float = ALPHA, beta: float = BETA, start: AnnotatorModel | None = None
         ) -> AnnotatorModel:
    """MACE (Hovy et al. 2013): each annotator's competence, the probability that they know
    the label rather than guess it, with the conventions of Hovy et al.'s release.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).
    method : {"vb", "em"}
        Variational Bayes (the release's default) or EM with smoothing.
    seed : int or None
        Seed of the random restarts (an int gives the same fit on every run).
    restarts, n_iter : int
        Random restarts (10) and iterations per restart (50), as the release.
    smoothing : float, optional
        Added to the expected counts by ``method="em"`` (default 0.01 / labels).
    alpha, beta : float
        The Beta prior on (guessing, knowing) of ``method="vb"`` (0.5, 0.5).
    start : AnnotatorModel, optional
        A MACE fit of the same data to start from, in one run instead of random restarts
        (a bootstrap replicate starts from the fit on all the data).

    Returns
    -------
    AnnotatorModel
        ``skill``: the competence ξ_w; ``confusion``: the matrices the model implies,
        (1 − ξ_w) θ_w[k] + ξ_w [k = c]; ``annotator_parameters``: the strategies θ_w and
        ``guessing`` 1 − ξ_w (the release's spamming[0]; with ``"vb"`` the two are
        exp ψ(·) / exp ψ(Σ ·) and need not add up to 1, and the confusion matrices are
        normalised);
        ``log_likelihood``: the best restart's log marginal likelihood, as the release
        computes it (with the variational parameters for ``"vb"``).

    Raises
    ------
    InputError
        Set-valued labels, or fewer than two annotators with judgements.
    TypeError, ValueError
        A keyword of the wrong type or out of its range (an unknown method, restarts or
        iterations below 1), named in the message.

    References
    ----------
    Hovy et al. (2013), §2 (the model, EM and variational Bayes); the release's defaults.

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_matrix([[0, 0, 1, 1, 0, 1],
    ...                                     [0, 0, 1, 1, 1, 1],
    ...                                     [0, 1, 1, 0, 0, 1]])
    >>> m = mace(data, seed=1)
    >>> [m.labels[i] for i in range(6)]
    [0, 0, 1, 1, 0, 1]
    >>> {a: round(s, 2) for a, s in m.skill.items()}
    {0: 0.88, 1: 0.63, 2: 0.31}
    """
    ann = Annotations.of(data)
    ann.check_size("mace")
    A, K = ann.n_annotators, ann.n_labels
    smooth = 0.01 / K if smoothing is None else float(smoothing)
    rng = np.random.default_rng(seed)
    if start is not None:
        starts = [MaceState(np.stack([start.annotator_parameters["guessing"][ann.annotators],
                                      start.skill_values[ann.annotators]], axis=1),
                            start.annotator_parameters["strategies"][ann.annotators])]
    else:
        starts = (random_start(rng, A, K) for _ in range(int(restarts)))
    best: MaceState | None = None
    likelihoods = []
    for s0 in starts:
        s = run(ann, s0, int(n_iter), method, smooth, alpha, beta)
        likelihoods.append(s.log_likelihood)
        if best is None or s.log_likelihood > best.log_likelihood:
            best = s
    assert best is not None
    guess, know = best.spamming[:, 0], best.spamming[:, 1]
    confusion = guess[:, None, None] * best.strategies[:, None, :] + \
        know[:, None, None] * np.eye(K)
    confusion /= (guess + know)[:, None, None]
    return AnnotatorModel.from_fit(
        "mace", ann, best.posteriors, best.spamming[:, 1], "competence ξ_w (knows rather than "
        "guesses)", confusion=confusion, prevalence=np.full(K, 1 / K),
        log_likelihood=best.log_likelihood, iterations=int(n_iter), converged=True,
        annotator_parameters={"strategies": best.strategies, "guessing": guess},
        settings={"method": method, "seed": seed, "restarts": restarts, "n_iter": n_iter,
                  "smoothing": smooth if method == "em" else None,
                  "alpha": alpha if method == "vb" else None,
                  "beta": beta if method == "vb" else None,
                  "restart_log_likelihoods": likelihoods})


__all__ = ["ALPHA", "BETA", "ITERATIONS", "METHODS", "NOISE", "RESTARTS", "STRATEGY_PRIOR",
           "MaceState", "e_step", "m_step", "mace", "random_start", "run"]
