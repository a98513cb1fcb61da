"""Dawid & Skene's (1979) model of the annotators: each annotator w gives label k to an item
whose true label is c with probability e_w[c, k] (a full confusion matrix), the true labels
having prevalence π; the one-coin form (Zhang et al. 2016, §2) keeps one accuracy s_w per
annotator, e_w[c, c] = s_w and e_w[c, k] = (1 − s_w) / (K − 1) elsewhere.

Both are fitted by EM as crowd-kit 1.4.2 (``DawidSkene``, ``OneCoinDawidSkene``) does, whose
conventions change the numbers and are kept:

* the posteriors start from the majority-vote shares (ties split), π is the mean posterior;
* the M-step floors every confusion entry of a label the annotator gave at 1e-10 before
  normalising (a label an annotator never gave keeps probability 0), the one-coin entries are
  kept within [1e-10, 1 − 1e-10], and π is floored at 1e-10 where its logarithm is taken;
* EM stops when crowd-kit's objective per judgement rises by less than ``tol`` (default 1e-5),
  or after ``n_iter`` (100) iterations. The objective is the expected complete-data
  log-likelihood under the posteriors plus their entropy, with log π counted once per
  judgement (as crowd-kit counts it; the textbook ELBO counts it once per item);
* the returned posteriors come from the last E-step, the confusion matrices and π from the
  M-step after it (crowd-kit's ``probas_``, ``errors_`` and ``priors_``); an item's label is
  its most probable, a tie going to the smallest label in sorted order (crowd-kit's
  ``idxmax`` over its sorted label columns).

Each EM step is two sparse products with the judgements' (annotator, label) × item incidence
matrix, so a step costs O(judgements × labels) with no loop over items or annotators.

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer error-rates
using the EM algorithm. Applied Statistics 28(1), 20–28.
Zhang, Y., Chen, X., Zhou, D. & Jordan, M. I. (2016). Spectral methods meet EM: a provably
optimal algorithm for crowdsourcing. JMLR 17(102), 1–44.
Ustalov, D., Pavlichenko, N. & Tseitlin, B. (2024). Learning from crowds with Crowd-Kit. JOSS
9(96), 6227.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...model.data import ReliabilityData
from ...model.params import checked
from .annotations import DATA, N_ITER, TOL, Annotations
from .result import AnnotatorModel
from .vote import vote_shares

#: floor of the confusion entries and of π (crowd-kit's ``_EPS``)
EPS = 1e-10

#: M-step: posteriors (items × labels) → (counts, errors), both (annotators·labels given) ×
#: labels true: counts[a·K + k, c] = Σ posteriors[i, c] over a's judgements k, errors the
#: probability a gives k when the truth is c
MStep = Callable[[Annotations, np.ndarray], tuple[np.ndarray, np.ndarray]]


def full_m_step(ann: Annotations, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dawid–Skene's M-step: each annotator's expected counts of (given, true) label pairs,
    floored at :data:`EPS` where the annotator gave the label, normalised over given labels."""
    A, K = ann.n_annotators, ann.n_labels
    counts = np.asarray(ann.incidence @ T)
    err = counts.copy()
    seen = ann.given.ravel()
    err[seen] = np.maximum(err[seen], EPS)
    err = err.reshape(A, K, K)
    with np.errstate(invalid="ignore"):  # an annotator without judgements: nan
        err /= err.sum(1, keepdims=True)
    return counts, err.reshape(A * K, K)


def one_coin_skill(ann: Annotations, T: np.ndarray) -> np.ndarray:
    """The one-coin accuracy of each annotator: the mean posterior of the labels they gave."""
    return ann.annotator_mean(T[ann.item, ann.label])


def one_coin_m_step(ann: Annotations, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The one-coin M-step: s_w on the diagonal, (1 − s_w)/(K − 1) off it, within
    [EPS, 1 − EPS]."""
    A, K = ann.n_annotators, ann.n_labels
    s = one_coin_skill(ann, T)
    off = (1 - s) / max(K - 1, 1)
    err = np.repeat(off, K * K).reshape(A, K, K)
    err[:, np.arange(K), np.arange(K)] = s[:, None]
    np.clip(err, EPS, 1 - EPS, out=err)
    return np.asarray(ann.incidence @ T), err.reshape(A * K, K)


def log_joint(ann: Annotations, prior: np.ndarray, err: np.ndarray) -> np.ndarray:
    """items × labels: log π_c + Σ log e_w[c, k] over the item's judgements."""
    log_err = np.zeros_like(err)
    np.log(err, out=log_err, where=err > 0)  # rows no judgement uses stay 0
    return np.asarray(ann.incidence_t @ log_err) + np.log(np.maximum(prior, EPS))


def _by_columns(ufunc: np.ufunc, X: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(X, 1, keepdims=True)`` of an items × labels table, one column after the
    other over every item at once (numpy reduces a short last axis row by row, several
    times slower); the same values: numpy adds a short row's entries in this order too."""
    if not 0 < X.shape[1] < 8:
        return ufunc.reduce(X, axis=1, keepdims=True)
    out = X[:, :1].copy()
    for k in range(1, X.shape[1]):  # a few labels
        ufunc(out, X[:, k:k + 1], out=out)
    return out


def normalise_log(L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(exp(L) normalised by rows, the log of each row's normaliser)."""
    top = _by_columns(np.maximum, L)
    T = np.exp(L - top)
    z = _by_columns(np.add, T)
    T /= z
    return T, (np.log(z) + top).ravel()


def objective(ann: Annotations, T: np.ndarray, prior: np.ndarray, counts: np.ndarray,
              err: np.ndarray) -> float:
    """crowd-kit's EM objective per judgement (see the module docstring)."""
    seen = counts > 0
    joint = float((counts[seen] * np.log(err[seen])).sum())
    joint += float(ann.per_item @ T @ np.log(np.maximum(prior, EPS)))
    Tc = np.maximum(T, EPS)
    return (joint - float(ann.item_sum((Tc * np.log(Tc)).sum(1)))) / ann.total


def fit(ann: Annotations, m_step: MStep, n_iter: int, tol: float
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[float], bool]:
    """EM from the majority-vote shares: (posteriors, π, errors, objective history,
    converged)."""
    T = vote_shares(ann)
    prior = ann.item_mean(T)
    counts, err = m_step(ann, T)
    history: list[float] = []
    last = -np.inf
    converged = False
    for _ in range(int(n_iter)):
        T, _ = normalise_log(log_joint(ann, prior, err))
        prior = ann.item_mean(T)
        counts, err = m_step(ann, T)
        value = objective(ann, T, prior, counts, err)
        history.append(value)
        if value - last < tol:
            converged = True
            break
        last = value
    return T, prior, err, history, converged


def _result(name: str, ann: Annotations, m_step: MStep, n_iter: int, tol: float,
            skill_measure: str, one_coin: bool) -> AnnotatorModel:
    ann.check_size(name, confusion=True)
    T, prior, err, history, converged = fit(ann, m_step, n_iter, tol)
    A, K = ann.n_annotators, ann.n_labels
    confusion = err.reshape(A, K, K).transpose(0, 2, 1)  # annotator × true × given
    if one_coin:  # crowd-kit's skills_: s_w of the last M-step, before the clip
        skill = one_coin_skill(ann, T)
    else:
        skill = np.einsum("c,acc->a", prior, confusion)
    _, log_z = normalise_log(log_joint(ann, prior, err))
    return AnnotatorModel.from_fit(
        name, ann, T, skill, skill_measure, confusion=confusion, prevalence=prior,
        log_likelihood=float(ann.item_sum(log_z)), iterations=len(history), converged=converged,
        settings={"n_iter": n_iter, "tol": tol, "objective": history})


@checked(DATA, N_ITER, TOL)
def dawid_skene(data: ReliabilityData | Annotations, *, n_iter: int = 100, tol: float = 1e-5
                ) -> AnnotatorModel:
    """Dawid & Skene's (1979) confusion-matrix model, fitted by EM as crowd-kit 1.4.2 does.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).
    n_iter : int
        The most EM iterations (100).
    tol : float
        Stop when the objective per judgement rises by less than this (1e-5).

    Returns
    -------
    AnnotatorModel
        ``confusion``: per annotator, P(gives column label | true row label);
        ``skill``: Σ_c π_c e_w[c, c], the annotator's accuracy under the prevalence π;
        ``log_likelihood``: log P(judgements | π, e) at the final parameters;
        ``settings["objective"]``: the stopping objective, iteration by iteration.

    Raises
    ------
    TypeError, ValueError
        A keyword of the wrong type or out of its range, named in the message.
    InputError
        Set-valued labels, or fewer than two annotators with judgements.

    References
    ----------
    Dawid & Skene (1979), §2–3; the conventions of crowd-kit 1.4.2 in the module docstring.

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_matrix([[0, 0, 1, 1, 0, 1],
    ...                                     [0, 0, 1, 1, 1, 1],
    ...                                     [0, 1, 1, 0, 0, 1]])
    >>> ds = dawid_skene(data)
    >>> [ds.labels[i] for i in range(6)]
    [0, 0, 1, 1, 0, 1]
    >>> {a: round(s, 3) for a, s in ds.skill.items()}
    {0: 1.0, 1: 0.833, 2: 0.667}
    """
    ann = Annotations.of(data)
    return _result("dawid_skene", ann, full_m_step, n_iter, tol,
                   "Σ_c π_c e[c, c]: accuracy under the prevalence π", one_coin=False)


@checked(DATA, N_ITER, TOL)
def one_coin(data: ReliabilityData | Annotations, *, n_iter: int = 100, tol: float = 1e-5
             ) -> AnnotatorModel:
    """The one-coin Dawid–Skene model: one accuracy s_w per annotator, errors spread evenly
    over the other labels; fitted by EM as crowd-kit 1.4.2's ``OneCoinDawidSkene``.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).
    n_iter : int
        The most EM iterations (100).
    tol : float
        Stop when the objective per judgement rises by less than this (1e-5).

    Returns
    -------
    AnnotatorModel
        ``skill``: the one-coin accuracy s_w (within [1e-10, 1 − 1e-10]); ``confusion``: the
        matrices it implies.

    Raises
    ------
    TypeError, ValueError
        A keyword of the wrong type or out of its range, named in the message.
    InputError
        Set-valued labels, or fewer than two annotators with judgements.

    References
    ----------
    Zhang, Chen, Zhou & Jordan (2016), §2 (the one-coin model); Dawid & Skene (1979).

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_matrix([[0, 0, 1, 1, 0, 1],
    ...                                     [0, 0, 1, 1, 1, 1],
    ...                                     [0, 1, 1, 0, 0, 1]])
    >>> oc = one_coin(data)
    >>> {a: round(s, 3) for a, s in oc.skill.items()}
    {0: 1.0, 1: 0.833, 2: 0.667}
    """
    ann = Annotations.of(data)
    return _result("one_coin", ann, one_coin_m_step, n_iter, tol,
                   "one-coin accuracy s_w", one_coin=True)


__all__ = ["EPS", "MStep", "dawid_skene", "fit", "full_m_step", "log_joint", "normalise_log",
           "objective", "one_coin", "one_coin_m_step", "one_coin_skill"]
