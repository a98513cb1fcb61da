"""Aggregation by vote: the majority vote and Wawa (worker agreement with aggregate).

The majority vote's posteriors are the vote shares of each item; ties go to the smallest label
in sorted order. An annotator's skill is the share of their judgements that equal the majority
label. Wawa weighs each judgement by that skill and votes again (crowd-kit's ``Wawa``; Ipeirotis
et al. 2010 discuss agreement with the aggregate as a first measure of worker quality).

References
----------
Ipeirotis, P. G., Provost, F. & Wang, J. (2010). Quality management on Amazon Mechanical Turk.
HCOMP '10, 64–67.
Ustalov, D., Pavlichenko, N. & Tseitlin, B. (2024). Learning from crowds with Crowd-Kit. JOSS
9(96), 6227 (``MajorityVote``, ``Wawa``).
"""

from __future__ import annotations

import numpy as np

from ...model.data import ReliabilityData
from ...model.params import checked
from .annotations import DATA, Annotations, first_argmax
from .result import AnnotatorModel

AGREEMENT = "share of the annotator's judgements equal to the majority label"


def vote_shares(ann: Annotations, weights: np.ndarray | None = None) -> np.ndarray:
    """items × labels: each label's share of the item's votes, each judgement weighing
    ``weights[annotator]`` (1 when None; an item's own weight cancels out). An item whose
    judges all weigh 0 keeps its plain vote shares (no weight says anything about it); an
    item without judgements (left out of a bootstrap replicate) gets equal shares."""
    K = ann.n_labels
    plain = np.bincount(ann.item * K + ann.label,
                        minlength=ann.n_items * K).reshape(-1, K).astype(float)
    w = plain if weights is None else np.bincount(
        ann.item * K + ann.label, weights=weights[ann.annotator],
        minlength=ann.n_items * K).reshape(-1, K)
    total = w.sum(1)
    unweighed = total <= 0
    w[unweighed] = plain[unweighed]
    total[unweighed] = plain[unweighed].sum(1)
    w[total <= 0] = 1.0
    total[total <= 0] = K
    return w / total[:, None]


def agreement_with(ann: Annotations, labels: np.ndarray) -> np.ndarray:
    """Per annotator, the share of their judgements equal to ``labels[item]``."""
    return ann.annotator_mean((ann.label == labels[ann.item]).astype(float))


@checked(DATA)
def majority_vote(data: ReliabilityData | Annotations) -> AnnotatorModel:
    """The majority label of each item and each annotator's agreement with it.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).

    Returns
    -------
    AnnotatorModel
        ``posteriors``: vote shares; ``labels``: the most frequent label (ties: the smallest
        label); ``skill``: each annotator's share of judgements equal to the majority label.

    Raises
    ------
    InputError
        Set-valued labels, or fewer than two annotators with judgements.

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "y"),
    ...                                      ("A", 2, "y"), ("B", 2, "x")])
    >>> mv = majority_vote(data)
    >>> mv.labels          # item 2 is a tie: the smallest label wins
    {1: 'x', 2: 'x'}
    >>> mv.skill
    {'A': 0.5, 'B': 1.0, 'C': 0.0}
    """
    ann = Annotations.of(data)
    ann.check_size("majority_vote")
    shares = vote_shares(ann)
    skill = agreement_with(ann, first_argmax(shares))
    return AnnotatorModel.from_fit("majority_vote", ann, shares, skill, AGREEMENT)


@checked(DATA)
def wawa(data: ReliabilityData | Annotations) -> AnnotatorModel:
    """Worker agreement with aggregate: the majority vote again, each judgement weighing its
    annotator's agreement with the plain majority vote.

    Parameters
    ----------
    data : ReliabilityData or Annotations
        Coders (annotators) × items, plain labels, missing judgements allowed (or their
        judgements as arrays, possibly reweighted).

    Returns
    -------
    AnnotatorModel
        ``posteriors``: weighted vote shares; ``skill``: the weights, each annotator's
        agreement with the plain majority vote (as crowd-kit's ``Wawa.skills_``).

    Raises
    ------
    InputError
        Set-valued labels, or fewer than two annotators with judgements.

    Examples
    --------
    >>> from corpusagree import ReliabilityData
    >>> data = ReliabilityData.from_triples([("A", 1, "x"), ("B", 1, "x"), ("C", 1, "y"),
    ...                                      ("A", 2, "y"), ("B", 2, "x"), ("C", 2, "y")])
    >>> w = wawa(data)
    >>> w.skill
    {'A': 1.0, 'B': 0.5, 'C': 0.5}
    >>> w.labels, round(w.posteriors[2]["y"], 4)
    ({1: 'x', 2: 'y'}, 0.75)
    """
    ann = Annotations.of(data)
    ann.check_size("wawa")
    skill = agreement_with(ann, first_argmax(vote_shares(ann)))
    shares = vote_shares(ann, skill)
    return AnnotatorModel.from_fit("wawa", ann, shares, skill, AGREEMENT, iterations=1)


__all__ = ["AGREEMENT", "agreement_with", "majority_vote", "vote_shares", "wawa"]
