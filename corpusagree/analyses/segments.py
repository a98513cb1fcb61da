"""``corpusagree segments``: how much do segmentation annotators agree, and who is the odd one out?

Segmentations are read by the ``segments`` readers, converted (:mod:`corpusagree.convert.
segments`) into potential boundaries labelled yes/no and into units labelled by their segment's
unit set, and reported as:

* boundary agreement — percent agreement, π, κ (multi-κ beyond two coders), α, nominal
  (Passonneau & Litman 1993; Carletta 1996) — and bias B; the same on typed boundaries when
  every segmentation has boundary types;
* unit-set α, β and bias B per set distance (Artstein & Poesio 2005, §4.4);
* coder × coder means, over the documents both coders segmented, of B and S (Fournier 2013),
  Pk (Beeferman et al. 1999) and WindowDiff (Pevzner & Hearst 2002), each equal to segeval
  2.0.11 with its defaults, and of boundary and unit-set α;
* leave-one-coder-out α, naming the coder whose removal raises agreement most (Krippendorff's
  odd-man-out analysis, Carletta 1996, §4);
* each coder's boundary rate against the other coders' on the same potential boundaries;
* optionally per-document figures, bootstrap intervals (clustered by document), and the
  boundary positions and units that cost most in observed disagreement.

>>> from corpusagree.analyses import segments
>>> report = segments.analyse(segments.read("sample_corpora/segments/segments.json"))
>>> report.leave_one_out.odd_one_out["coder"]
'ben'
>>> report.to_frame("unit_sets")[["id", "distance", "value"]].round(4).head(2)
      id distance   value
0  alpha     dice  0.7601
1   beta     dice  0.7585
"""

from __future__ import annotations

import math
import re
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert import segments as conv
from ..model.corpus import Corpus, Segmentation
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import checked
from ..model.progress import Progress, Stages
from ..model.records import CoderMatrix
from ..readers import _paths, discover
from ..readers._segfiles import read_coder_map
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import THRESHOLDS, Column, Record, Records, Table
from ..stats import diagnostics as dg
from ..stats import distances as dist
from ..stats import segmetrics
from ..stats.coefficients import alpha
from ..stats.inference import Bootstrap, resampling
from . import corpora
from .base import (
    BOUNDARY_COEFFICIENTS,
    KEYWORDS,
    Estimate,
    coefficient_rows,
    estimate_table,
    first_alpha,
    plain,
    quiet,
)
from .diagnose import MAX_CODER_COLUMNS
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "DISTANCES", "JOB", "MAX_MATRIX", "METRICS", "PARAMS", "SET_DISTANCES",
           "UNIT_COEFFICIENTS", "CoderLeftOut", "CoderRate", "CostliestItems", "CostlyPosition",
           "DocumentSegmentation",
           "LeaveOneOut",
           "Pairwise", "SegmentsReport",
           "analyse", "as_corpus", "corpus_of", "local_coder_hint", "map_coders", "read",
           "rename_local"]

#: set distances for unit sets when none are asked for
DISTANCES = ("dice", "jaccard", "passonneau")
#: every set distance
SET_DISTANCES = dist.SET_NAMES
UNIT_COEFFICIENTS = ("alpha", "beta", "bias")
#: display names and sources of the pairwise metrics of :mod:`corpusagree.stats.segmetrics`
METRICS = {"boundary_similarity": ("B", "boundary similarity (Fournier 2013)"),
           "segmentation_similarity": ("S", "segmentation similarity (Fournier 2013)"),
           "pk": ("Pk", "Pk (Beeferman et al. 1999)"),
           "window_diff": ("WindowDiff", "WindowDiff (Pevzner & Hearst 2002)")}
#: coders up to which the coder × coder matrices and the per-coder tables are given in full
MAX_MATRIX = 10


# ---- reading ---------------------------------------------------------------------------------
def read(paths: str | PathLike | Sequence[str | PathLike] | Mapping[str, str | PathLike], *,
         input_format: str = "auto", annotators: Sequence[str] | None = None,
         local_coders: bool = False, coder_map: str | PathLike | None = None,
         **reader_options) -> Corpus[list]:
    """Segmentations read from files or folders of one format.

    Parameters
    ----------
    paths : path, list of paths, or mapping annotator → path
        segeval JSON/TSV or positions files (every coder in one file), or one folder per
        annotator of RST, DISRPT or plain-text files.
    input_format : str
        ``segeval``, ``positions``, ``rs3``, ``disrpt``, ``text`` or ``auto``.
    annotators : list of str, optional
        Keep only these coders.
    local_coders : bool
        Coder names are local to each document (Moonstone's ``an1 … anK``; Kazantseva &
        Szpakowicz 2012) and all different people: renamed ``document/coder``.
    coder_map : path, optional
        A CSV ``document,coder,person`` saying who is who.
    **reader_options
        The format's own options (``unit``, ``marker``, ``delimiter`` …).

    Returns
    -------
    Corpus
        ``data``: one :class:`~corpusagree.model.corpus.Segmentation` per document and coder.
        When the names look local to each document and neither option is given, a note says
        so (:func:`local_coder_hint`).

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> segments.read("sample_corpora/segments/segments.json")
    <Corpus segments (segeval): 3 annotators, 3 documents, 8 segmentations>
    """
    if local_coders and coder_map is not None:
        raise InputError("give local_coders=True or coder_map=FILE, "
                         "not both")
    plist = list(paths.values()) if isinstance(paths, Mapping) else _paths.as_list(paths)
    fmt, segs = corpora.read("segments", paths, input_format, annotators, job="segments",
                             **reader_options)
    notes = []
    if local_coders:
        segs = rename_local(segs)
    elif coder_map is not None:
        segs = map_coders(segs, coder_map)
    else:
        hint = local_coder_hint(segs, plist)
        if hint is not None:
            warnings.warn(hint, UserWarning, stacklevel=2)
            notes.append(hint)
    corpus = corpus_of(segs, fmt, [str(p) for p in plist],
                       readers.get("segments", fmt).options_for("segments", reader_options))
    corpus.notes += notes
    return corpus


def corpus_of(segmentations: Sequence[Segmentation], fmt: str = "python",
              inputs: Sequence[str] = (), reader_options: dict | None = None) -> Corpus[list]:
    """A corpus of segmentations (what :func:`read` returns)."""
    segs = list(segmentations)
    return corpora.corpus_of(segs, job="segments", fmt=fmt,
                             annotators=dict.fromkeys(s.annotator for s in segs),
                             documents=dict.fromkeys(s.document for s in segs),
                             inputs=inputs, reader_options=reader_options,
                             size=f"{len(segs):,} segmentations", kind="segmentations")


def as_corpus(segmentations: Corpus | Sequence[Segmentation]) -> Corpus[list]:
    """A corpus of the segments job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or segmentations made into
    one: :func:`analyse` calls this first, so that it takes either what :func:`read` returns or
    segmentations made in Python.

    Parameters
    ----------
    segmentations : Corpus or sequence of Segmentation
        A corpus of the segments job, or segmentations made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> from corpusagree.model.corpus import Segmentation
    >>> segments.as_corpus([Segmentation("d1", "ann", (3, 2)), Segmentation("d1", "bob", (5,))])
    <Corpus segments (python): 2 annotators, 1 document, 2 segmentations>
    """
    return corpora.as_corpus(segmentations, "segments", {Segmentation: corpus_of}, JOB.kinds)


def rename_local(segs: Sequence[Segmentation]) -> list[Segmentation]:
    """Coders renamed ``document/coder``, so that no two documents share a coder."""
    return [replace(s, annotator=f"{s.document}/{s.annotator}") for s in segs]


def map_coders(segs: Sequence[Segmentation], coder_map: str | PathLike) -> list[Segmentation]:
    """Coders renamed to the person the coder-map file (``document,coder,person``) gives for
    their document; a coder the file does not map, or two coders of one document mapped to
    one person, is an InputError naming the file."""
    people = read_coder_map(coder_map)
    out, seen = [], {}
    for s in segs:
        person = people.get((s.document, s.annotator))
        if person is None:
            raise InputError(f"no person for document {s.document!r}, coder {s.annotator!r} "
                             f"(read from {s.source or 'the input'})", coder_map)
        other = seen.setdefault((s.document, person), s.annotator)
        if other != s.annotator:
            raise InputError(f"document {s.document!r}: coders {other!r} and {s.annotator!r} "
                             f"are both mapped to {person!r}", coder_map)
        out.append(replace(s, annotator=person))
    return out


#: a coder name that ends in a number: (prefix, number)
_NUMBERED = re.compile(r"(.*?)0*(\d+)")
#: words in the name of a file that may say which person each coder is
_MAPPING_WORDS = ("annot", "coder", "rater", "judge", "group", "map")


def local_coder_hint(segs: Sequence[Segmentation], paths: Sequence[Path] = ()) -> str | None:
    """Why the coder names look local to each document, or None. They do when there are two
    or more documents, every document numbers its coders from 1 with one prefix (``an1 …
    anK``), and either the documents have different numbers of coders or a file beside the
    input looks like a coder mapping (e.g. Moonstone's ``annot_to_group.csv``)."""
    coders: dict[str, set[str]] = defaultdict(set)
    for s in segs:
        coders[s.document].add(s.annotator)
    if len(coders) < 2:
        return None
    prefixes, sizes = set(), set()
    for names in coders.values():
        found = [_NUMBERED.fullmatch(n) for n in names]
        if not all(found) or sorted(int(m[2]) for m in found) != list(range(1, len(names) + 1)):
            return None
        prefixes |= {m[1] for m in found}
        sizes.add(len(names))
    if len(prefixes) != 1:
        return None
    sources = {Path(source).resolve() for source in {s.source for s in segs} if source}
    folders = {f for p in paths for f in ((p, p.parent) if p.is_dir() else (p.parent,
                                                                              p.parent.parent))}
    mapping = sorted({f for d in folders if d.is_dir() for f in d.iterdir()
                      if f.is_file() and f.suffix.lower() in (".csv", ".tsv")
                      and f.resolve() not in sources
                      and any(w in f.stem.lower() for w in _MAPPING_WORDS)})
    if len(sizes) < 2 and not mapping:
        return None
    prefix = prefixes.pop()
    low, high = min(sizes), max(sizes)
    return (f"coder names look local to each document: each of the {len(coders)} documents "
            f"numbers its coders {prefix}1 … {prefix}K (K = "
            f"{low if low == high else f'{low}–{high}'}), so {prefix}1 of one document need "
            "not be the same person as in another, yet they are pooled as one coder"
            + (f" ({', '.join(f.name for f in mapping)} may say who is who)" if mapping else "")
            + "; use local_coders=True if every document has its own coders, or coder_map=FILE "
            "(CSV document,coder,person) to say who is who")


# ---- the report --------------------------------------------------------------------------------
@dataclass(repr=False)
class Pairwise:
    """Coder × coder comparisons of segmentations.

    Attributes
    ----------
    means : PairwiseMeans
        The means, over the documents both coders segmented, of boundary similarity B,
        segmentation similarity S (Fournier 2013), Pk (Beeferman et al. 1999) and WindowDiff
        (Pevzner & Hearst 2002), each equal to segeval 2.0.11 with its defaults.
    distance : str
        The set distance of the unit-set α.
    alpha : dict
        α on the items both coders judged, of the boundaries (nominal) and of the unit sets.
    alpha_per_coder : dict
        Each coder's mean α against the others.

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> pw = segments.analyse(segments.read("sample_corpora/segments/segments.json")).pairwise
    >>> list(pw.matrices)
    ['boundary_similarity', 'segmentation_similarity', 'pk', 'window_diff',
     'alpha_boundaries', 'alpha_units']
    """

    means: segmetrics.PairwiseMeans
    distance: str
    alpha: dict[str, np.ndarray]
    alpha_per_coder: dict[str, np.ndarray]

    @property
    def matrices(self) -> dict[str, CoderMatrix]:
        """Coder × coder (with the coders' names): the four metrics, then
        ``alpha_boundaries`` and ``alpha_units``."""
        return {k: CoderMatrix(self.means.coders, m)
                for k, m in {**self.means.matrices, **self.alpha}.items()}

    @property
    def per_coder(self) -> dict[str, np.ndarray]:
        """Each coder's mean against the others: the metrics both directions, α over pairs."""
        return {**self.means.per_coder, **self.alpha_per_coder}

    def to_dict(self) -> dict:
        """The pairwise figures as plain data (``pairwise`` in the JSON)."""
        m = self.means
        return plain({"coders": m.coders, "shared_documents": m.shared_documents,
                      "pairs": m.pairs, "mean": m.mean, "distance": self.distance,
                      "matrices": {k: v.values for k, v in self.matrices.items()},
                      "per_coder": self.per_coder})


@dataclass
class CoderRate(Record):
    """One coder's boundary rate against the other coders' on the same positions
    (:func:`corpusagree.stats.segmetrics.boundary_rates`): a row of
    :attr:`SegmentsReport.coder_rates`.

    Attributes
    ----------
    coder : str
        The coder.
    documents, positions, boundaries : int
        The documents it segmented, the positions it judged and the boundaries it marked.
    rate, others_rate : float
        Its boundaries per position, and the other coders' on the same positions.
    ratio : float
        rate / others_rate (nan where the others marked none).
    """

    coder: str
    documents: int
    positions: int
    boundaries: int
    rate: float
    others_rate: float
    ratio: float


@dataclass
class CoderLeftOut(Record):
    """α without one coder: a row of :attr:`LeaveOneOut.rows`.

    Attributes
    ----------
    coder : str
        The coder left out.
    boundary_alpha : float
        α of the others' boundaries.
    boundary_change : float
        Its difference from α of every coder's (positive: the coder lowers it).
    unit_alpha : float
        α of the others' unit sets.
    unit_change : float
        Its difference from α of every coder's.
    """

    coder: str
    boundary_alpha: float
    boundary_change: float
    unit_alpha: float
    unit_change: float


@dataclass(repr=False)
class LeaveOneOut:
    """α without each coder (three coders or more), of the boundaries and of the unit sets.

    Attributes
    ----------
    distance : str
        The set distance of the unit-set α.
    all_boundary_alpha, all_unit_alpha : float
        α with every coder.
    rows : Records of CoderLeftOut
        Per coder, α without them and the change.
    odd_one_out : dict or None
        The coder whose removal raises unit-set α most, and by how much (Carletta 1996, §4).
    odd_one_out_boundaries : dict or None
        The same for boundary α.

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> loo = segments.analyse(segments.read("sample_corpora/segments/segments.json")).leave_one_out
    >>> loo.odd_one_out["coder"], round(loo.odd_one_out["change"], 4)
    ('ben', 0.0796)
    """

    distance: str
    all_boundary_alpha: float
    all_unit_alpha: float
    rows: Records[CoderLeftOut]
    odd_one_out: dict | None
    odd_one_out_boundaries: dict | None

    def to_dict(self) -> dict:
        """The leave-one-out α as plain data (``leave_one_out`` in the JSON)."""
        return plain({"distance": self.distance, "all_boundary_alpha": self.all_boundary_alpha,
                      "all_unit_alpha": self.all_unit_alpha, "rows": self.rows,
                      "odd_one_out": self.odd_one_out,
                      "odd_one_out_boundaries": self.odd_one_out_boundaries})


@dataclass
class CostlyPosition(Record):
    """A potential boundary or a unit that costs much in observed disagreement: a row of
    :attr:`CostliestItems.boundaries` and :attr:`CostliestItems.units`.

    Attributes
    ----------
    document : str
        Its document.
    position : int
        Its position in the document (the unit before the potential boundary, or the unit).
    disagreement : float
        The mean pairwise distance of its labels (Artstein & Poesio 2008, §5.1).
    cost : float
        Its part of Krippendorff's observed disagreement Do.
    share : float
        That part as a share of Do.
    labels : dict
        Coder → its label: yes/no at a boundary, [first unit, last unit] of the coder's
        segment at a unit (None where missing).
    """

    document: str
    position: int
    disagreement: float
    cost: float
    share: float
    labels: dict


@dataclass(repr=False)
class CostliestItems:
    """The potential boundaries and the units that cost most in observed disagreement.

    Attributes
    ----------
    distance : str
        The set distance of the units.
    boundaries : Records of CostlyPosition
        Potential boundaries with each coder's yes/no.
    units : Records of CostlyPosition
        Units with each coder's segment, as [first unit, last unit].
    """

    distance: str
    boundaries: Records[CostlyPosition]
    units: Records[CostlyPosition]

    def to_dict(self) -> dict:
        """The costliest boundaries and units as plain data."""
        return plain({"distance": self.distance, "boundaries": self.boundaries,
                      "units": self.units})


@dataclass
class DocumentSegmentation(Record):
    """α of one document's boundaries and unit sets with its mean pairwise metrics: a row of
    :attr:`SegmentsReport.by_document`.

    Attributes
    ----------
    document : str
        The document.
    coders : int
        The coders who segmented it.
    units : int
        Its units (the smallest, in which the segmentations are counted).
    segments_per_coder : float
        Segments per coder, to two decimals.
    boundary_alpha : float
        α (nominal) of its potential boundaries, nan where undefined.
    unit_alpha : dict
        Distance → α of its unit sets under that distance, nan where undefined.
    boundary_similarity, segmentation_similarity, pk, window_diff : float
        The mean over its coder pairs of each metric (:data:`METRICS`), nan where undefined.
    """

    document: str
    coders: int
    units: int
    segments_per_coder: float
    boundary_alpha: float
    unit_alpha: dict[str, float]
    boundary_similarity: float
    segmentation_similarity: float
    pk: float
    window_diff: float


@dataclass(repr=False, kw_only=True)
class SegmentsReport(Report):
    """Agreement between segmentation annotators (see the module docstring).

    Attributes
    ----------
    inputs : list of str
        The paths read.
    options : dict
        The options of the analysis and of the reader, as the JSON records them.
    bootstrap : Bootstrap or None
        The bootstrap settings, None without intervals.
    notes : list of str
        What a reader of the report must know.
    format : str or None
        The format read.
    unit : str
        What the segmentations count (``sentence``, ``word``, ``paragraph`` …).
    data : dict
        Documents, coders, units, segmentations and segments.
    boundaries : Records
        Boundary agreement (A_o, π, κ or multi-κ, α, B) on potential boundaries.
    typed_boundaries : Records or None
        The same on boundary types, when every segmentation has them.
    unit_sets : Records
        α, β and B of the unit sets per set distance (Artstein & Poesio 2005, §4.4).
    pairwise : Pairwise
        Coder × coder B, S, Pk, WindowDiff and α.
    leave_one_out : LeaveOneOut
        α without each coder.
    coder_rates : Records of CoderRate
        Each coder's boundary rate against the others'.
    by_document : Records of DocumentSegmentation or None
        With ``by_document=True``.
    diagnostics : CostliestItems or None
        With ``diagnostics=N``.
    typed_coincidence : dict or None
        The boundary types' coincidences, with diagnostics.
    local_coders : str or None
        Why the coder names look local to each document, or None (the summary says so, and
        the coder-level tables are left out).

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> report = segments.analyse(segments.read("sample_corpora/segments/segments.json"))
    >>> [(e.id, round(e.value, 4)) for e in report.unit_sets][:2]
    [('alpha', 0.7601), ('beta', 0.7585)]
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    format: str | None
    unit: str
    data: dict
    boundaries: Records[Estimate]
    typed_boundaries: Records[Estimate] | None
    unit_sets: Records[Estimate]
    pairwise: Pairwise
    leave_one_out: LeaveOneOut
    coder_rates: Records[CoderRate]
    by_document: Records[DocumentSegmentation] | None
    diagnostics: CostliestItems | None
    notes: list[str]
    #: with the diagnostics of typed boundaries: their coincidence matrix (labels, matrix)
    typed_coincidence: dict | None = None
    #: why the coder names look local to each document (:func:`local_coder_hint`), or None:
    #: the summary says so, and the coder-level tables are left out
    local_coders: str | None = None
    job = "segments"

    def body(self) -> dict:
        return {"format": self.format, "unit": self.unit, "data": self.data,
                "boundaries": self.boundaries, "typed_boundaries": self.typed_boundaries,
                "unit_sets": self.unit_sets, "pairwise": self.pairwise,
                "leave_one_out": self.leave_one_out, "coder_rates": self.coder_rates,
                "by_document": self.by_document, "diagnostics": self.diagnostics,
                "typed_coincidence": self.typed_coincidence}

    def summary(self) -> str:
        d = self.data
        where = ", ".join(self.inputs) or "segmentations"
        fmt = f" ({self.format})" if self.format else ""
        caution = ("CAUTION: coder names look local to each document (the same name need not "
                   "be the same person in another), so the coder-level tables (coder × "
                   "coder, leave one coder out, coder rates) are left out; see the first "
                   "note. "
                   if self.local_coders else "")
        return (f"{caution}{where}{fmt}: {_n(d['documents'], 'document')}, "
                f"{_n(len(d['coders']), 'coder')}, {_n(d['units'], self.unit)}, "
                f"{_n(d['segmentations'], 'segmentation')} ({_n(d['segments'], 'segment')}); "
                f"{_n(d['not_segmented'], 'document × coder cell')} not segmented "
                "(missing data)")

    def headline(self) -> Estimate | None:
        return first_alpha(self.boundaries)

    def _tables(self) -> list[Table]:
        d = self.data
        out = [estimate_table(
            "boundaries", f"Boundaries: {d['potential_boundaries']} potential boundaries "
            "labelled yes/no (Passonneau & Litman 1993; Carletta 1996)", self.boundaries)]
        if self.typed_boundaries is not None:
            out.append(estimate_table("typed_boundaries", "Typed boundaries (no / boundary "
                                      "type)", self.typed_boundaries))
        if self.typed_coincidence is not None:
            names = [str(x) for x in self.typed_coincidence["labels"]]
            out.append(Table("typed_coincidence", "Coincidence matrix o_ck of the typed "
                             "boundaries (Krippendorff 2011; rows sum to pairable values)",
                             [Column("label", "")] + [Column(n, n, "float", 3) for n in names],
                             [[n, *row] for n, row in zip(
                                 names, self.typed_coincidence["matrix"], strict=True)],
                             matrix=True))
        out.append(estimate_table(
            "unit_sets", f"Unit sets: {d['units']} units labelled by the units of their "
            "segment (Artstein & Poesio 2005, §4.4)", self.unit_sets))
        pairwise = self._pairwise_tables()
        if self.local_coders:  # coders are names, not people: only the pooled means hold
            out += pairwise[:1]
        else:
            out += pairwise + self._coder_tables()
        if self.diagnostics is not None:
            out += self._costliest_tables()
        if self.by_document is not None:
            out.append(self._document_table())
        return out

    def _pairwise_tables(self) -> list[Table]:
        pw = self.pairwise
        m = pw.means
        means = Table(
            "pairwise_means", f"Pairwise segmentation metrics, mean over all {m.pairs} "
            "(document, coder pair) comparisons (segeval 2.0.11 defaults)",
            [Column("symbol", "metric"), Column("name", ""), Column("kind", "kind"),
             Column("value", "mean", "float")],
            [[METRICS[k][0], METRICS[k][1],
              "similarity (1 = identical)" if k in segmetrics.SIMILARITIES else
              "penalty (0 = identical)", v] for k, v in m.mean.items()],
            ["Pk and WindowDiff take the first coder of a pair as hypothesis and the second as "
             "reference; every ordered pair is counted (segeval's permuted=True)"])
        names = self._pairwise_names()
        coders = [str(c) for c in m.coders]
        if len(coders) <= MAX_MATRIX:
            return [means, *self._matrix_tables()]
        per = pw.per_coder
        rows, more = _top([[c, *(float(per[k][i]) for k in names)] for i, c in enumerate(coders)],
                          lambda r: r[1])
        return [means, Table(
            "pairwise_per_coder", f"Each coder against the others (mean over pairs; "
            f"{len(coders)} coders: the coder × coder matrices are in the JSON)",
            [Column("coder", "coder")] + [Column(k, names[k], "float", 3) for k in names],
            rows, more), *(replace(t, terminal=False) for t in self._matrix_tables())]

    def _pairwise_names(self) -> dict[str, str]:
        return {**{k: s for k, (s, _) in METRICS.items()}, "alpha_boundaries": "α boundaries",
                "alpha_units": f"α units {self.pairwise.distance}"}

    def _matrix_tables(self) -> list[Table]:
        """The coder × coder matrices, one table each."""
        names = self._pairwise_names()
        coders = [str(c) for c in self.pairwise.means.coders]
        o = self.leave_one_out.odd_one_out
        odd = (str(o["coder"]),) if o is not None and o["change"] > 0 else ()
        return [Table(
            f"pairwise_{key}", f"{names[key]}, coder × coder: " + (
                "on the items both coders judged" if key.startswith("alpha") else
                "mean over the documents both coders segmented")
            + (" (row = hypothesis, column = reference)" if key in ("pk", "window_diff") else ""),
            [Column("coder", "")] + [Column(c, c, "float", 3) for c in coders],
            [[c, *row] for c, row in zip(coders, matrix.tolist(), strict=True)],
            matrix=True, marked=odd, thresholds=THRESHOLDS if key.startswith("alpha") else ())
            for key, matrix in self.pairwise.matrices.items()]

    def _coder_tables(self) -> list[Table]:
        out = []
        loo = self.leave_one_out
        if loo.rows:
            rows, more = _top([[r["coder"], r["boundary_alpha"], r["boundary_change"],
                                r["unit_alpha"], r["unit_change"]] for r in loo.rows],
                              lambda r: -r[4])
            notes = []
            odd = loo.odd_one_out
            if odd is not None:
                verb = "raises" if odd["change"] > 0 else "lowers"
                notes.append(f"Removing {odd['coder']} {verb} unit-set α ({loo.distance}) most: "
                             f"{odd['change']:+.3f}"
                             + ("" if odd["change"] > 0 else " (no removal raises it)"))
            out.append(Table(
                "leave_one_out", f"Leave one coder out: α without the coder (all coders: "
                f"boundaries {loo.all_boundary_alpha:.3f}, unit sets {loo.distance} "
                f"{loo.all_unit_alpha:.3f}; Carletta 1996, §4)",
                [Column("coder", "coder"), Column("boundary_alpha", "boundary α", "float"),
                 Column("boundary_change", "change", "float"),
                 Column("unit_alpha", f"unit-set α ({loo.distance})", "float"),
                 Column("unit_change", "change", "float")], rows, notes + more))
        rows, more = _top([[r["coder"], r["documents"], r["positions"], r["boundaries"],
                            r["rate"], r["others_rate"], r["ratio"]] for r in self.coder_rates],
                          _farthest_from_one)
        out.append(Table(
            "coder_rates", "Boundary rate of each coder against the other coders' on the same "
            "positions (bias)",
            [Column("coder", "coder"), Column("documents", "documents", "int"),
             Column("positions", "positions", "int"), Column("boundaries", "boundaries", "int"),
             Column("rate", "rate", "float"), Column("others_rate", "others' rate", "float"),
             Column("ratio", "ratio", "float")], rows,
            ["ratio > 1: the coder segments more finely than the others"] + more))
        return out

    def _costliest_tables(self) -> list[Table]:
        diag = self.diagnostics
        out = []
        for key, title, position in (
                ("boundaries", "Most disagreed-on potential boundaries (the gap after unit p)",
                 "p"),
                ("units", f"Most disagreed-on units (each coder's segment, {diag.distance})",
                 "unit")):
            rows = getattr(diag, key)
            if not rows:
                continue
            coders = list(rows[0]["labels"])
            wide = len(coders) <= MAX_CODER_COLUMNS
            cols = [Column("document", "document"), Column("position", position, "int"),
                    Column("disagreement", "disagreement", "float"),
                    Column("share", "share of Do", "share")]
            cols += [Column(c, c, "label") for c in coders] if wide else \
                [Column("labels", "labels")]
            body = []
            for r in rows:
                labels = [_label(r["labels"][c]) for c in coders]
                body.append([r["document"], r["position"], r["disagreement"], r["share"],
                             *(labels if wide else ["; ".join(
                                 f"{c}={x}" for c, x in zip(coders, labels, strict=True)
                                 if x is not None)])])
            out.append(Table(f"costliest_{key}", title, cols, body,
                             ["disagreement = mean pairwise distance on the item, share = its "
                              "part of α's Do"]))
        return out

    def _document_table(self) -> Table:
        distances = self.options["distances"]
        cols = [Column("document", "document"), Column("coders", "coders", "int"),
                Column("units", "units", "int"),
                Column("segments_per_coder", "segments/coder", "float", 2),
                Column("boundary_alpha", "boundary α", "float")]
        cols += [Column(f"unit_alpha_{d}", f"unit-set α {d}", "float") for d in distances]
        cols += [Column(k, METRICS[k][0], "float", optional=k not in ("boundary_similarity",
                                                                        "pk"))
                 for k in METRICS]
        rows = [[r["document"], r["coders"], r["units"], r["segments_per_coder"],
                 r["boundary_alpha"], *(r["unit_alpha"][d] for d in distances),
                 *(r[k] for k in METRICS)] for r in self.by_document]
        return Table("by_document", "By document (B, S, Pk, WindowDiff: mean over coder pairs)",
                     cols, rows)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _label(value) -> str | None:
    """A costliest item's label for a table cell: yes/no, or a segment's first–last unit."""
    if isinstance(value, list):
        return f"{value[0]}–{value[1]}"
    return value


def _farthest_from_one(row: list) -> float:
    """Sort key of a coder-rate row: the ratio farthest from 1 (in log terms) first."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return -abs(float(np.log(row[6])))


def _top(rows: list[list], key: Callable[[list], float]) -> tuple[list[list], list[str]]:
    """All rows when there are few coders; else the :data:`MAX_MATRIX` rows with the smallest
    ``key`` (nan last) and a note saying how many more the JSON has."""
    if len(rows) <= MAX_MATRIX:
        return rows, []
    ranked = sorted(rows, key=lambda r: (math.isnan(key(r)), key(r)))
    return ranked[:MAX_MATRIX], [f"… {len(rows) - MAX_MATRIX} more coders in the JSON "
                                 "(--format json)"]


# ---- the analysis ------------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
)


@checked(*PARAMS, where="segments.analyse()")
def analyse(corpus: Corpus | Sequence[Segmentation], *,
            distance: str | Sequence[str] = DISTANCES, bootstrap: Bootstrap | None = None,
            by_document: bool = False, diagnostics: int | None = None,
            progress: Progress | None = None) -> SegmentsReport:
    """Every figure of the module docstring for a corpus of segmentations.

    Parameters
    ----------
    corpus : Corpus or list of Segmentation
        What :func:`read` returned, or segmentations made in Python.
    distance : str or list of str
        The set distances of the unit sets (``dice``, ``jaccard``, ``passonneau``, ``masi``);
        the first is used for the pairwise and leave-one-out α and the costliest units.
    bootstrap : Bootstrap, optional
        Intervals resampling documents (items when there is one document, with a note, or
        with ``cluster=False``).
    by_document : bool
        α and the mean pairwise metrics per document.
    diagnostics : int, optional
        The N potential boundaries and units that cost most in observed disagreement.
    progress : callable, optional
        ``progress(done, total)`` as the work advances.

    Returns
    -------
    SegmentsReport

    Raises
    ------
    InputError
        No set distance, an unknown one, no document segmented by two coders.

    Examples
    --------
    >>> import corpusagree as ca
    >>> from corpusagree.analyses import segments
    >>> corpus = segments.read("sample_corpora/segments/segments.json")
    >>> report = segments.analyse(corpus, distance="dice",
    ...                           bootstrap=ca.Bootstrap(n_resamples=200, seed=1))
    >>> report.unit_sets[0].interval.clustered, report.notes[0]
    (True, 'only 3 documents: intervals clustered by document are rough')
    """
    corpus = as_corpus(corpus)
    distances = _set_distances(distance)
    segs = list(corpus.data)
    lay, bdata, udata, tdata = _converted(segs, ", ".join(corpus.inputs) or None)
    docs: dict[str, list[Segmentation]] = defaultdict(list)
    for s in segs:
        docs[s.document].append(s)
    docs = {d: docs[d] for d in lay.documents}
    local = local_coder_hint(segs, [Path(p) for p in corpus.inputs if Path(p).exists()])
    notes: list[str] = ([local] if local else []) + list(corpus.notes)
    settings = resampling(bootstrap, bdata.groups, notes,
                          items="items (potential boundaries, units)")
    sizes = [settings.n_resamples if settings else 0] * (2 + (tdata is not None))
    stage = Stages(progress, [*sizes, len(docs), len(docs) if by_document else 0])

    boundaries = coefficient_rows(bdata, BOUNDARY_COEFFICIENTS, ["nominal"], settings,
                               stage.next(), notes)
    unit_sets = coefficient_rows(udata, UNIT_COEFFICIENTS, distances, settings, stage.next(),
                              notes)
    typed = None if tdata is None else coefficient_rows(tdata, BOUNDARY_COEFFICIENTS, ["nominal"],
                                                     settings, stage.next(), notes)
    means = segmetrics.pairwise_means(
        {d: {s.annotator: s.masses for s in v} for d, v in docs.items()}, lay.coders,
        progress=stage.next())
    pairwise, loo = _coders_compared(bdata, udata, distances[0], means)
    options = {"distances": distances, "by_document": by_document, "diagnostics": diagnostics,
               "reader_options": dict(corpus.reader_options)}
    return SegmentsReport(
        inputs=list(corpus.inputs), options=options, bootstrap=settings,
        format=corpus.format, unit=segs[0].unit, data=_counts(lay, bdata),
        boundaries=boundaries, typed_boundaries=typed, unit_sets=unit_sets,
        pairwise=pairwise, leave_one_out=loo,
        coder_rates=Records(CoderRate(**r) for r in segmetrics.boundary_rates(bdata)),
        by_document=_by_document(docs, distances, means.per_document, stage.next())
        if by_document else None,
        diagnostics=None if diagnostics is None
        else _costliest(bdata, udata, distances[0], diagnostics),
        notes=list(dict.fromkeys(notes)),
        typed_coincidence=None if diagnostics is None or tdata is None else _coincidence(tdata),
        local_coders=local,
    )


def _set_distances(distance: str | Sequence[str]) -> list[str]:
    """The distances of the unit sets asked for, one or more, each a set distance."""
    distances = [distance] if isinstance(distance, str) else list(distance)
    if not distances:
        raise InputError("give at least one set distance")
    for d in distances:
        if d not in SET_DISTANCES:
            raise InputError(f"unknown set distance {d!r}; known: {', '.join(SET_DISTANCES)}")
    return distances


def _converted(segs: list[Segmentation], where: str | None
               ) -> tuple[conv.SegmentLayout, ReliabilityData, ReliabilityData,
                          ReliabilityData | None]:
    """The layout of the segmentations, their boundaries, unit sets and typed boundaries
    (None without types); an error, said of the inputs, when no document has two coders."""
    try:
        lay = conv.layout(segs)
        if not (lay.coded().sum(0) >= 2).any():
            raise InputError(f"no document was segmented by two or more coders ("
                             f"{_n(len(lay.documents), 'document')}, "
                             f"{_n(len(lay.coders), 'coder')}), so there is no agreement to "
                             "measure")
        bdata = conv.boundaries(lay)
        udata = conv.unit_sets(lay)
        tdata = conv.boundaries(lay, types=True) if lay.types is not None else None
    except InputError as e:
        if e.path is not None or where is None:
            raise
        raise InputError(e.message, where, e.line) from None
    return lay, bdata, udata, tdata


def _counts(lay: conv.SegmentLayout, bdata: ReliabilityData) -> dict:
    """What the data hold: documents, coders, units, segmentations, segments, potential
    boundaries, documents not segmented and those with two or more coders."""
    coded = lay.coded()
    return {"documents": len(lay.documents), "coders": list(lay.coders),
            "units": int(lay.lengths.sum()), "segmentations": lay.n_segmentations,
            "segments": len(lay.masses), "potential_boundaries": bdata.n_items,
            "not_segmented": int((~coded).sum()),
            "documents_with_two_or_more_coders": int((coded.sum(0) >= 2).sum())}


def _coincidence(data: ReliabilityData) -> dict:
    """The coincidence matrix of labelled boundaries (no boundary and each type)."""
    labels, o = dg.coincidence(data, sparse=False)
    return {"labels": [str(x) for x in labels], "matrix": np.asarray(o).tolist()}


def _coders_compared(bdata: ReliabilityData, udata: ReliabilityData, distance: str,
                     means: segmetrics.PairwiseMeans) -> tuple[Pairwise, LeaveOneOut]:
    """Coder × coder α (boundaries, nominal; unit sets under ``distance``) and α without each
    coder, all coder subsets in one pass (:func:`corpusagree.stats.diagnostics.subset_values`).
    Only coder pairs who share a document are computed (nan elsewhere)."""
    C = udata.n_coders
    valid = (udata.codes >= 0).astype(np.int64)
    r, s = np.nonzero(np.triu(valid @ valid.T, 1))
    pairs = np.zeros((len(r), C), bool)
    pairs[np.arange(len(r)), r] = pairs[np.arange(len(r)), s] = True
    loo = C >= 3
    K = np.vstack([pairs, ~np.eye(C, dtype=bool)] if loo else [pairs])
    matrices, per_coder, without = {}, {}, {}
    for name, data, d in (("boundaries", bdata, "nominal"), ("units", udata, distance)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # undefined α; a coder alone
            values = dg.subset_values(data, K, "alpha", d)[0]
            m = np.full((C, C), np.nan)
            m[r, s] = m[s, r] = values[:len(r)]
            matrices[f"alpha_{name}"] = m
            per_coder[f"alpha_{name}"] = np.nanmean(m, 1)
        without[name] = values[len(r):]
    full_b = float(quiet(alpha, bdata))
    full_u = float(quiet(alpha, udata, distance))
    rows: Records[CoderLeftOut] = Records()
    odd: dict[str, dict | None] = {"unit_change": None, "boundary_change": None}
    if loo:
        rows = Records(CoderLeftOut(c, float(b), b - full_b, float(u), u - full_u)
                       for c, b, u in zip(udata.coders, without["boundaries"],
                                          without["units"], strict=True))
        for key in odd:
            changes = np.array([row[key] for row in rows])
            if np.isfinite(changes).any():
                k = int(np.nanargmax(changes))
                odd[key] = {"coder": udata.coders[k], "change": float(changes[k])}
    return (Pairwise(means, distance, matrices, per_coder),
            LeaveOneOut(distance, full_b, full_u, rows, odd["unit_change"],
                        odd["boundary_change"]))


def _by_document(docs: dict[str, list[Segmentation]], distances: Sequence[str],
                 pair_means: dict[str, dict[str, float]], progress
                 ) -> Records[DocumentSegmentation]:
    """α per document (boundaries and unit sets) with its mean pairwise metrics; segments per
    coder to two decimals."""
    rows: Records[DocumentSegmentation] = Records()
    for n, (doc, segs) in enumerate(docs.items()):
        lay = conv.layout(segs)
        if len(segs) >= 2 and lay.lengths[0] >= 2:
            boundary = float(quiet(alpha, conv.boundaries(lay)))
            udata = conv.unit_sets(lay)
            units = {d: float(quiet(alpha, udata, d)) for d in distances}
        else:
            boundary, units = float("nan"), dict.fromkeys(distances, float("nan"))
        rows.append(DocumentSegmentation(
            doc, len(segs), int(lay.lengths[0]), round(len(lay.masses) / len(segs), 2),
            boundary, units, **{k: pair_means.get(doc, {}).get(k, float("nan"))
                                for k in METRICS}))
        if progress is not None:
            progress(n + 1, len(docs))
    return rows


def _costliest(bdata: ReliabilityData, udata: ReliabilityData, distance: str, n: int
               ) -> CostliestItems:
    """The ``n`` boundary positions and units that cost most in Do, every coder's label shown
    as yes/no, or as the first and last unit of the coder's segment."""
    def span(label) -> list[int] | None:
        return None if label is None else [min(u for _, u in label), max(u for _, u in label)]

    def row(r: dict, show: Callable) -> CostlyPosition:
        document, position = r["item"]
        return CostlyPosition(document, position, r["disagreement"], r["cost"], r["share"],
                              {c: show(v) for c, v in r["labels"].items()})

    return CostliestItems(
        distance, Records(row(r, lambda v: v) for r in dg.worst_items(bdata, "nominal", n)),
        Records(row(r, span) for r in dg.worst_items(udata, distance, n)))


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """The segmentations of a sub-folder of a study folder (by document with diagnostics)."""
    found = discover.segment_inputs(folder)
    if found is not None:
        yield Part(found, detail={"by_document": True})


def main_data(corpus: Corpus | Sequence[Segmentation]) -> tuple[ReliabilityData, str]:
    """The data of the report's first α: the potential boundaries (nominal), the documents
    as groups."""
    return conv.boundaries(conv.layout(list(as_corpus(corpus).data))), "nominal"


#: this job's part of the JSON Schema of the report document, ``$defs/job_segments`` of
#: :func:`corpusagree.schema`: the keys of :meth:`SegmentsReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree segments`: agreement between segmentations.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": [
        "format", "unit", "data", "boundaries", "typed_boundaries", "unit_sets", "pairwise",
        "leave_one_out", "coder_rates", "by_document", "diagnostics", "typed_coincidence",
    ],
    "properties": {
        "options": closed_object(
            distances={"type": "array", "items": {"type": "string"}},
            by_document={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "format": {"type": ["string", "null"]},
        "unit": {
            "description": "What a segment is made of: token, sentence, paragraph …",
            "type": "string",
        },
        "data": closed_object(
            documents={"$ref": "#/$defs/count"},
            coders={"$ref": "#/$defs/names"},
            units={"$ref": "#/$defs/count"},
            segmentations={"$ref": "#/$defs/count"},
            segments={"$ref": "#/$defs/count"},
            potential_boundaries={"$ref": "#/$defs/count"},
            not_segmented={
                "description": "document × coder cells not segmented (missing).",
                "$ref": "#/$defs/count",
            },
            documents_with_two_or_more_coders={"$ref": "#/$defs/count"},
        ),
        "boundaries": {"$ref": "#/$defs/coefficients"},
        "typed_boundaries": nullable(
            {"$ref": "#/$defs/coefficients"},
            description=(
                "The same on typed boundaries, when every segmentation has boundary types; else "
                "null."
            ),
        ),
        "unit_sets": {"$ref": "#/$defs/coefficients"},
        "pairwise": closed_object(
            (
                "Coder × coder means over the documents both segmented (rows and columns in the "
                "order of coders)."
            ),
            coders={"$ref": "#/$defs/names"},
            shared_documents={"$ref": "#/$defs/count_matrix"},
            pairs={"$ref": "#/$defs/count"},
            mean=closed_object(
                boundary_similarity={"$ref": "#/$defs/real"},
                segmentation_similarity={"$ref": "#/$defs/real"},
                pk={"$ref": "#/$defs/real"},
                window_diff={"$ref": "#/$defs/real"},
            ),
            distance={"type": "string"},
            matrices=closed_object(
                (
                    "Coder × coder: B, S, Pk, WindowDiff (row = hypothesis, column = reference), "
                    "α of the boundaries and of the unit sets."
                ),
                boundary_similarity={"$ref": "#/$defs/matrix"},
                segmentation_similarity={"$ref": "#/$defs/matrix"},
                pk={"$ref": "#/$defs/matrix"},
                window_diff={"$ref": "#/$defs/matrix"},
                alpha_boundaries={"$ref": "#/$defs/matrix"},
                alpha_units={"$ref": "#/$defs/matrix"},
            ),
            per_coder=closed_object(
                "Each coder's mean against the others.",
                boundary_similarity={"$ref": "#/$defs/job_segments/$defs/per_coder"},
                segmentation_similarity={"$ref": "#/$defs/job_segments/$defs/per_coder"},
                pk={"$ref": "#/$defs/job_segments/$defs/per_coder"},
                window_diff={"$ref": "#/$defs/job_segments/$defs/per_coder"},
                alpha_boundaries={"$ref": "#/$defs/job_segments/$defs/per_coder"},
                alpha_units={"$ref": "#/$defs/job_segments/$defs/per_coder"},
            ),
        ),
        "leave_one_out": closed_object(
            distance={"type": "string"},
            all_boundary_alpha={"$ref": "#/$defs/real"},
            all_unit_alpha={"$ref": "#/$defs/real"},
            rows={
                "description": "α without each coder (three coders or more; else empty).",
                "type": "array",
                "items": closed_object(
                    coder={"$ref": "#/$defs/name"},
                    boundary_alpha={"$ref": "#/$defs/real"},
                    boundary_change={"$ref": "#/$defs/real"},
                    unit_alpha={"$ref": "#/$defs/real"},
                    unit_change={"$ref": "#/$defs/real"},
                ),
            },
            odd_one_out={"$ref": "#/$defs/job_segments/$defs/odd_one_out"},
            odd_one_out_boundaries={"$ref": "#/$defs/job_segments/$defs/odd_one_out"},
        ),
        "coder_rates": {
            "type": "array",
            "items": closed_object(
                coder={"$ref": "#/$defs/name"},
                documents={"$ref": "#/$defs/count"},
                positions={"$ref": "#/$defs/count"},
                boundaries={"$ref": "#/$defs/count"},
                rate={"$ref": "#/$defs/real"},
                others_rate={"$ref": "#/$defs/real"},
                ratio={"$ref": "#/$defs/real"},
            ),
        },
        "by_document": nullable(
            {
                "type": "array",
                "items": extends(
                    "#/$defs/document_row",
                    coders={"$ref": "#/$defs/count"},
                    units={"$ref": "#/$defs/count"},
                    segments_per_coder={"$ref": "#/$defs/real"},
                    boundary_alpha={"$ref": "#/$defs/real"},
                    unit_alpha={"description": "Per distance.", "$ref": "#/$defs/reals_by_name"},
                    boundary_similarity={"$ref": "#/$defs/real"},
                    segmentation_similarity={"$ref": "#/$defs/real"},
                    pk={"$ref": "#/$defs/real"},
                    window_diff={"$ref": "#/$defs/real"},
                ),
            },
        ),
        "diagnostics": nullable(
            closed_object(
                distance={"type": "string"},
                boundaries={
                    "type": "array",
                    "items": {
                        "$ref": "#/$defs/job_segments/$defs/costly",
                        "properties": {
                            "labels": {
                                "description": "yes, no, or the boundary's type; null: missing.",
                                "type": "object",
                                "additionalProperties": {"$ref": "#/$defs/label"},
                            },
                        },
                    },
                },
                units={
                    "type": "array",
                    "items": {
                        "$ref": "#/$defs/job_segments/$defs/costly",
                        "properties": {
                            "labels": {
                                "description": (
                                    "Each coder's segment as [first unit, last unit]; null: "
                                    "missing."
                                ),
                                "type": "object",
                                "additionalProperties": nullable(
                                    {
                                        "type": "array",
                                        "items": {"type": "integer"},
                                        "minItems": 2,
                                        "maxItems": 2,
                                    },
                                ),
                            },
                        },
                    },
                },
            ),
            description=(
                "The potential boundaries and units that cost most (with --diagnostics), or "
                "null."
            ),
        ),
        "typed_coincidence": nullable(
            {"$ref": "#/$defs/labelled_matrix"},
            description=(
                "The coincidences of the boundary types (typed boundaries, with --diagnostics), "
                "or null."
            ),
        ),
    },
    "$defs": {
        "per_coder": {
            "description": "One number per coder, in the order of coders.",
            "type": "array",
            "items": {"$ref": "#/$defs/real"},
        },
        "odd_one_out": nullable(
            closed_object(coder={"$ref": "#/$defs/name"}, change={"$ref": "#/$defs/real"}),
            description="The coder whose removal raises α most, or null.",
        ),
        "costly": closed_object(
            document={"$ref": "#/$defs/name"},
            position={"$ref": "#/$defs/count"},
            disagreement={"$ref": "#/$defs/real"},
            cost={"$ref": "#/$defs/real"},
            share={"$ref": "#/$defs/real"},
            labels={"type": "object"},
        ),
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "segments", "kinds": ("segmentations",), "tasks": ("segments",),
        "help": "agreement between segmentation annotators", "order": 50,
        "example": ("sample_corpora/segments/segments.json",)}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, data=main_data,
               folder={"segments": _folder_parts})
