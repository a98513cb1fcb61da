"""GLAD (Whitehill et al. 2009): annotator w gives item i its true label with probability
σ(α_w β_i) and any other label with probability (1 − σ(α_w β_i)) / (K − 1); α_w is the
annotator's ability (negative: adversarial), β_i > 0 the item's inverse difficulty.

As crowd-kit 1.4.2's ``GLAD``: β_i = exp(b_i) with b_i real, normal priors N(1, 1) on α_w and
on b_i, uniform class priors, α = b = 1 at the start. crowd-kit runs EM with a conjugate-
gradient M-step of at most 25 steps and stops when the expected complete-data objective per
judgement rises by less than 1e-5, a point that depends on the order of the rows. Here the
fit goes to the fixed point of that EM: the stationary point of the log posterior
log P(judgements | α, b) + log N(α; 1, 1) + log N(b; 1, 1), whose gradient is the EM
M-step's gradient at the current posteriors (Fisher's identity), maximised from the same
start by L-BFGS until the gradient vanishes (to within ``tol`` per judgement of each
parameter, about what double precision lets a line search on a sum over all judgements
see). Each evaluation is a few ``bincount`` over the judgements.

References
----------
Whitehill, J., Ruvolo, P., Wu, T., Bergsma, J. & Movellan, J. (2009). Whose vote should count
more: optimal integration of labels from labelers of unknown expertise. NIPS 22, 2035–2043.
"""

from __future__ import annotations

import numpy as np

from ...model.data import ReliabilityData
from .annotations import Annotations
from .dawid_skene import normalise_log
from .result import AnnotatorModel

#: mean of the normal priors on α and on b = log β (crowd-kit's defaults)
PRIOR_MEAN = 1.0


class _Glad:
    """The log posterior of GLAD and its gradient over x = (α, b), on one set of
    judgements."""

    def __init__(self, ann: Annotations) -> None:
        self.ann = ann
        K = ann.n_labels
        self.log_other = np.log(K - 1) if K > 1 else 0.0
        self.log_prior = -np.log(K)
        self.key = ann.item * K + ann.label

    def split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return x[:self.ann.n_annotators], x[self.ann.n_annotators:]

    def log_joint(self, alpha: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(items × labels log P(true label, judgements), the judgements' σ(α β))."""
        ann, K = self.ann, self.ann.n_labels
        z = alpha[ann.annotator] * np.exp(b[ann.item])
        log_right = -np.logaddexp(0.0, -z)
        log_wrong = -np.logaddexp(0.0, z) - self.log_other
        base = np.bincount(ann.item, weights=log_wrong, minlength=ann.n_items)
        gain = np.bincount(self.key, weights=log_right - log_wrong,
                           minlength=ann.n_items * K).reshape(-1, K)
        return base[:, None] + gain + self.log_prior, np.exp(log_right)

    def posteriors(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        """(posteriors of the true labels, log-likelihood) at x."""
        T, log_z = normalise_log(self.log_joint(*self.split(x))[0])
        return T, float(log_z.sum())

    def negative(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """(−log posterior, its gradient) at x, up to a constant."""
        ann = self.ann
        alpha, b = self.split(x)
        L, sigma = self.log_joint(alpha, b)
        T, log_z = normalise_log(L)
        r = T[ann.item, ann.label] - sigma  # ∂ log L / ∂(α β) per judgement
        beta = np.exp(b)
        g_alpha = np.bincount(ann.annotator, weights=r * beta[ann.item],
                              minlength=ann.n_annotators) - (alpha - PRIOR_MEAN)
        g_b = np.bincount(ann.item, weights=r * alpha[ann.annotator] * beta[ann.item],
                          minlength=ann.n_items) - (b - PRIOR_MEAN)
        value = log_z.sum() - 0.5 * ((alpha - PRIOR_MEAN) ** 2).sum() \
            - 0.5 * ((b - PRIOR_MEAN) ** 2).sum()
        return -float(value), -np.concatenate([g_alpha, g_b])


def glad(data: ReliabilityData, *, n_iter: int = 1000, tol: float = 1e-7) -> AnnotatorModel:
    """GLAD (Whitehill et al. 2009): annotator abilities and item difficulties, at the fixed
    point of crowd-kit 1.4.2's EM.

    Parameters
    ----------
    data : ReliabilityData
        Coders (annotators) × items, plain labels, missing judgements allowed.
    n_iter : int
        The most L-BFGS iterations (1000).
    tol : float
        Converged when no partial derivative of the log posterior exceeds ``tol`` times
        1 + the judgements its parameter enters (1e-7).

    Returns
    -------
    AnnotatorModel
        ``skill``: the ability α_w; ``item_parameters["beta"]``: the inverse difficulty
        β_i = exp(b_i) (crowd-kit's ``betas_`` hold b_i); ``log_likelihood``: log P(judgements
        | α, β), ``settings["log_posterior"]`` with the priors' terms.

    Raises
    ------
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

    ann = Annotations.from_data(data)
    model = _Glad(ann)
    x0 = np.ones(ann.n_annotators + ann.n_items)
    scale = 1 + np.concatenate([ann.per_annotator, ann.per_item])
    res = minimize(model.negative, x0, jac=True, method="L-BFGS-B",
                   options={"maxiter": int(n_iter), "gtol": tol, "ftol": 0.0,
                            "maxcor": 20})
    grad = float((np.abs(model.negative(res.x)[1]) / scale).max(initial=0.0))
    T, log_l = model.posteriors(res.x)
    alpha, b = model.split(res.x)
    return AnnotatorModel.from_fit(
        "glad", ann, T, alpha, "ability α_w", log_likelihood=log_l, iterations=res.nit,
        converged=bool(grad <= tol), item_parameters={"beta": np.exp(b)},
        settings={"n_iter": n_iter, "tol": tol, "log_posterior": -float(res.fun),
                  "gradient": grad})
