"""GLAD (Whitehill et al. 2009): annotator w gives item i its true label with probability
σ(α_w β_i) and any other label with probability (1 − σ(α_w β_i)) / (K − 1); α_w is the
annotator's ability (negative: adversarial), β_i > 0 the item's inverse difficulty.

As crowd-kit 1.4.2's ``GLAD``: β_i = exp(b_i) with b_i real, normal priors N(1, 1) on α_w and
on b_i, uniform class priors, α = b = 1 at the start. crowd-kit runs EM with a conjugate-
gradient M-step of at most 25 steps and stops as soon as the expected complete-data
objective per judgement rises by less than 1e-5; that objective leaves out the entropy of the
posteriors, so it need not rise under EM, and the stop comes early (after two iterations on
each random data set of the tests) at a point that depends on the order of the rows. Here the
fit goes to the fixed point of that EM: the stationary point of the log posterior
log P(judgements | α, b) + log N(α; 1, 1) + log N(b; 1, 1), whose gradient is the EM
M-step's gradient at the current posteriors (Fisher's identity), maximised from the same
start by L-BFGS (over parameters scaled by their curvature at the start) until the gradient
vanishes, to within ``tol`` per judgement of each parameter (1e-5, a relative error of the
parameters of about 1e-4 at most); it goes on while the line search sees the log posterior
rise, which in double precision ends at about 1e-7 per judgement on a few thousand judgements
and 1e-6 on a million. Each evaluation is a few ``bincount`` over the judgements.

References
----------
Whitehill, J., Ruvolo, P., Wu, T., Bergsma, J. & Movellan, J. (2009). Whose vote should count
more: optimal integration of labels from labelers of unknown expertise. NIPS 22, 2035–2043.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.special import expit, log_expit

from ...model.data import ReliabilityData
from ...model.params import Param, checked
from .annotations import DATA, N_ITER, TOL, Annotations
from .dawid_skene import normalise_log
from .result import AnnotatorModel

#: mean of the normal priors on α and on b = log β (crowd-kit's defaults)
PRIOR_MEAN = 1.0


@functools.cache
def _blas():
    """The process's thread pools (threadpoolctl), found once: finding them costs
    milliseconds, limiting them microseconds (a bootstrap fits GLAD many times)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


class _Glad:
    """The log posterior of GLAD and its gradient over x = (α, b), on one set of
    judgements (items weighted as :class:`Annotations` says: an item's likelihood and the
    prior on its b count its weight times)."""

    def __init__(self, ann: Annotations) -> None:
        self.ann = ann
        K = ann.n_labels
        self.log_other = np.log(K - 1) if K > 1 else 0.0
        self.log_prior = -np.log(K)
        self.key = ann.item * K + ann.label
        self.plain_votes = np.bincount(self.key, minlength=ann.n_items * K).reshape(-1, K)
        self.w = np.ones(ann.n_items) if ann.item_weight is None else ann.item_weight
        self.w_judgement = self.w[ann.item]

    def split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return x[:self.ann.n_annotators], x[self.ann.n_annotators:]

    def log_joint(self, alpha: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(items × labels log P(true label, the item's judgements), the judgements'
        z = α β)."""
        ann, K = self.ann, self.ann.n_labels
        z = alpha[ann.annotator] * np.exp(b)[ann.item]
        # log σ(z) for the true label, log(1 − σ(z)) − log(K − 1) = log σ(z) − z − log(K − 1)
        # for the others: the difference is z + log(K − 1)
        log_wrong = log_expit(z) - z - self.log_other
        base = np.bincount(ann.item, weights=log_wrong, minlength=ann.n_items)
        gain = np.bincount(self.key, weights=z, minlength=ann.n_items * K).reshape(-1, K) \
            + self.log_other * self.plain_votes
        return base[:, None] + gain + self.log_prior, z

    def posteriors(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        """(posteriors of the true labels, log-likelihood) at x."""
        T, log_z = normalise_log(self.log_joint(*self.split(x))[0])
        return T, float(self.w @ log_z)

    def curvature(self, x: np.ndarray) -> np.ndarray:
        """The diagonal of −∂²(log likelihood + log prior) at x with the posteriors held
        fixed (Σ σ(1 − σ) (∂z/∂θ)² + 1 per parameter θ, weighted): the scale of each
        parameter (1 for an item of weight 0, which nothing moves)."""
        ann = self.ann
        alpha, b = self.split(x)
        beta = np.exp(b)[ann.item]
        z = alpha[ann.annotator] * beta
        s = expit(z) * expit(-z) * self.w_judgement
        c = np.concatenate([
            1 + np.bincount(ann.annotator, weights=s * beta ** 2, minlength=ann.n_annotators),
            self.w + np.bincount(ann.item, weights=s * z ** 2, minlength=ann.n_items)])
        return np.where(c > 0, c, 1.0)

    def negative(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """(−log posterior, its gradient) at x, up to a constant."""
        ann = self.ann
        alpha, b = self.split(x)
        L, z = self.log_joint(alpha, b)
        T, log_z = normalise_log(L)
        r = T[ann.item, ann.label] - expit(z)  # ∂ log L / ∂z per judgement
        g_alpha = np.bincount(ann.annotator, weights=r * np.exp(b)[ann.item] * self.w_judgement,
                              minlength=ann.n_annotators) - (alpha - PRIOR_MEAN)
        g_b = self.w * (np.bincount(ann.item, weights=r * z, minlength=ann.n_items)
                        - (b - PRIOR_MEAN))
        value = self.w @ log_z - 0.5 * ((alpha - PRIOR_MEAN) ** 2).sum() \
            - 0.5 * self.w @ ((b - PRIOR_MEAN) ** 2)
        return -float(value), -np.concatenate([g_alpha, g_b])

    def start(self, fit: AnnotatorModel | None) -> np.ndarray:
        """x at crowd-kit's start (α = b = 1), or at a previous fit's parameters (1 where it
        has none)."""
        ann = self.ann
        if fit is None:
            return np.ones(ann.n_annotators + ann.n_items)
        x = np.concatenate([fit.skill_values[ann.annotators],
                            np.log(fit.item_parameters["beta"][ann.items])])
        return np.where(np.isfinite(x), x, 1.0)


@checked(DATA, N_ITER, TOL, Param("start", AnnotatorModel, none=True))
def glad(data: ReliabilityData | Annotations, *, n_iter: int = 1000, tol: float = 1e-5,
         start: AnnotatorModel | None = None) -> AnnotatorModel:
    """GLAD (Whitehill et al. 2009): annotator abilities and item difficulties, at the fixed
    point of crowd-kit 1.4.2's EM.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).
    n_iter : int
        The most L-BFGS iterations (1000).
    tol : float
        Converged when no partial derivative of the log posterior exceeds ``tol`` times
        1 + the judgements its parameter enters (1e-5); the search goes on to 1/100 of that
        or until no step raises the log posterior any more.
    start : AnnotatorModel, optional
        A GLAD fit of the same data whose parameters to start from (a bootstrap replicate
        starts from the fit on all the data) instead of α = b = 1.

    Returns
    -------
    AnnotatorModel
        ``skill``: the ability α_w; ``item_parameters["beta"]``: the inverse difficulty
        β_i = exp(b_i) (crowd-kit's ``betas_`` hold b_i); ``log_likelihood``: log P(judgements
        | α, β), ``settings["log_posterior"]`` with the priors' terms; ``iterations``: the
        L-BFGS iterations; ``settings["gradient"]``: the largest partial derivative per
        judgement at the end.

    Raises
    ------
    TypeError, ValueError
        A keyword of the wrong type or out of its range, named in the message.
    InputError
        Set-valued labels, or fewer than two annotators with judgements.

    References
    ----------
    Whitehill et al. (2009), §2–3 (the model, EM); crowd-kit 1.4.2 (priors, start).

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_matrix([[0, 0, 1, 1, 0, 1],
    ...                                     [0, 0, 1, 1, 1, 1],
    ...                                     [0, 1, 1, 0, 0, 1]])
    >>> g = glad(data)
    >>> [g.labels[i] for i in range(6)], g.converged
    ([0, 0, 1, 1, 0, 1], True)
    >>> {a: round(s, 3) for a, s in g.skill.items()}
    {0: 1.158, 1: 1.005, 2: 0.369}
    """
    from scipy.optimize import minimize  # only the fit needs scipy.optimize

    ann = Annotations.of(data)
    ann.check_size("glad")
    model = _Glad(ann)
    x0 = model.start(start)
    scale = 1 + np.concatenate([ann.per_annotator, ann.per_item])
    # L-BFGS over x·D, D² the curvature at the start: an annotator's α enters many more
    # judgements than an item's b, and unscaled the search takes several times the steps
    D = np.sqrt(model.curvature(x0))

    last: dict = {}

    def scaled(u: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = model.negative(u / D)
        last["u"], last["grad"] = u, grad
        return value, grad / D

    def stop(intermediate_result) -> None:
        if np.array_equal(intermediate_result.x, last["u"]) and \
                (np.abs(last["grad"]) / scale).max(initial=0.0) <= tol / 100:
            raise StopIteration

    # L-BFGS-B's vector operations (a parameter per item) go to BLAS, whose threads only wait
    # on each other at these sizes: on a busy machine they cost most of the fit
    with _blas().limit(limits=1, user_api="blas"):
        res = minimize(scaled, x0 * D, jac=True, method="L-BFGS-B", callback=stop,
                       options={"maxiter": int(n_iter), "gtol": 0.0, "ftol": 0.0,
                                "maxcor": 10})
    x = res.x / D
    grad = float((np.abs(model.negative(x)[1]) / scale).max(initial=0.0))
    T, log_l = model.posteriors(x)
    alpha, b = model.split(x)
    return AnnotatorModel.from_fit(
        "glad", ann, T, alpha, "ability α_w", log_likelihood=log_l, iterations=res.nit,
        converged=bool(grad <= tol), item_parameters={"beta": np.exp(b)},
        settings={"n_iter": n_iter, "tol": tol, "log_posterior": -float(res.fun),
                  "gradient": grad})


__all__ = ["PRIOR_MEAN", "glad"]
