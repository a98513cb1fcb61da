"""``corpusagree senses``: word-sense agreement under several grouping schemes side by side.

The same tags are scored under every scheme of :mod:`corpusagree.convert.senses` (fine, coarse,
extended, multi; Artstein & Poesio 2005, §4.4; groupings as in Palmer et al. 2007) and for
every inventory: percent agreement, κ (multi-κ for more than two annotators), π, α, β and the
bias B for the nominal schemes; α′, α, β and B under the set distance for the set schemes, and
Krippendorff & Craggs's (2016) multi-valued α (mvα) beside them.
Intervals are bootstrapped over lemmas (default), documents or items; ``by_lemma`` breaks the
figures down by lemma; ``diagnostics`` lists the most confused sense pairs of each lemma
(Krippendorff's coincidence matrix read as a table) and every diagnostic of the fine scheme.

>>> from corpusagree.analyses import senses
>>> corpus = senses.read("sample_corpora/senses/sample.tsv")
>>> report = senses.analyse(corpus, inventories=["sample_corpora/senses/inventory.tsv"])
>>> frame = report.to_frame("coefficients")
>>> frame[frame.id == "alpha"][["scheme", "distance", "value"]].round(4)
                      scheme    distance   value
3                       fine     nominal  0.4790
7                      multi  passonneau  0.5197
14    coarse [inventory.tsv]     nominal  1.0000
18  extended [inventory.tsv]  passonneau  0.7017
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import numpy as np

from .. import readers
from ..convert.senses import (
    CLUSTERS,
    SCHEMES,
    SET_SCHEMES,
    WITH_INVENTORY,
    SenseData,
    SenseTable,
    label_text,
    lexfile_inventory,
    scheme_name,
    to_reliability,
)
from ..model.corpus import Corpus, SenseTag
from ..model.data import ReliabilityData
from ..model.errors import InputError
from ..model.params import Param, checked
from ..model.progress import Progress, Stages
from ..model.senses import SenseInventory
from ..readers import _paths, discover
from ..readers import inventory as inventory_reader
from ..report.document import Report
from ..report.json import closed_object, extends, nullable
from ..report.tables import Column, Plot, Record, Records, Table
from ..stats import diagnostics as dg
from ..stats import distances as dist
from ..stats.coefficients import compute, set_specs
from ..stats.inference import Bootstrap, Interval, resampling
from ..stats.inference import bootstrap as resample
from ..stats.kernel import kernel
from . import corpora
from .base import (
    KEYWORDS,
    Estimate,
    estimate_table,
    estimates,
    first_alpha,
    interval_dict,
    quiet,
    several,
)
from .diagnose import Diagnostics, diagnose
from .jobs import Part, complete

__all__ = ["CARD", "SCHEMA", "CONFUSED_LEMMAS", "JOB", "LEXFILE", "MIN_ITEMS", "PARAMS",
           "SET_DISTANCES", "ConfusedSenses", "LemmaScores", "SchemeScores", "SensesReport",
           "analyse", "as_corpus", "coefficient_ids", "corpus_of", "lemma_rows", "load_inventory",
           "read", "scheme_data", "scheme_distance"]

#: lemmas whose confused sense pairs the HTML report draws
CONFUSED_LEMMAS = 6
#: the distances a set scheme (extended, multi) may take
SET_DISTANCES = dist.SET_NAMES
#: the automatic WordNet lexicographer-file grouping, usable as an inventory named ``lexfile``
LEXFILE = "lexfile"
#: the diagnostics list at least this many costliest items
MIN_ITEMS = 10

Inventory = str | PathLike | tuple[str, SenseInventory]


# ---- reading -----------------------------------------------------------------------------------
def read(paths: str | PathLike | Sequence[str | PathLike], *, input_format: str = "auto",
         annotators: Sequence[str] | None = None, progress: Progress | None = None,
         **reader_options) -> Corpus[list]:
    """Sense tags of the input files.

    Parameters
    ----------
    paths : path or list of paths
        Raganato and Senseval: the data XML first, then one key/answer file per annotator (or
        a folder of them). OntoNotes ``.sense``, long TSV and WSbest: any number of files or
        folders, read file by file.
    input_format : str
        ``raganato``, ``senseval``, ``ontonotes``, ``sensetsv``, ``wsbest`` or ``auto``.
    annotators : list of str, optional
        The annotators' names (one per key file), or the two of an OntoNotes file.
    progress : callable, optional
        ``progress(files done, files)`` while files are read one by one.
    **reader_options
        The format's own options (OntoNotes ``adjudicator``, long TSV ``sep``, WSbest
        ``uses``).

    Returns
    -------
    Corpus
        ``data``: the :class:`~corpusagree.model.corpus.SenseTag` s.

    Examples
    --------
    >>> from corpusagree.analyses import senses
    >>> senses.read("sample_corpora/senses/sample.tsv")
    <Corpus senses (sensetsv): 3 annotators, 2 documents, 32 sense tags>
    """
    plist = _paths.as_list(paths)
    with corpora.naming_other_jobs(plist, ["senses"], input_format):
        fmt = discover.sense_format(plist, input_format)
    if readers.get("senses", fmt).layout == "paired":
        tags = readers.read("senses", plist, fmt, annotators, job="senses",
                            **reader_options)[1]
    else:
        files = _paths.all_files(plist, _paths.visible, recursive=False)
        tags = []
        for n, f in enumerate(files, 1):
            tags += readers.read("senses", [f], fmt, annotators, job="senses",
                                 **reader_options)[1]
            if progress is not None:
                progress(n, len(files))
    return corpus_of(tags, fmt, [str(p) for p in plist],
                     readers.get("senses", fmt).options_for("senses", reader_options))


def corpus_of(tags: Sequence[SenseTag], fmt: str = "python", inputs: Sequence[str] = (),
              reader_options: dict | None = None) -> Corpus[list]:
    """A corpus of sense tags (what :func:`read` returns)."""
    tags = list(tags)
    return corpora.corpus_of(tags, job="senses", fmt=fmt,
                             annotators=dict.fromkeys(t.annotator for t in tags),
                             documents=dict.fromkeys(t.document for t in tags
                                                     if t.document is not None),
                             inputs=inputs, reader_options=reader_options,
                             size=f"{len(tags):,} sense tags", kind="sense tags")


def as_corpus(tags: Corpus | Sequence[SenseTag]) -> Corpus[list]:
    """A corpus of the senses job, from what :func:`analyse` was given.

    A :class:`~corpusagree.model.corpus.Corpus` of the job as it is, or sense tags made into
    one: :func:`analyse` calls this first, so that it takes either what :func:`read` returns or
    sense tags made in Python.

    Parameters
    ----------
    tags : Corpus or sequence of SenseTag
        A corpus of the senses job, or sense tags made in Python.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        For anything else (the message says what the job takes).

    Examples
    --------
    >>> from corpusagree.analyses import senses
    >>> from corpusagree.model.corpus import SenseTag
    >>> senses.as_corpus([SenseTag("i1", "ann", frozenset({"WN1"}), "board"),
    ...                   SenseTag("i1", "bob", frozenset({"WN3"}), "board")])
    <Corpus senses (python): 2 annotators, 2 sense tags>
    """
    return corpora.as_corpus(tags, "senses", {SenseTag: corpus_of}, JOB.kinds)


def load_inventory(spec: str | PathLike, senses: Sequence[str]) -> tuple[str, SenseInventory]:
    """(name, inventory) of an inventory specification: an OntoNotes XML or TSV file, a folder
    of OntoNotes XML files, or ``lexfile`` (the WordNet lexicographer files of the tagged
    ``senses``)."""
    if str(spec) == LEXFILE:
        return LEXFILE, lexfile_inventory(senses)
    path = Path(spec)
    if not path.exists():
        raise InputError("no such inventory file or folder (or 'lexfile')", path)
    if path.is_dir():
        files = _paths.files(path, (".xml",), recursive=False)
        if not files:
            raise InputError("no OntoNotes inventory files (*.xml) in this folder", path)
        edges = inventory_reader.read_xml(files)
        name = path.name + "/"
    elif path.is_file():
        edges = inventory_reader.read(path)
        name = path.name
    else:
        raise InputError("not a regular file or folder", path)
    try:
        return name, SenseInventory.from_edges(edges)
    except ValueError as e:
        raise InputError(str(e), path) from None


# ---- schemes -----------------------------------------------------------------------------------
def scheme_distance(scheme: str, distance: str | None = None) -> dist.Distance:
    """The distance of a scheme: the fine and coarse schemes are nominal; the extended and multi
    schemes compare sets with a set distance, Passonneau's by default (Artstein & Poesio 2005,
    §4.4)."""
    if scheme not in SCHEMES:
        raise InputError(f"unknown scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    try:
        d = dist.get(distance or SCHEMES[scheme])
    except ValueError as e:
        raise InputError(str(e)) from None
    if scheme in SET_SCHEMES and not d.for_sets:
        raise InputError(f"the {scheme} scheme needs a set distance, not {d.name}; known: "
                         f"{', '.join(SET_DISTANCES)}")
    if scheme not in SET_SCHEMES and d.weighted:
        raise InputError(f"the {scheme} scheme is nominal; use extended or multi for {d.name}")
    return d


def scheme_data(table: SenseTable, inventories: Sequence[tuple[str, SenseInventory]],
                schemes: Sequence[str] | None = None, *, depth: int | None = None,
                level: int | None = None, distance: str = "passonneau",
                cluster: str = "lemma") -> list[SenseData]:
    """The tags under every wanted scheme (default: fine, multi when some tag has several
    senses, and coarse and extended for each inventory); ``distance`` is the set distance of
    the extended and multi schemes."""
    if schemes is None:
        schemes = ["fine"] + (["multi"] if table.multi_sense else []) + \
            (list(WITH_INVENTORY) if inventories else [])
    unknown = [s for s in schemes if s not in SCHEMES]
    if unknown:
        raise InputError(f"unknown scheme(s) {', '.join(unknown)}; known: {', '.join(SCHEMES)}")
    if not inventories and any(s in WITH_INVENTORY for s in schemes):
        raise InputError("the coarse and extended schemes need a sense inventory "
                         "(inventories=[INV])")
    out = []
    for s in schemes:
        d = scheme_distance(s, distance if s in SET_SCHEMES else None).name
        if s in WITH_INVENTORY:
            out += [to_reliability(table, s, inv, depth=depth, level=level, distance=d,
                                   cluster=cluster, inventory_name=name)
                    for name, inv in inventories]
        else:
            out.append(to_reliability(table, s, distance=d, cluster=cluster))
    return out


def coefficient_ids(data: ReliabilityData, distance: dist.Distance) -> list[str]:
    """Coefficients reported for a scheme: A_o, κ (multi-κ beyond two annotators), π, α, β and
    B for a nominal scheme; α′, α, β and B under a set distance."""
    if distance.weighted:
        return ["alpha_prime", "alpha", "beta", "bias"]
    two = kernel(data).n_coders == 2
    return ["percent_agreement", "kappa" if two else "multi_kappa", "pi", "alpha", "beta",
            "bias"]


# ---- the report --------------------------------------------------------------------------------
@dataclass(repr=False)
class SchemeScores:
    """The coefficients of one scheme (and inventory), with its reliability data.

    Attributes
    ----------
    scheme : str
        ``fine`` (senses), ``coarse`` (groups), ``extended`` (a sense with its groups, under a
        set distance; Artstein & Poesio 2005, §4.4) or ``multi`` (sets of senses).
    inventory : str or None
        The inventory of coarse and extended schemes.
    distance : str
        The distance of the scheme.
    options : dict
        Depth and level.
    labels : int
        Distinct labels under the scheme.
    unknown : dict
        Senses not in the inventory, with counts.
    coefficients : Records
        Every coefficient as an :class:`Estimate`.
    data : ReliabilityData
        The scheme's reliability data.
    """

    scheme: str
    inventory: str | None
    distance: str
    #: the scheme's parameters: ``level`` (coarse) or ``depth`` (extended)
    options: dict
    labels: int
    #: tagged senses missing from the inventory → occurrences
    unknown: dict[str, int]
    coefficients: Records[Estimate]
    data: ReliabilityData = field(compare=False)

    def __repr__(self) -> str:
        return f"SchemeScores({self.name}, {self.distance}, {len(self.coefficients)} coefficients)"

    @property
    def name(self) -> str:
        """The scheme with its inventory, as tables print it (``coarse [inventory.tsv]``)."""
        return scheme_name(self.scheme, self.inventory)

    def to_dict(self) -> dict:
        """The scheme's coefficients as plain data (one entry of ``schemes`` in the JSON)."""
        return {"scheme": self.scheme, "inventory": self.inventory, "distance": self.distance,
                **self.options, "labels": self.labels, "unknown": self.unknown,
                "unknown_occurrences": sum(self.unknown.values()),
                "coefficients": self.coefficients}


@dataclass(repr=False)
class LemmaScores:
    """One lemma under one scheme.

    Attributes
    ----------
    lemma, scheme : str
    inventory : str or None
    distance : str
    items, pairable, coders : int
        The lemma's items, pairable judgements and coders.
    agreement : float
        1 − Do.
    beta, alpha_prime, alpha : float
        β, α′ and α under the scheme's distance.
    alpha_interval : Interval or None
        α's bootstrap interval.
    """

    lemma: str
    scheme: str
    inventory: str | None
    distance: str
    items: int
    pairable: int
    coders: int
    agreement: float
    beta: float
    alpha_prime: float
    alpha: float
    alpha_interval: Interval | None = None

    def __repr__(self) -> str:
        return f"LemmaScores({self.lemma}, {self.scheme}, α={self.alpha:.4g})"

    def to_dict(self) -> dict:
        """The lemma's figures as plain data."""
        return {**{f.name: getattr(self, f.name) for f in dataclasses.fields(self)},
                "alpha_interval": interval_dict(self.alpha_interval)}


@dataclass
class ConfusedSenses(Record):
    """Two senses of one lemma given to the same occurrences: a row of
    :attr:`SensesReport.confused`.

    Attributes
    ----------
    lemma : str
        The lemma (``(all)`` without lemmas).
    a, b : str
        The two senses, in alphabetical order.
    pairs : int
        The pairs of judgements that give them.
    coincidences : float
        Their coincidences o_ab (each pair weighted 1 / (m_u − 1)).
    share : float
        Their share of the lemma's off-diagonal coincidences.
    """

    lemma: str
    a: str
    b: str
    pairs: int
    coincidences: float
    share: float


@dataclass(repr=False, kw_only=True)
class SensesReport(Report):
    """Word-sense agreement of one annotation set under every scheme (see the module docstring).

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
    tags, items, senses, lemmas, multi_sense_tags, missing, unpairable_items : int
        The size of the data.
    annotators : list of str
    cluster : str
        What the bootstrap resamples (``lemma``, ``document`` or ``item``).
    clusters : int
        How many there are.
    schemes : Records
        One :class:`SchemeScores` per scheme and inventory.
    by_lemma : Records or None
        :class:`LemmaScores` per lemma and scheme, with ``by_lemma=True``.
    diagnostic_scheme : str or None
        The scheme the diagnostics are of.
    confused : Records of ConfusedSenses or None
        The most confused sense pairs of each lemma, with diagnostics.
    diagnostics : Diagnostics or None
        With ``diagnostics=N``.
    contexts : dict
        The sentence of each listed instance, where the format has the text.

    Examples
    --------
    >>> from corpusagree.analyses import senses
    >>> report = senses.analyse(senses.read("sample_corpora/senses/sample.tsv"),
    ...                         inventories=["sample_corpora/senses/inventory.tsv"])
    >>> [s.name for s in report.schemes]
    ['fine', 'multi', 'coarse [inventory.tsv]', 'extended [inventory.tsv]']
    """

    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    format: str | None
    tags: int
    annotators: list[str]
    items: int
    senses: int
    lemmas: int
    multi_sense_tags: int
    missing: int
    unpairable_items: int
    #: what intervals resample: lemma, document or item, and how many such clusters there are
    cluster: str
    clusters: int
    schemes: Records[SchemeScores]
    by_lemma: Records[LemmaScores] | None
    #: the scheme of the confused pairs and diagnostics (fine, when it is scored)
    diagnostic_scheme: str | None
    confused: Records[ConfusedSenses] | None
    diagnostics: Diagnostics | None
    notes: list[str]
    #: the sentence of each instance the diagnostics list, where the format has the text
    contexts: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    job = "senses"

    def body(self) -> dict:
        return {"format": self.format,
                "data": {"tags": self.tags, "annotators": self.annotators, "items": self.items,
                         "senses": self.senses, "lemmas": self.lemmas,
                         "multi_sense_tags": self.multi_sense_tags, "missing": self.missing,
                         "unpairable_items": self.unpairable_items, "cluster": self.cluster,
                         "clusters": self.clusters},
                "schemes": self.schemes, "by_lemma": self.by_lemma,
                "confused": None if self.confused is None else
                {"scheme": self.diagnostic_scheme, "pairs": self.confused},
                "diagnostics": None if self.diagnostics is None else
                {"scheme": self.diagnostic_scheme, **self.diagnostics.to_dict(),
                 "contexts": {k: dict(zip(("before", "instance", "after"), v, strict=True))
                              for k, v in self.contexts.items()}}}

    def summary(self) -> str:
        where = " ".join(self.inputs) or "sense tags"
        fmt = f" ({self.format})" if self.format else ""
        out = (f"{where}{fmt}: {self.tags} sense tags by {len(self.annotators)} annotators on "
               f"{self.items} items ({self.missing} missing), {self.senses} senses, "
               f"{self.lemmas} lemmas")
        if self.bootstrap is not None:
            out += (f"; intervals clustered by {self.cluster} ({self.clusters} clusters)"
                    if self.clusters >= 2 else "; intervals over items")
        return out

    def headline(self) -> Estimate | None:
        return first_alpha(e for s in self.schemes for e in s.coefficients)

    def plots(self) -> list[Plot]:
        """The bootstrap distribution of α, and for the :data:`CONFUSED_LEMMAS` lemmas whose
        senses are most confused a sense × sense heatmap of their confused pairs' coincidences
        o_ck (the cells of the ``confused`` table)."""
        out = super().plots()
        by_lemma: dict[str, list] = {}
        for r in self.confused or []:
            by_lemma.setdefault(str(r["lemma"]), []).append(r)
        top = sorted(by_lemma, key=lambda x: -sum(r["coincidences"] for r in by_lemma[x]))
        for lemma in top[:CONFUSED_LEMMAS]:
            rows = by_lemma[lemma]
            senses = sorted({str(r[k]) for r in rows for k in ("a", "b")})
            at = {x: i for i, x in enumerate(senses)}
            m = np.full((len(senses), len(senses)), np.nan)
            for r in rows:
                m[at[str(r["a"])], at[str(r["b"])]] = m[at[str(r["b"])], at[str(r["a"])]] = \
                    r["coincidences"]
            out.append(Plot(f"confused_{lemma}", f"{lemma}: coincidences o_ck of its most "
                            f"confused sense pairs ({self.diagnostic_scheme})", "confusion",
                            {"rows": senses, "columns": senses, "values": m.tolist(),
                             "label": "o_ck", "vmin": 0.0}))
        return out

    def _tables(self) -> list[Table]:
        scheme_of = {id(e): s.name for s in self.schemes for e in s.coefficients}
        out = [estimate_table("coefficients", "Coefficients per scheme and inventory",
                              [e for s in self.schemes for e in s.coefficients],
                              lead=[(Column("scheme", "scheme"), lambda e: scheme_of[id(e)])])]
        if self.by_lemma is not None:
            ivs = [r.alpha_interval for r in self.by_lemma if r.alpha_interval is not None]
            cols = [Column("lemma", "lemma"), Column("scheme", "scheme"),
                    Column("items", "items", "int"), Column("agreement", "A_o / 1−Do", "float"),
                    Column("beta", "κ / β", "float"), Column("alpha_prime", "π / α′", "float"),
                    Column("alpha", "α", "float")]
            if ivs:
                cols.append(Column("alpha_interval", f"α {ivs[0].level:.0%} CI", "interval"))
            rows = [[r.lemma, scheme_name(r.scheme, r.inventory), r.items, r.agreement, r.beta,
                     r.alpha_prime, r.alpha,
                     *([None if r.alpha_interval is None else
                        (r.alpha_interval.low, r.alpha_interval.high)] if ivs else [])]
                    for r in self.by_lemma]
            out.append(Table("by_lemma", "By lemma (for set schemes 1 − Do, β, α′ and α under "
                             "the set distance)", cols, rows))
        if self.confused is not None:
            out.append(Table(
                "confused", f"Most confused sense pairs per lemma ({self.diagnostic_scheme}): "
                "coincidences o_ck and their share of the lemma's disagreement",
                [Column("lemma", "lemma"), Column("a", "sense a", "label"),
                 Column("b", "sense b", "label"), Column("pairs", "judgement pairs", "int"),
                 Column("coincidences", "o_ck", "float", 3), Column("share", "share", "share")],
                [[p["lemma"], p["a"], p["b"], p["pairs"], p["coincidences"], p["share"]]
                 for p in self.confused]))
        if self.diagnostics is not None:
            out += [dataclasses.replace(t, title=f"{self.diagnostic_scheme} scheme: {t.title}")
                    for t in map(self._with_context, self.diagnostics.tables.values())]
        return out

    def _with_context(self, t: Table) -> Table:
        """The costliest items with each instance's sentence, where the reader had it."""
        if t.id != "worst_items" or not self.contexts:
            return t
        return dataclasses.replace(
            t, columns=[*t.columns, Column("context", "context", "context", optional=True)],
            rows=[[*r, self.contexts.get(str(r[0]))] for r in t.rows])


# ---- the analysis ------------------------------------------------------------------------------
#: the keywords of :func:`analyse`, which it checks first (the command line's types and
#: choices are made from the same table)
PARAMS = (
    *KEYWORDS,
    several("inventories"),
    several("schemes", none=True),
    Param("depth", int, low=0, none=True),
    Param("level", int, low=1, none=True),
    Param("cluster", str, choices=tuple(CLUSTERS)),
    Param("by_lemma", bool),
)


@checked(*PARAMS, where="senses.analyse()")
def analyse(corpus: Corpus | Sequence[SenseTag], *, inventories: Sequence[Inventory] = (),
            schemes: Sequence[str] | None = None, depth: int | None = None,
            level: int | None = None, distance: str = "passonneau", cluster: str = "lemma",
            bootstrap: Bootstrap | None = None, by_document: bool = False,
            by_lemma: bool = False, diagnostics: int | None = None,
            progress: Progress | None = None) -> SensesReport:
    """Agreement on sense tags under every scheme and inventory (see the module docstring).

    Parameters
    ----------
    corpus : Corpus or list of SenseTag
        What :func:`read` returned, or sense tags made in Python.
    inventories : list
        OntoNotes XML/TSV files or folders, ``lexfile`` (WordNet lexicographer files), or
        (name, :class:`~corpusagree.model.senses.SenseInventory`) pairs.
    schemes : list of str, optional
        A subset of fine, coarse, extended, multi (default: fine, multi when some tag has
        several senses, coarse and extended per inventory).
    depth : int, optional
        The extended senses up to ``depth`` levels (None: all; Artstein & Poesio 2005, §4.4).
    level : int, optional
        The coarse groups ``level`` levels up (None: the top groups; Palmer et al. 2007).
    distance : str
        The set distance of the extended and multi schemes.
    cluster : {"lemma", "document", "item"}
        What the bootstrap resamples.
    bootstrap : Bootstrap, optional
        Intervals.
    by_document, by_lemma : bool
        The figures per lemma (the units a sense study is broken down by), with a bootstrap
        interval for α; either keyword asks for them.
    diagnostics : int, optional
        The N most confused sense pairs of each lemma and every diagnostic of the fine scheme
        (its max(N, 10) costliest items).
    progress : callable, optional
        ``progress(done, total)`` over the bootstraps.

    Returns
    -------
    SensesReport

    Raises
    ------
    InputError
        An unknown scheme, an inventory that cannot be read, no item tagged by two annotators.

    Examples
    --------
    >>> from corpusagree.analyses import senses
    >>> report = senses.analyse(senses.read("sample_corpora/senses/sample.tsv"),
    ...                         inventories=["sample_corpora/senses/inventory.tsv"])
    >>> fine = report.schemes[0].coefficients.to_frame().set_index("id")["value"]
    >>> round(float(fine["alpha"]), 4)
    0.479
    """
    corpus = as_corpus(corpus)
    tags = corpus.data
    inputs = corpus.inputs
    by_lemma = by_lemma or by_document
    where = ", ".join(map(str, inputs)) or None
    table = _sense_table(tags, where)
    specs, invs = _inventories(inventories, table)
    sds = scheme_data(table, invs, schemes, depth=depth, level=level, distance=distance,
                      cluster=cluster)
    lemma_of, lemma_names, _ = table.item_groups("lemma")
    if by_lemma and lemma_of is None:
        raise InputError("by lemma: the input gives no lemmas")
    _, group_names, ungrouped = table.item_groups(cluster)
    notes, missing, unpairable = _data_notes(table, sds, invs, cluster, group_names, ungrouped)

    R = 0 if bootstrap is None else bootstrap.n_resamples
    stage = Stages(progress, [R] * len(sds) + [R * len(sds) * len(lemma_names or [])
                                               if by_lemma else 0])
    scored = Records(_scheme_scores(sd, bootstrap, cluster, stage.next(), notes, where)
                     for sd in sds)
    lemmas = None
    if by_lemma:
        last = stage.next()
        lemmas = lemma_rows(sds, lemma_of, lemma_names, bootstrap, cluster,
                            None if last is None or bootstrap is None else
                            lambda done: last(done * R))

    fine = next((x for x in sds if x.scheme == "fine"), sds[0])
    confused = diag = None
    if diagnostics is not None:
        confused, diag = _diagnostics(table, fine, lemma_of, lemma_names, diagnostics, cluster)
        notes += diag.notes

    options = {"inventories": specs, "schemes": None if schemes is None else list(schemes),
               "level": level, "depth": depth, "distance": distance, "cluster": cluster,
               "by_lemma": by_lemma, "diagnostics": diagnostics,
               "reader_options": dict(corpus.reader_options)}
    return SensesReport(
        inputs=list(inputs), options=options, bootstrap=bootstrap, format=corpus.format,
        tags=table.n_tags, annotators=list(table.coders), items=len(table.items),
        senses=len(table.sense_names), lemmas=len(lemma_names or []),
        multi_sense_tags=table.multi_sense, missing=missing, unpairable_items=unpairable,
        cluster=cluster, clusters=len(group_names or []), schemes=scored, by_lemma=lemmas,
        diagnostic_scheme=None if diagnostics is None else fine.name, confused=confused,
        diagnostics=diag, notes=list(dict.fromkeys(notes)), contexts=_contexts(tags, diag),
    )


def _sense_table(tags: Sequence[SenseTag], where: str | None) -> SenseTable:
    """The sense tags as a table of items × annotators; an error without tags or with fewer
    than two annotators."""
    if not tags:
        raise InputError("no sense tags in the input", where)
    table = SenseTable.from_tags(tags)
    if len(table.coders) < 2:
        raise InputError(f"agreement needs two or more annotators; found "
                         f"{len(table.coders)} ({', '.join(map(str, table.coders))})", where)
    return table


def _inventories(inventories: Sequence, table: SenseTable) -> tuple[list[str], list[tuple]]:
    """(how each inventory was given, (name, inventory) pairs): files loaded for the senses
    tagged; two inventories of one name are named as they were given."""
    invs = [s if isinstance(s, tuple) else load_inventory(s, table.sense_names)
            for s in inventories]
    specs = [s[0] if isinstance(s, tuple) else str(s) for s in inventories]
    if len({n for n, _ in invs}) < len(invs):
        invs = [(spec, inv) for spec, (_, inv) in zip(specs, invs, strict=True)]
    return specs, invs


def _data_notes(table: SenseTable, sds: Sequence, invs: Sequence[tuple], cluster: str,
                group_names, ungrouped: int) -> tuple[list[str], int, int]:
    """(notes on the data, missing tags, items with fewer than two tags)."""
    notes: list[str] = []
    per_item = np.bincount(table.item_of, minlength=len(table.items))
    missing = len(table.items) * len(table.coders) - table.n_tags
    unpairable = int((per_item < 2).sum())
    if unpairable:
        notes.append(f"{unpairable} item(s) have fewer than two tags and do not count")
    if table.multi_sense and any(sd.scheme in ("fine", "coarse") for sd in sds):
        notes.append(f"{table.multi_sense} tag(s) have several senses: under the nominal fine "
                     "and coarse schemes each such set is one label (it agrees only with the "
                     "same set)")
    if cluster != "item" and group_names is None:
        notes.append(f"no item has a {cluster}: intervals resample items")
    elif ungrouped:
        notes.append(f"{ungrouped} item(s) have no {cluster}: they form one cluster '(none)'")
    for name, _ in invs:
        sd = next((x for x in sds if x.inventory == name), None)
        if sd is not None and sd.unknown:
            n = sum(sd.unknown.values())
            some = ", ".join(f"{s} ×{c}" for s, c in sd.unknown.most_common(3))
            notes.append(f"inventory {name}: {n} of {len(table.senses)} tagged "
                         f"senses ({len(sd.unknown)} distinct) are not in it and stay "
                         f"themselves: {some}" + (", …" if len(sd.unknown) > 3 else ""))
    return notes, missing, unpairable


def _scheme_scores(sd, bootstrap: Bootstrap | None, cluster: str, progress: Progress | None,
                   notes: list[str], where: str | None) -> SchemeScores:
    """The coefficients of one scheme's data, with intervals when bootstrapping."""
    d = dist.get(sd.distance)
    settings = resampling(bootstrap, sd.data.groups, notes, cluster=cluster)
    try:
        rows = estimates(sd.data, [(c, d) for c in coefficient_ids(sd.data, d)]
                         + (set_specs(sd.data, notes) if d.for_sets else []), settings,
                         progress=progress, notes=notes)
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(f"{sd.name}: {e}", where) from None
    return SchemeScores(sd.scheme, sd.inventory, sd.distance, sd.options, sd.data.n_labels,
                        dict(sd.unknown.most_common()), rows, sd.data)


def _diagnostics(table: SenseTable, fine, lemma_of, lemma_names, n: int, cluster: str
                 ) -> tuple[Records[ConfusedSenses], Diagnostics]:
    """The ``n`` most confused sense pairs of each lemma (or of all items) and every
    diagnostic of the fine scheme (its max(n, MIN_ITEMS) costliest items)."""
    groups, names = (lemma_of, lemma_names) if lemma_of is not None else \
        (np.zeros(len(table.items), np.int64), ["(all)"])
    confused = Records(ConfusedSenses(p["group"], p["a"], p["b"], p["pairs"], p["coincidences"],
                                      p["share"])
                       for p in dg.confused_pairs(fine.data, groups, names, n,
                                                  lambda c: label_text(fine.data.labels, c)))
    diag = diagnose(fine.data, fine.distance, coefficient="alpha",
                    n_items=max(n, MIN_ITEMS), group_label=cluster)
    return confused, diag


def _contexts(tags: Sequence[SenseTag], diag: Diagnostics | None
              ) -> dict[str, tuple[str, str, str]]:
    """The context of each item the diagnostics list (the first tag's that has one)."""
    if diag is None:
        return {}
    wanted = {str(w["item"]) for w in diag.worst_items}
    out: dict[str, tuple[str, str, str]] = {}
    for t in tags:
        if t.context is not None and t.item in wanted:
            out.setdefault(t.item, t.context)
    return out


def lemma_rows(sds: Sequence[SenseData], lemma_of: np.ndarray, lemma_names: Sequence[str],
               bootstrap: Bootstrap | None = None, cluster: str = "lemma",
               progress: Callable[[int], None] | None = None) -> Records:
    """Per lemma and scheme: 1 − Do, β, α′ and α under the scheme's distance (for nominal
    schemes A_o, κ / multi-κ and π), on the lemma's items, with a bootstrap interval for α over
    the lemma's items (or documents, when ``cluster`` is ``document``).
    ``progress(rows done)`` after each row."""
    order = np.argsort(lemma_of, kind="stable")
    bounds = np.searchsorted(lemma_of[order], np.arange(len(lemma_names) + 1))
    rows = Records()
    for li, lemma in enumerate(lemma_names):
        idx = order[bounds[li]:bounds[li + 1]]
        for sd in sds:
            sub = sd.data.subset(items=idx, compact=True)
            judged = sub.codes >= 0
            pairable = int((judged.sum(0) >= 2).sum())
            values = dict.fromkeys(("agreement", "beta", "alpha_prime", "alpha"), float("nan"))
            interval = None
            if pairable:
                ap = quiet(compute, "alpha_prime", sub, sd.distance)
                values = {"agreement": 1 - ap.observed, "alpha_prime": ap.value,
                          "beta": quiet(compute, "beta", sub, sd.distance).value,
                          "alpha": quiet(compute, "alpha", sub, sd.distance).value}
                if bootstrap is not None and pairable >= 2:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        by = bootstrap if cluster == "document" else \
                            dataclasses.replace(bootstrap, cluster=False)
                        interval = resample(sub, [("alpha", sd.distance)],
                                            resampling(by, sub.groups, []))[0]
            rows.append(LemmaScores(lemma, sd.scheme, sd.inventory, sd.distance, len(idx),
                                    pairable, int((judged.sum(1) > 0).sum()), **values,
                                    alpha_interval=interval))
            if progress is not None:
                progress(len(rows))
    return rows


# ---- the registration ------------------------------------------------------------------------
def _folder_parts(folder: Path) -> Iterator[Part]:
    """Each set of sense annotations of a sub-folder of a study folder, with the inventories
    found beside them."""
    sets, inventories = discover.sense_sets(folder)
    for found in sets:
        yield Part(found, {"inventories": inventories}, {"by_document": True})


def main_data(corpus: Corpus | Sequence[SenseTag]) -> tuple[ReliabilityData, str]:
    """The data of the report's first α: the fine scheme, lemmas as groups."""
    sd = to_reliability(SenseTable.from_tags(as_corpus(corpus).data), "fine")
    return sd.data, sd.distance


#: this job's part of the JSON Schema of the report document, ``$defs/job_senses`` of
#: :func:`corpusagree.schema`: the keys of :meth:`SensesReport.body` and its options; the shared
#: definitions it refers to are in ``corpusagree/report/report.schema.json``
SCHEMA = {
    "description": "`corpusagree senses`: word-sense agreement under every scheme.",
    "$ref": "#/$defs/envelope",
    "unevaluatedProperties": False,
    "required": ["format", "data", "schemes", "by_lemma", "confused", "diagnostics"],
    "properties": {
        "options": closed_object(
            inventories={"type": "array", "items": {"type": "string"}},
            schemes={
                "type": ["array", "null"],
                "items": {"$ref": "#/$defs/job_senses/$defs/scheme"},
            },
            level={"type": ["integer", "null"]},
            depth={"type": ["integer", "null"]},
            distance={"type": "string"},
            cluster={"$ref": "#/$defs/job_senses/$defs/cluster"},
            by_lemma={"type": "boolean"},
            diagnostics={"$ref": "#/$defs/diagnostics_option"},
            reader_options={"$ref": "#/$defs/reader_options"},
        ),
        "format": {"type": ["string", "null"]},
        "data": closed_object(
            tags={"$ref": "#/$defs/count"},
            annotators={"$ref": "#/$defs/names"},
            items={"$ref": "#/$defs/count"},
            senses={"$ref": "#/$defs/count"},
            lemmas={"$ref": "#/$defs/count"},
            multi_sense_tags={"$ref": "#/$defs/count"},
            missing={"$ref": "#/$defs/count"},
            unpairable_items={"$ref": "#/$defs/count"},
            cluster={"$ref": "#/$defs/job_senses/$defs/cluster"},
            clusters={"$ref": "#/$defs/count"},
        ),
        "schemes": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "scheme", "inventory", "distance", "labels", "unknown", "unknown_occurrences",
                    "coefficients",
                ],
                "properties": {
                    "scheme": {"$ref": "#/$defs/job_senses/$defs/scheme"},
                    "inventory": {"type": ["string", "null"]},
                    "distance": {"type": "string"},
                    "level": {
                        "description": "coarse: the groups this many levels up, or top.",
                        "oneOf": [{"const": "top"}, {"type": "integer", "minimum": 1}],
                    },
                    "depth": {
                        "description": "extended: the levels of extended senses, or all.",
                        "oneOf": [{"const": "all"}, {"type": "integer", "minimum": 0}],
                    },
                    "labels": {"$ref": "#/$defs/count"},
                    "unknown": {
                        "description": "Tagged senses missing from the inventory → occurrences.",
                        "$ref": "#/$defs/counts_by_name",
                    },
                    "unknown_occurrences": {"$ref": "#/$defs/count"},
                    "coefficients": {"$ref": "#/$defs/coefficients"},
                },
                "additionalProperties": False,
            },
        },
        "by_lemma": nullable(
            {
                "type": "array",
                "items": closed_object(
                    lemma={"type": "string"},
                    scheme={"$ref": "#/$defs/job_senses/$defs/scheme"},
                    inventory={"type": ["string", "null"]},
                    distance={"type": "string"},
                    items={"$ref": "#/$defs/count"},
                    pairable={"$ref": "#/$defs/count"},
                    coders={"$ref": "#/$defs/count"},
                    agreement={"description": "1 − Do.", "$ref": "#/$defs/real"},
                    beta={"$ref": "#/$defs/real"},
                    alpha_prime={"$ref": "#/$defs/real"},
                    alpha={"$ref": "#/$defs/real"},
                    alpha_interval=nullable({"$ref": "#/$defs/interval"}),
                ),
            },
        ),
        "confused": nullable(
            closed_object(
                scheme={"type": "string"},
                pairs={
                    "type": "array",
                    "items": closed_object(
                        lemma={"$ref": "#/$defs/name"},
                        a={"type": "string"},
                        b={"type": "string"},
                        pairs={"$ref": "#/$defs/count"},
                        coincidences={"$ref": "#/$defs/real"},
                        share={"$ref": "#/$defs/real"},
                    ),
                },
            ),
            description=(
                "The most confused sense pairs of each lemma (with --diagnostics), or null."
            ),
        ),
        "diagnostics": nullable(
            extends(
                "#/$defs/diagnostic_parts",
                scheme={"type": "string"},
                contexts={
                    "description": (
                        "The sentence of each listed instance, where the format has the text."
                    ),
                    "type": "object",
                    "additionalProperties": closed_object(
                        before={"type": "string"},
                        instance={"type": "string"},
                        after={"type": "string"},
                    ),
                },
            ),
        ),
    },
    "$defs": {
        "scheme": {"enum": ["fine", "coarse", "extended", "multi"]},
        "cluster": {"enum": ["lemma", "document", "item"]},
    },
}

#: the first half of this job's registration, read from this text without importing
#: the module (:func:`corpusagree.analyses.jobs.listed`: ``corpusagree --help``)
CARD = {"name": "senses", "kinds": ("sense tags",), "tasks": ("senses",),
        "help": "word-sense agreement: fine, coarse, extended and multi-sense schemes",
        "order": 60, "example": ("sample_corpora/senses/sample.tsv",)}

JOB = complete(CARD["name"], schema=SCHEMA, options=PARAMS, data=main_data,
               folder={"senses": _folder_parts})
