"""What every model of the annotators returns: :class:`AnnotatorModel`, the most likely label
and the label posteriors of each item, the reliability of each annotator (``skill``, the
quantity the model defines), confusion matrices where the model has them, the fit's
log-likelihood and iterations; and :class:`LabelledMatrix`, an array with named rows and
columns (posteriors, confusion matrices)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .annotations import Annotations, first_argmax


@dataclass(frozen=True, eq=False)
class LabelledMatrix:
    """A 2-D array with named rows and columns: ``m[row]`` is a row as ``{column: value}``,
    ``m.values`` the array.

    Attributes
    ----------
    values : numpy.ndarray
        The array.
    rows, columns : sequence
        The names of its rows and columns.

    Examples
    --------
    >>> from corpusagree import annotators as an
    >>> from corpusagree.analyses import table
    >>> ds = an.dawid_skene(table.read("sample_corpora/table/dialogue_acts.csv").data)
    >>> m = ds.confusion["dan"]       # P(dan gives the column label | the true row label)
    >>> m.shape, round(m["Other"]["Other"], 3)
    ((4, 4), 0.552)
    """

    values: np.ndarray
    rows: Sequence
    columns: Sequence

    @cached_property
    def _row_index(self) -> dict:
        return {r: i for i, r in enumerate(self.rows)}

    def __getitem__(self, row) -> dict:
        return dict(zip(self.columns, self.values[self._row_index[row]].tolist(), strict=True))

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return self.values.shape

    def __repr__(self) -> str:
        return f"LabelledMatrix({len(self.rows)} rows × columns {list(self.columns)[:6]})"

    def to_dict(self) -> dict:
        """``{row: {column: value}}`` (nan stays a float nan)."""
        return {r: self[r] for r in self.rows}

    def to_frame(self):
        """A pandas DataFrame (pandas is optional and imported here)."""
        import pandas as pd

        return pd.DataFrame(self.values, index=list(self.rows), columns=list(self.columns))


@dataclass(frozen=True, eq=False, repr=False)
class AnnotatorModel:
    """One model of the annotators fitted to reliability data.

    Attributes
    ----------
    model : str
        ``majority_vote``, ``wawa``, ``dawid_skene``, ``one_coin``, ``glad`` or ``mace``.
    items, annotators : list
        The data's items and coders, in order.
    label_names : list
        The labels the model knows (those given at least once), in sorted order.
    codes : ndarray
        Per item, the index of its most likely label in ``label_names`` (−1: nobody judged
        the item).
    posterior : ndarray
        items × labels, P(true label | judgements) (a vote share for the votes; nan rows for
        items nobody judged).
    skill_values : ndarray
        Per annotator, the reliability the model defines (``skill_measure`` says which; nan
        for an annotator without judgements).
    judgements : ndarray
        Judgements per annotator.
    confusion_values : ndarray or None
        annotators × labels × labels, P(annotator gives column label | true row label).
    prevalence_values : ndarray or None
        The class prior π over ``label_names``.
    log_likelihood : float or None
        log P(judgements | fitted parameters), the labels of the items summed out (None for
        the votes, which are no probability model).
    iterations : int
        Iterations of the fit (0 for a vote).
    converged : bool
        Whether the fit stopped by its tolerance rather than its limit of iterations.
    skill_measure : str
        What ``skill`` holds.
    item_parameters, annotator_parameters : dict
        The model's other parameters, one value per item or per annotator (GLAD's β, MACE's
        guessing strategies …).
    settings : dict
        The settings of the fit.

    Examples
    --------
    >>> from corpusagree import annotators as an
    >>> from corpusagree.analyses import table
    >>> ds = an.dawid_skene(table.read("sample_corpora/table/dialogue_acts.csv").data)
    >>> ds
    AnnotatorModel(dawid_skene: 72 items, 4 annotators, 4 labels, 32 iterations, log L=-276.956)
    >>> max(ds.skill, key=ds.skill.get), ds.labels["d1.u01"]
    ('ann', 'Statement')
    """

    model: str
    items: list
    annotators: list
    label_names: list
    codes: np.ndarray
    posterior: np.ndarray
    skill_values: np.ndarray
    judgements: np.ndarray
    skill_measure: str
    confusion_values: np.ndarray | None = None
    prevalence_values: np.ndarray | None = None
    log_likelihood: float | None = None
    iterations: int = 0
    converged: bool = True
    item_parameters: dict = field(default_factory=dict)
    annotator_parameters: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)

    @classmethod
    def from_fit(cls, model: str, ann: Annotations, posterior: np.ndarray, skill: np.ndarray,
                 skill_measure: str, *, confusion: np.ndarray | None = None,
                 prevalence: np.ndarray | None = None, log_likelihood: float | None = None,
                 iterations: int = 0, converged: bool = True, item_parameters: dict | None = None,
                 annotator_parameters: dict | None = None, settings: dict | None = None
                 ) -> AnnotatorModel:
        """A result from arrays over the model's items and annotators (those with
        judgements), spread back over all items and coders of the data.

        Parameters
        ----------
        model : str
            The model's name.
        ann : Annotations
            The judgements the model was fitted to.
        posterior : numpy.ndarray
            Items × labels, each item's posterior over the labels.
        skill : numpy.ndarray
            One skill per annotator.
        skill_measure : str
            What ``skill`` holds.
        confusion : numpy.ndarray, optional
            Annotators × labels × labels, the confusion matrices.
        prevalence : numpy.ndarray, optional
            The class prior over the labels.
        log_likelihood : float, optional
            The fit's log-likelihood.
        iterations : int, default 0
            Iterations of the fit.
        converged : bool, default True
            Whether it stopped by its tolerance.
        item_parameters, annotator_parameters : dict, optional
            Further parameters per item and per annotator, by name.
        settings : dict, optional
            The settings of the fit.

        Returns
        -------
        AnnotatorModel
            The result over every item and coder of the data.
        """
        data, K = ann.data, ann.n_labels
        if posterior.shape != (ann.n_items, K):
            raise ValueError(f"posteriors of shape {posterior.shape}, expected "
                             f"{(ann.n_items, K)}")
        codes = np.full(data.n_items, -1, np.int64)
        codes[ann.items] = first_argmax(posterior)
        full_post = _spread(posterior, ann.items, data.n_items)
        skill = np.where(ann.per_annotator > 0, skill, np.nan)  # none in this replicate
        full_skill = _spread(skill, ann.annotators, data.n_coders)
        judgements = np.zeros(data.n_coders, np.int64)
        judgements[ann.annotators] = ann.per_annotator.astype(np.int64)
        full_conf = None if confusion is None else _spread(confusion, ann.annotators,
                                                           data.n_coders)
        items_p = {k: _spread(v, ann.items, data.n_items)
                   for k, v in (item_parameters or {}).items()}
        annot_p = {k: _spread(v, ann.annotators, data.n_coders)
                   for k, v in (annotator_parameters or {}).items()}
        return cls(model, list(data.items), list(data.coders), ann.label_names, codes,
                   full_post, full_skill, judgements, skill_measure, full_conf, prevalence,
                   None if log_likelihood is None else float(log_likelihood), int(iterations),
                   bool(converged), items_p, annot_p, dict(settings or {}))

    # ---- views ------------------------------------------------------------------------------
    @cached_property
    def labels(self) -> dict:
        """item → its most likely label (None for an item nobody judged)."""
        names = self.label_names
        return {it: (names[c] if c >= 0 else None)
                for it, c in zip(self.items, self.codes.tolist(), strict=True)}

    @property
    def posteriors(self) -> LabelledMatrix:
        """items × labels: P(true label | judgements)."""
        return LabelledMatrix(self.posterior, self.items, self.label_names)

    @cached_property
    def skill(self) -> dict:
        """annotator → reliability (see ``skill_measure``)."""
        return dict(zip(self.annotators, self.skill_values.tolist(), strict=True))

    @cached_property
    def confusion(self) -> dict | None:
        """annotator → labels × labels matrix, P(gives column | true row), or None."""
        if self.confusion_values is None:
            return None
        return {a: LabelledMatrix(self.confusion_values[i], self.label_names, self.label_names)
                for i, a in enumerate(self.annotators)}

    @property
    def prevalence(self) -> dict | None:
        """label → class prior π (None for the votes)."""
        if self.prevalence_values is None:
            return None
        return dict(zip(self.label_names, self.prevalence_values.tolist(), strict=True))

    def __repr__(self) -> str:
        judged = int((self.codes >= 0).sum())
        ll = "" if self.log_likelihood is None else f", log L={self.log_likelihood:.6g}"
        return (f"AnnotatorModel({self.model}: {judged} items, {len(self.annotators)} "
                f"annotators, {len(self.label_names)} labels, {self.iterations} iterations"
                f"{'' if self.converged else ' (not converged)'}{ll})")

    # ---- export -----------------------------------------------------------------------------
    def item_records(self) -> list[dict]:
        """One dict per item: item, label, posteriors (label → p) and item parameters."""
        names = self.label_names
        out = []
        extra = {k: v.tolist() for k, v in self.item_parameters.items()}
        for i, (it, c) in enumerate(zip(self.items, self.codes.tolist(), strict=True)):
            rec = {"item": it, "label": names[c] if c >= 0 else None,
                   "posteriors": dict(zip(names, self.posterior[i].tolist(), strict=True))}
            rec.update({k: v[i] for k, v in extra.items()})
            out.append(rec)
        return out

    def annotator_records(self) -> list[dict]:
        """One dict per annotator: annotator, judgements, skill, confusion (rows: true
        label, as lists) and annotator parameters."""
        extra = {k: v.tolist() for k, v in self.annotator_parameters.items()}
        out = []
        for a, name in enumerate(self.annotators):
            rec = {"annotator": name, "judgements": int(self.judgements[a]),
                   "skill": float(self.skill_values[a])}
            if self.confusion_values is not None:
                rec["confusion"] = self.confusion_values[a].tolist()
            rec.update({k: v[a] for k, v in extra.items()})
            out.append(rec)
        return out

    def to_dict(self) -> dict:
        """JSON-ready: the fit, then one record per item and per annotator (nan stays a
        float nan)."""
        return {"model": self.model, "skill_measure": self.skill_measure,
                "labels": list(self.label_names), "log_likelihood": self.log_likelihood,
                "iterations": self.iterations, "converged": self.converged,
                "prevalence": self.prevalence, "settings": dict(self.settings),
                "items": self.item_records(), "annotators": self.annotator_records()}

    def to_frame(self, table: str = "items"):
        """A pandas DataFrame (pandas is optional and imported here).

        Parameters
        ----------
        table : {"items", "annotators"}, default "items"
            ``items``: one row per item (label, then one ``P(label)`` column per label and
            the item parameters); ``annotators``: one row per annotator (judgements, skill
            and the scalar annotator parameters).

        Returns
        -------
        pandas.DataFrame
            The table.
        """
        import pandas as pd

        if table == "items":
            frame = pd.DataFrame({"item": self.items,
                                  "label": [self.labels[i] for i in self.items]})
            for k, name in enumerate(self.label_names):
                frame[f"P({name})"] = self.posterior[:, k]
            for k, v in self.item_parameters.items():
                frame[k] = v
            return frame
        if table == "annotators":
            frame = pd.DataFrame({"annotator": self.annotators, "judgements": self.judgements,
                                  "skill": self.skill_values})
            for k, v in self.annotator_parameters.items():
                if v.ndim == 1:
                    frame[k] = v
            return frame
        raise ValueError(f"table must be 'items' or 'annotators', not {table!r}")


def _spread(values: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    """``values`` (one row per model item or annotator) at rows ``index`` of ``size`` rows,
    nan elsewhere."""
    values = np.asarray(values, dtype=float)
    out = np.full((size,) + values.shape[1:], np.nan)
    out[index] = values
    return out


__all__ = ["AnnotatorModel", "LabelledMatrix"]
