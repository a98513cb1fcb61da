"""Reading speed of every reader: bytes per second on ≥ ``--mb`` MB (default 20) of real
documents repeated, beside the figures the README gave before (synthetic corpora).

For every format of the readers registry (and segeval's TSV variant) a corpus of at least
``--mb`` MB is written into a temporary folder by repeating real documents (renamed copies),
then read through the registry (``corpusagree.readers.read(task, paths, format)``) in a fresh
process, which reports its wall and CPU time and its peak memory above what it held before
reading. Prints MB/s (10^6 bytes per second of wall time) and MB/s of CPU time per reader, the
README's earlier figure, and where the documents come from; ``--json`` prints everything.
``--repeat N`` reads in N fresh processes and keeps the best CPU time (on a shared machine
the other work's load inflates CPU time too). Where a floor is known (:data:`FLOORS`: a
library the reader hands the files to, or for doccano's JSON Lines ``json.loads`` then spaCy's
tokenizer on the texts, each part timed), it is timed on the same files and printed below.

The real documents (``../shared/corpora`` or ``$CORPUSAGREE_CORPORA``; a reader whose source is
absent falls back to the synthetic corpus, and says so):

* coreference: GUM's six documents annotated by GUM and OntoGUM (``gum_ontogum_tsv``) — the
  WebAnno TSV files themselves, and their text and mentions (nested ones included) written as
  CoNLL-2012, CorefUD, brat, MMAX2 and XMI by the writers of
  ``sample_corpora/coref/make_sample.py``; ezCoref's passages (``ezcoref_gupta2023``);
* segmentation: RSTmulti's rs3 files (``rstmulti_hewett2025``), their EDUs written as DISRPT
  and plain text; Moonstone's position tables and segeval JSON (``moonstone_kazantseva2012``);
  Hearst's segeval TSV (``segeval_samples``);
* word senses: WSbest (``erk2013_wsbest_wssim``), Snow et al.'s sense TSV
  (``snow2008_mturk``); Raganato XML, Senseval and OntoNotes files of ``sample_corpora/`` and
  ``tests/data/`` (no real ones are at hand), ids renamed in each copy.

``--synthetic`` writes generated corpora instead (pseudo-words, three annotators,
deterministic for ``--seed``), as the README's earlier figures were measured:

* coreference: documents of 20 sentences with about ``--mentions`` mentions each, nested ones
  included, as in ``benchmarks/coref_readers.py`` (each annotator misses, moves and re-chains a
  few); CoNLL-2012, CorefUD, brat, MMAX2 and XMI are written by the writers of
  ``sample_corpora/coref/make_sample.py``; WebAnno TSV 3 and ezCoref here (their mentions
  without the nested ones);
* segmentation: documents of ``--units`` words, each coder's masses as in
  ``benchmarks/segments_scale.py``, as segeval JSON and TSV, positions CSV, rs3, DISRPT and
  plain text;
* word senses: sentences of 20 words with 2 sense-tagged instances each (60 lemmas, 6 senses
  each), as Raganato XML + keys, Senseval XML + answers, OntoNotes ``.sense``, long TSV, and
  WSbest ``judgments.tsv`` + ``uses.tsv``.

Usage: python benchmarks/readers_throughput.py [--mb 20] [--only task/format,...]
       [--synthetic] [--seed 0] [--mentions 100] [--units 2000] [--keep DIR]
       [--repeat 1] [--json]
"""

from __future__ import annotations

import argparse
import bisect
import importlib.util
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPORA = Path(os.environ.get("CORPUSAGREE_CORPORA", ROOT.parent / "shared" / "corpora"))

#: the README's figures before this benchmark read real documents (MB/s, synthetic corpora of
#: 50 MB, three annotators)
PREVIOUS = {"coref/conll": 17, "coref/corefud": 9.7, "coref/brat": 3.6, "coref/mmax2": 6.7,
            "coref/xmi": 2.3, "coref/webanno_tsv": 5.8, "coref/ezcoref": 2.6,
            "segments/segeval": 10, "segments/segeval_tsv": 4.3, "segments/positions": 5.7,
            "segments/rs3": 40, "segments/disrpt": 32, "segments/text": 15,
            "senses/raganato": 10, "senses/senseval": 6.6, "senses/ontonotes": 4.0,
            "senses/sensetsv": 4.8, "senses/wsbest": 9.1}


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


# ---- coreference -------------------------------------------------------------------------------
ANNOTATORS = ("ann1", "ann2", "ann3")


def coref_corpus(docs: int, mentions: int, seed: int) -> list[tuple]:
    """``(sentences, [per annotator [(start, end, entity)]])`` per document."""
    bench = _load("bench_coref_readers", HERE / "coref_readers.py")
    rng = np.random.default_rng(seed)
    vocab = bench._vocabulary(rng)
    out = []
    for _ in range(docs):
        sentences, per_ann = bench.generate_document(rng, vocab, mentions, len(ANNOTATORS))
        per_ann = [sorted({(s, e): (s, e, k) for s, e, k in m}.values()) for m in per_ann]
        out.append((sentences, per_ann))
    return out


def _make_sample(root: Path):
    """``sample_corpora/coref/make_sample.py`` writing under ``root`` (ASCII text: UTF-16
    offsets are code-point offsets)."""
    mod = _load("coref_make_sample", ROOT / "sample_corpora" / "coref" / "make_sample.py")
    mod.HERE, mod.ANNOTATORS = root, ANNOTATORS
    mod.utf16 = lambda text, i: i
    return mod


def _sample_objects(mod, corpus: list[tuple], annotators: Sequence[str] = ANNOTATORS,
                    names: Sequence[str] | None = None) -> tuple[dict, dict]:
    """The corpus as make_sample's ``Doc`` and ``Chains`` objects (documents named ``names``,
    by default doc00000, doc00001 …)."""
    docs, ann = {}, {a: {} for a in annotators}
    for i, (sentences, per_ann) in enumerate(corpus):
        name = names[i] if names is not None else f"doc{i:05d}"
        docs[name] = mod.Doc(name, [" ".join(s) for s in sentences])
        for a, mentions in zip(annotators, per_ann, strict=True):
            chains: dict[int, list] = {}
            for s, e, k in mentions:
                chains.setdefault(k, []).append((((s, e),), e - 1))
            c = object.__new__(mod.Chains)
            c.chains = sorted((("object", sorted(ms)) for ms in chains.values()),
                              key=lambda x: x[1][0][0])
            ann[a][name] = c
    return docs, ann


def write_sample_format(fmt: str) -> Callable[[list[tuple], Path], list[Path]]:
    folder = {"conll": "conll2012", "corefud": "corefud", "brat": "brat", "mmax2": "mmax2",
              "xmi": "xmi"}[fmt]

    def write(corpus: list[tuple], root: Path) -> list[Path]:
        mod = _make_sample(root)
        docs, ann = _sample_objects(mod, corpus)
        getattr(mod, f"write_{fmt}")(docs, ann)
        if fmt == "conll":
            return [root / folder / f"{a}.v4_gold_conll" for a in ANNOTATORS]
        if fmt == "corefud":
            return [root / folder / f"{a}.conllu" for a in ANNOTATORS]
        return [root / folder]

    return write


def _flat(mentions: list[tuple]) -> list[tuple]:
    """The mentions that overlap no other (WebAnno TSV and ezCoref get no nesting)."""
    out, end = [], -1
    for s, e, k in sorted(mentions, key=lambda m: (m[0], -m[1])):  # the longer one first
        if s >= end:
            out.append((s, e, k))
            end = e
    return out


#: the entity types of the CoNLL NER files written (an entity's chain number picks one)
NER_TYPES = ("PER", "LOC", "ORG", "MISC")


def write_conll_ner(corpus: list[tuple], root: Path,
                    annotators: Sequence[str] = ANNOTATORS) -> list[Path]:
    """CoNLL-2003 NER columns (token, POS, chunk, BIO tag), one file per annotator, a
    ``-DOCSTART-`` line before each document; the mentions that overlap no other, typed by
    chain."""
    out = []
    folder = root / "conll_ner"
    folder.mkdir(parents=True, exist_ok=True)
    for k, a in enumerate(annotators):
        lines = []
        for sentences, per_ann in corpus:
            tags = ["O"] * sum(len(s) for s in sentences)
            for s, e, c in _flat(per_ann[k]):
                t = NER_TYPES[c % len(NER_TYPES)]
                tags[s:e] = [f"B-{t}"] + [f"I-{t}"] * (e - s - 1)
            lines.append("-DOCSTART- -X- -X- O\n")
            i = 0
            for sent in sentences:
                lines += [f"{w} NN I-NP {tags[i + j]}" for j, w in enumerate(sent)]
                lines.append("")
                i += len(sent)
        path = folder / f"{a}.conll"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(path)
    return out


def real_conll_ner(root: Path, mb: float) -> tuple[list[Path], str]:
    """GUM's and OntoGUM's mentions that overlap no other, as CoNLL NER columns."""
    got = _gum()
    if got is None:
        raise FileNotFoundError("gum_ontogum_tsv")
    docs, names = got
    one = [(sentences, per_ann) for _, sentences, per_ann in docs]
    probe = root / "probe"
    size = sum(p.stat().st_size for p in write_conll_ner(one, probe, names))
    _rm(probe)
    paths = write_conll_ner(one * _copies(mb, size), root, names)
    return paths, "GUM/OntoGUM mentions (no nesting) as BIO columns"


def _timeline_units(corpus: list[tuple], k: int) -> list[tuple[float, float, str]]:
    """Annotator k's mentions of every document laid end to end, one token = 0.25 s."""
    out, offset = [], 0
    for sentences, per_ann in corpus:
        out += [((offset + s) * 0.25, (offset + e) * 0.25, NER_TYPES[c % len(NER_TYPES)])
                for s, e, c in _flat(per_ann[k])]
        offset += sum(len(x) for x in sentences)
    return out


def write_textgrid(corpus: list[tuple], root: Path) -> list[Path]:
    """One long-format TextGrid per 50 documents, an interval tier per annotator (the gaps
    as empty intervals, as Praat writes them)."""
    folder = root / "textgrid"
    folder.mkdir(parents=True, exist_ok=True)
    for b in range(0, len(corpus), 50):
        part = corpus[b:b + 50]
        tiers = [_timeline_units(part, k) for k in range(len(ANNOTATORS))]
        end = max([u[1] for t in tiers for u in t], default=1.0) + 1
        lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "",
                 "xmin = 0 ", f"xmax = {end} ", "tiers? <exists> ",
                 f"size = {len(ANNOTATORS)} ", "item []: "]
        for k, (a, units) in enumerate(zip(ANNOTATORS, tiers, strict=True), 1):
            cells, at = [], 0.0
            for s, e, t in units:
                if s > at:
                    cells.append((at, s, ""))
                cells.append((s, e, t))
                at = e
            cells.append((at, end, ""))
            lines += [f"    item [{k}]:", '        class = "IntervalTier" ',
                      f'        name = "{a}" ', "        xmin = 0 ", f"        xmax = {end} ",
                      f"        intervals: size = {len(cells)} "]
            for i, (s, e, t) in enumerate(cells, 1):
                lines += [f"        intervals [{i}]:", f"            xmin = {s} ",
                          f"            xmax = {e} ", f'            text = "{t}" ']
        (folder / f"part{b:05d}.TextGrid").write_text("\n".join(lines) + "\n")
    return [folder]


def write_elan(corpus: list[tuple], root: Path) -> list[Path]:
    """One ELAN 3.0 file per 50 documents, a tier per annotator."""
    folder = root / "elan"
    folder.mkdir(parents=True, exist_ok=True)
    for b in range(0, len(corpus), 50):
        part = corpus[b:b + 50]
        slots, tiers, n = [], [], 0
        for k, a in enumerate(ANNOTATORS):
            anns = []
            for s, e, t in _timeline_units(part, k):
                slots += [f'<TIME_SLOT TIME_SLOT_ID="ts{n + 1}" TIME_VALUE="{round(s * 1000)}"/>',
                          f'<TIME_SLOT TIME_SLOT_ID="ts{n + 2}" TIME_VALUE="{round(e * 1000)}"/>']
                anns.append(f'<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a{n}" '
                            f'TIME_SLOT_REF1="ts{n + 1}" TIME_SLOT_REF2="ts{n + 2}">'
                            f"<ANNOTATION_VALUE>{t}</ANNOTATION_VALUE>"
                            "</ALIGNABLE_ANNOTATION></ANNOTATION>")
                n += 2
            tiers.append(f'<TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="{a}">\n'
                         + "\n".join(anns) + "\n</TIER>")
        text = ('<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT FORMAT="3.0" '
                'VERSION="3.0">\n<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>\n'
                "<TIME_ORDER>\n" + "\n".join(slots) + "\n</TIME_ORDER>\n"
                + "\n".join(tiers) + '\n<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="default-lt" '
                'TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n')
        (folder / f"part{b:05d}.eaf").write_text(text)
    return [folder]


def write_rttm(corpus: list[tuple], root: Path) -> list[Path]:
    """One RTTM file per annotator, each document a file id."""
    folder = root / "rttm"
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k, a in enumerate(ANNOTATORS):
        lines = [f"SPEAKER doc{d:05d} 1 {s:.3f} {e - s:.3f} <NA> <NA> {t} <NA> <NA>"
                 for d, doc in enumerate(corpus) for s, e, t in _timeline_units([doc], k)]
        (folder / f"{a}.rttm").write_text("\n".join(lines) + "\n")
        out.append(folder / f"{a}.rttm")
    return out


def write_webanno(corpus: list[tuple], root: Path) -> list[Path]:
    """WebAnno TSV 3.3, one file per document and annotator, a DKPro coreference chain
    layer: ``TYPE[chain]`` and ``relation->chain-link`` on every token of a mention."""
    dirs = [root / a for a in ANNOTATORS]
    for d in dirs:
        d.mkdir(parents=True)
    for i, (sentences, per_ann) in enumerate(corpus):
        for d, mentions in zip(dirs, per_ann, strict=True):
            cells: dict[int, tuple[str, str]] = {}
            chains: dict[int, int] = {}
            number: dict[int, int] = {}
            for s, e, k in _flat(mentions):
                c = number.setdefault(k, len(number) + 1)
                chains[c] = chains.get(c, 0) + 1
                for t in range(s, e):
                    cells[t] = (f"object[{c}]", f"coreferential->{c}-{chains[c]}")
            lines = ["#FORMAT=WebAnno TSV 3.3",
                     "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink"
                     "|referenceType|referenceRelation", "", ""]
            t = offset = 0
            for si, sent in enumerate(sentences, 1):
                lines.append("#Text=" + " ".join(sent))
                for wi, word in enumerate(sent, 1):
                    typ, rel = cells.get(t, ("_", "_"))
                    lines.append(f"{si}-{wi}\t{offset}-{offset + len(word)}\t{word}\t{typ}\t"
                                 f"{rel}\t")
                    offset += len(word) + 1
                    t += 1
                lines.append("")
            (d / f"doc{i:05d}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dirs


def write_ezcoref(corpus: list[tuple], root: Path) -> list[Path]:
    """ezCoref: one JSON list per passage, every annotator's ``{"sent": {"tok,start,end":
    [cluster]}}`` with every token of a mention listed."""
    root.mkdir(parents=True)
    for i, (sentences, per_ann) in enumerate(corpus):
        starts = np.cumsum([0] + [len(s) for s in sentences])
        subs = []
        for a, mentions in enumerate(per_ann):
            ann: dict[str, dict[str, list[int]]] = {}
            for s, e, k in _flat(mentions):
                si = int(np.searchsorted(starts, s, side="right")) - 1
                if e > starts[si + 1]:
                    continue  # across a sentence end
                b, f = s - int(starts[si]), e - int(starts[si])
                for t in range(b, f):
                    ann.setdefault(str(si), {})[f"{t},{b},{f}"] = [k]
            subs.append({"annotations": ann, "annotator_id": a + 1})
        (root / f"passage_{i:05d}.json").write_text(json.dumps(subs), encoding="utf-8")
    return [root]


# ---- segmentation ------------------------------------------------------------------------------
CODERS = ("ada", "ben", "chloe")


def segments_corpus(docs: int, units: int, seed: int) -> tuple[dict, Callable]:
    """segeval ``items`` (document -> coder -> masses) and ``words(i)``, document i's words
    (made on demand: the segeval files do not need them)."""
    bench = _load("bench_segments_scale", HERE / "segments_scale.py")
    items: dict = {}
    for b in range(0, docs, 500):  # in batches: the generator holds docs × coders × units
        batch = bench.generate(min(500, docs - b), len(CODERS), units, seed + b)
        for k, by in enumerate(batch.values()):
            items[f"doc{b + k:06d}"] = dict(zip(CODERS, by.values(), strict=True))
    bench_c = _load("bench_coref_readers", HERE / "coref_readers.py")
    vocab = np.array(bench_c._vocabulary(np.random.default_rng(seed)))

    def words(i: int) -> list[str]:
        return vocab[np.random.default_rng([seed, i]).integers(0, len(vocab), units)].tolist()

    return items, words


def _segments(masses: list[int], words: list[str]) -> list[list[str]]:
    out, i = [], 0
    for m in masses:
        out.append(words[i:i + m])
        i += m
    return out


def write_segeval_json(corpus: tuple, root: Path) -> list[Path]:
    items, _ = corpus
    root.mkdir(parents=True)
    path = root / "segments.json"
    path.write_text(json.dumps({"segmentation_type": "linear", "unit": "word", "items": items}),
                    encoding="utf-8")
    return [path]


def write_segeval_tsv(corpus: tuple, root: Path) -> list[Path]:
    items, _ = corpus
    root.mkdir(parents=True)
    for doc, coders in items.items():
        rows = ["Coder\tMasses"] + ["\t".join([c, *map(str, ms)]) for c, ms in coders.items()]
        (root / f"{doc}.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [root]


def write_positions(corpus: tuple, root: Path) -> list[Path]:
    items, _ = corpus
    root.mkdir(parents=True)
    for doc, coders in items.items():
        cols = [np.repeat(np.arange(1, len(m) + 1), m) for m in coders.values()]
        rows = ["word," + ",".join(coders)]
        rows += [",".join(map(str, r)) for r in zip(range(1, len(cols[0]) + 1), *cols,
                                                       strict=True)]
        (root / f"{doc}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [root]


def write_rs3(corpus: tuple, root: Path) -> list[Path]:
    items, words = corpus
    dirs = [root / c for c in CODERS]
    for d in dirs:
        d.mkdir(parents=True)
    for i, (doc, coders) in enumerate(items.items()):
        ws = words(i)
        for d, c in zip(dirs, CODERS, strict=True):
            segs = _segments(coders[c], ws)
            top = len(segs) + 1
            lines = ["<rst>", "  <header>", "    <relations>",
                     '      <rel name="joint" type="multinuc"/>', "    </relations>",
                     "  </header>", "  <body>"]
            lines += [f'    <segment id="{i}" parent="{top}" relname="joint">'
                      f'{escape(" ".join(s))}</segment>' for i, s in enumerate(segs, 1)]
            lines += [f'    <group id="{top}" type="multinuc"/>', "  </body>", "</rst>"]
            (d / f"{doc}.rs3").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dirs


def write_disrpt(corpus: tuple, root: Path) -> list[Path]:
    items, words = corpus
    dirs = [root / c for c in CODERS]
    for k, (d, c) in enumerate(zip(dirs, CODERS, strict=True)):
        d.mkdir(parents=True)
        begin, inside = ("BeginSeg=Yes", "_") if k == 0 else ("Seg=B-seg", "Seg=O")
        lines = []
        for i, (doc, coders) in enumerate(items.items()):
            ws = words(i)
            lines.append(f"# newdoc id = {doc}")
            n = 0
            for seg in _segments(coders[c], ws):
                for j, w in enumerate(seg):
                    n += 1
                    lines.append(f"{n}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{begin if j == 0 else inside}")
            lines.append("")
        (d / "segments.tok").write_text("\n".join(lines), encoding="utf-8")
    return dirs


def write_text(corpus: tuple, root: Path) -> list[Path]:
    items, words = corpus
    dirs = [root / c for c in CODERS]
    for d in dirs:
        d.mkdir(parents=True)
    for i, (doc, coders) in enumerate(items.items()):
        ws = words(i)
        for d, c in zip(dirs, CODERS, strict=True):
            paras = [" ".join(s) for s in _segments(coders[c], ws)]
            (d / f"{doc}.txt").write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    return dirs


# ---- word senses -------------------------------------------------------------------------------
LEMMAS, SENSES, WORDS, TAGGED = 60, 6, 20, 2
TAGGERS = ("A", "B", "C")


def senses_corpus(sentences: int, seed: int) -> list[tuple]:
    """``(document, sentence id, words, [(position, lemma, [tag per annotator])])``; a tag is
    a list of sense numbers (one, sometimes two), 10 % of tags missing."""
    rng = np.random.default_rng(seed)
    bench_c = _load("bench_coref_readers", HERE / "coref_readers.py")
    vocab = bench_c._vocabulary(rng)
    out = []
    for s in range(sentences):
        words = [vocab[i] for i in rng.integers(0, len(vocab), WORDS)]
        tagged = []
        for p in sorted(rng.choice(WORDS, TAGGED, replace=False).tolist()):
            lemma = f"lemma{int(rng.integers(LEMMAS)):02d}"
            gold = int(rng.integers(1, SENSES + 1))
            tags = []
            for _ in TAGGERS:
                u = rng.random()
                tag = [] if u < 0.1 else [gold] if u < 0.7 else [int(rng.integers(1, SENSES + 1))]
                if tag and rng.random() < 0.05:
                    tag.append(1 + tag[0] % SENSES)
                tags.append(tag)
            tagged.append((p, lemma, tags))
        out.append((f"d{s // 50:04d}", f"d{s // 50:04d}.s{s % 50:03d}", words, tagged))
    return out


def write_raganato(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True)
    keys = {a: [] for a in TAGGERS}
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<corpus lang="en" source="synthetic">']
    doc = None
    for d, sid, words, tagged in corpus:
        if d != doc:
            if doc is not None:
                lines.append("  </text>")
            lines.append(f'  <text id="{d}">')
            doc = d
        lines.append(f'    <sentence id="{sid}">')
        where = {p: (k, lemma, tags) for k, (p, lemma, tags) in enumerate(tagged)}
        for p, w in enumerate(words):
            if p in where:
                k, lemma, tags = where[p]
                iid = f"{sid}.t{k:03d}"
                lines.append(f'      <instance id="{iid}" lemma="{lemma}" pos="NOUN">{w}'
                             "</instance>")
                for a, tag in zip(TAGGERS, tags, strict=True):
                    if tag:
                        keys[a].append(iid + " " + " ".join(f"{lemma}.n.{t}" for t in tag))
            else:
                lines.append(f'      <wf lemma="{w}" pos="NOUN">{w}</wf>')
        lines.append("    </sentence>")
    lines += ["  </text>", "</corpus>"]
    data = root / "synthetic.data.xml"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "keys").mkdir()
    for a, rows in keys.items():
        (root / "keys" / f"{a}.key.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [data, root / "keys"]


def write_senseval(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True)
    by_lemma: dict[str, list[str]] = {}
    answers = {a: [] for a in TAGGERS}
    for d, sid, words, tagged in corpus:
        for k, (p, lemma, tags) in enumerate(tagged):
            iid = f"{lemma}.n.{sid}.{k}"
            ctx = " ".join(escape(w) if i != p else f"<head>{escape(w)}</head>"
                           for i, w in enumerate(words))
            by_lemma.setdefault(lemma, []).append(
                f"  <instance id={quoteattr(iid)} docsrc={quoteattr(d)}>\n"
                f"   <context>{ctx}</context>\n  </instance>")
            for a, tag in zip(TAGGERS, tags, strict=True):
                if tag:
                    answers[a].append(f"{lemma}.n {iid} " + " ".join(f"{lemma}%{t}" for t in tag))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<corpus lang="english">']
    for lemma, insts in sorted(by_lemma.items()):
        lines += [f' <lexelt item="{lemma}.n">', *insts, " </lexelt>"]
    lines.append("</corpus>")
    data = root / "lexsample.xml"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = [data]
    for a, rows in answers.items():
        files.append(root / f"{a}.ans")
        files[-1].write_text("\n".join(rows) + "\n", encoding="utf-8")
    return files


def write_ontonotes(corpus: list[tuple], root: Path) -> list[Path]:
    """Two annotators' senses per line (``a1,a2``, or one agreed sense), the third as the
    adjudicated sense."""
    root.mkdir(parents=True)
    lines = []
    for d, sid, _, tagged in corpus:
        s = int(sid.rsplit("s", 1)[1])
        for p, lemma, tags in tagged:
            one, two, adj = ("&&".join(map(str, t)) if t else "?" for t in tags)
            senses = one if one == two else f"{one},{two}"
            lines.append(f"nw/synthetic/00/{d}@all@synthetic@nw@en@on {s} {p} {lemma}-n "
                         f"{senses} {adj}")
    path = root / "synthetic.sense"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [path]


def write_sensetsv(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True)
    lines = ["item\tannotator\tsense\tlemma\tdocument"]
    for d, sid, _, tagged in corpus:
        for k, (_, lemma, tags) in enumerate(tagged):
            for a, tag in zip(TAGGERS, tags, strict=True):
                if tag:
                    lines.append(f"{sid}.t{k:03d}\t{a}\t"
                                 + "|".join(f"{lemma}.n.{t}" for t in tag) + f"\t{lemma}\t{d}")
    path = root / "senses.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [path]


def write_wsbest(corpus: list[tuple], root: Path) -> list[Path]:
    """WSbest: one row per (sentence, sense, annotator), label 1 for the chosen senses."""
    root.mkdir(parents=True)
    uses = ["dataID\tcontext\tindices_target_token\tindices_target_sentence\tlemma"]
    judgments = ["instanceID\tlabel\tcomment\tannotator"]
    n = 0
    for _, _, words, tagged in corpus:
        for p, lemma, tags in tagged:
            n += 1
            text = " ".join(words)
            start = sum(len(w) + 1 for w in words[:p])
            uses.append(f"{n}\t{text}\t{start}:{start + len(words[p])}\t0:{len(text)}\t"
                        f"{lemma}.n")
            for a, tag in zip(TAGGERS, tags, strict=True):
                for s in range(1, SENSES + 1):
                    label = "-" if not tag else "1" if s in tag else "0"
                    judgments.append(f"{n}-{lemma}%1:00:{s:02d}::\t{label}\t-\t{a}")
    (root / "uses.tsv").write_text("\n".join(uses) + "\n", encoding="utf-8")
    path = root / "judgments.tsv"
    path.write_text("\n".join(judgments) + "\n", encoding="utf-8")
    return [path]


# ---- the readers -------------------------------------------------------------------------------
#: (task, format as registered, label) -> (corpus of n documents, writer)
READERS: dict[str, tuple[str, str, Callable, Callable]] = {}


def _add(label: str, task: str, fmt: str, corpus: Callable, writer: Callable) -> None:
    READERS[label] = (task, fmt, corpus, writer)


def _coref(n: int, a: argparse.Namespace):
    return coref_corpus(n, a.mentions, a.seed)


def _segs(n: int, a: argparse.Namespace):
    return segments_corpus(n, a.units, a.seed)


def _senses(n: int, a: argparse.Namespace):
    return senses_corpus(n, a.seed)


for _f in ("conll", "corefud", "brat", "mmax2", "xmi"):
    _add(f"coref/{_f}", "coref", _f, _coref, write_sample_format(_f))
_add("coref/webanno_tsv", "coref", "webanno_tsv", _coref, write_webanno)
_add("coref/ezcoref", "coref", "ezcoref", _coref, write_ezcoref)
_add("coref/conll_ner", "coref", "conll_ner", _coref, write_conll_ner)
_add("timeline/textgrid", "timeline", "textgrid", _coref, write_textgrid)
_add("timeline/elan", "timeline", "elan", _coref, write_elan)
_add("timeline/rttm", "timeline", "rttm", _coref, write_rttm)
_add("segments/segeval", "segments", "segeval", _segs, write_segeval_json)
_add("segments/segeval_tsv", "segments", "segeval", _segs, write_segeval_tsv)
_add("segments/positions", "segments", "positions", _segs, write_positions)
_add("segments/rs3", "segments", "rs3", _segs, write_rs3)
_add("segments/disrpt", "segments", "disrpt", _segs, write_disrpt)
_add("segments/text", "segments", "text", _segs, write_text)
_add("senses/raganato", "senses", "raganato", _senses, write_raganato)
_add("senses/senseval", "senses", "senseval", _senses, write_senseval)
_add("senses/ontonotes", "senses", "ontonotes", _senses, write_ontonotes)
_add("senses/sensetsv", "senses", "sensetsv", _senses, write_sensetsv)
_add("senses/wsbest", "senses", "wsbest", _senses, write_wsbest)


# ---- RST trees and relations between spans ------------------------------------------------------
def write_dis(corpus: tuple, root: Path) -> list[Path]:
    """The segmentations as RST-DT .dis trees: one multinuclear list over the EDUs."""
    items, words = corpus
    dirs = [root / c for c in CODERS]
    for d in dirs:
        d.mkdir(parents=True)
    for i, (doc, coders) in enumerate(items.items()):
        ws = words(i)
        for d, c in zip(dirs, CODERS, strict=True):
            segs = _segments(coders[c], ws)
            lines = [f"( Root (span 1 {len(segs)})"]
            lines += [f"  ( Nucleus (leaf {k}) (rel2par List) (text _!{' '.join(s)}_!) )"
                      for k, s in enumerate(segs, 1)]
            (d / f"{doc}.dis").write_text("\n".join(lines) + " )\n", encoding="utf-8")
    return dirs


RELATIONS = ROOT / "tests" / "data" / "relations"


def _relations(n: int, a: argparse.Namespace) -> int:
    return n


def write_relations(fmt: str) -> Callable[[int, Path], list[Path]]:
    """``n`` copies of each annotator's fixture document of ``tests/data/relations/<fmt>``
    (relations that match, are relabelled, moved and missing)."""

    def write(n: int, root: Path) -> list[Path]:
        dirs = []
        for who in ("a", "b"):
            d = root / who
            d.mkdir(parents=True)
            files = sorted((RELATIONS / fmt / who).iterdir())
            for i in range(n):
                for f in files:
                    (d / f"story{i:06d}{f.suffix}").write_bytes(f.read_bytes())
            dirs.append(d)
        return dirs

    return write


def write_rels(n: int, root: Path) -> list[Path]:
    """DISRPT .rels: ``n`` documents of 20 relations between 3-token units per annotator."""
    header = ("doc\tunit1_toks\tunit2_toks\tunit1_txt\tunit2_txt\ts1_toks\ts2_toks\t"
              "unit1_sent\tunit2_sent\tdir\torig_label\tlabel")
    dirs = []
    for k, who in enumerate(("a", "b")):
        d = root / who
        d.mkdir(parents=True)
        rows = [header]
        for i in range(n):
            for j in range(20):
                u, v = f"{6 * j + 1}-{6 * j + 3}", f"{6 * j + 4}-{6 * j + 6 - (k and j % 5 == 0)}"
                label = ("elaboration", "cause")[(j + k * (j % 3 == 0)) % 2]
                rows.append(f"doc{i}\t{u}\t{v}\tx y z\tx y z\t1-120\t1-120\ts\ts\t1>2\t"
                            f"{label}\t{label}")
        (d / "relations.rels").write_text("\n".join(rows) + "\n", encoding="utf-8")
        dirs.append(d)
    return dirs


_add("trees/rs3", "trees", "rs3", _segs, write_rs3)
_add("trees/dis", "trees", "dis", _segs, write_dis)
for _f, _name in (("brat", "brat"), ("webanno", "webanno_tsv"), ("xmi", "xmi")):
    _add(f"relations/{_name}", "relations", _name, _relations, write_relations(_f))
_add("relations/disrpt", "relations", "disrpt", _relations, write_rels)


def write_platform_relations(fmt: str) -> Callable[[int, Path], list[Path]]:
    """``n`` copies of the formats reference's relation example of a platform
    (docs/formats/relations/<fmt>: two annotators), each copy a document of its own id."""
    import json

    example = ROOT / "docs" / "formats" / "relations" / fmt

    def write(n: int, root: Path) -> list[Path]:
        root.mkdir(parents=True)
        if fmt == "labelstudio":
            task = json.loads((example / "export.json").read_text(encoding="utf-8"))[0]
            tasks = [{**task, "id": i + 1} for i in range(n)]
            out = root / "export.json"
            out.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
            return [out]
        paths = []
        for who in ("a", "b"):
            rec = json.loads((example / f"{who}.jsonl").read_text(encoding="utf-8"))
            out = root / f"{who}.jsonl"
            out.write_text("".join(json.dumps({**rec, "id": i + 1}, ensure_ascii=False) + "\n"
                                   for i in range(n)), encoding="utf-8")
            paths.append(out)
        return paths

    return write


for _name in ("labelstudio", "doccano"):
    _add(f"relations/{_name}", "relations", _name, _relations, write_platform_relations(_name))

# ---- real documents, repeated -------------------------------------------------------------------
def _copies(mb: float, one: int) -> int:
    """How many copies of ``one`` bytes make ``mb`` MB."""
    return max(1, math.ceil(mb * 1e6 / max(one, 1)))


def _gum() -> tuple[list[tuple], list[str]] | None:
    """GUM's documents as ``(name, sentences, [per annotator [(start, end, chain)]])`` (token
    spans; a discontinuous mention by its outer span), annotators GUM and OntoGUM; None when
    the corpus is absent."""
    gum = CORPORA / "gum_ontogum_tsv"
    if not gum.is_dir():
        return None
    import warnings

    from corpusagree import readers

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, anns = readers.read("coref", [gum / "gum", gum / "ontogum"], "webanno_tsv")
    docs: dict[str, tuple] = {}
    for a in anns:
        doc = a.document
        bounds = [*doc.sentence_starts, len(doc.tokens)]
        sentences = [doc.tokens[x:y] for x, y in zip(bounds, bounds[1:], strict=False)]
        entry = docs.setdefault(doc.id, (doc.id, sentences, []))
        chain_of = {m: k for k, c in enumerate(a.chains) for m in c.members}
        entry[2].append(sorted({(m.fragments[0][0], m.fragments[-1][1], chain_of[mid])
                                for mid, m in a.mentions.items()}))
    return list(docs.values()), ["gum", "ontogum"]


def real_coref(fmt: str):
    def build(root: Path, mb: float) -> tuple[list[Path], str]:
        got = _gum()
        if got is None:
            raise FileNotFoundError("gum_ontogum_tsv")
        docs, names = got
        mod = _make_sample(root)
        mod.ANNOTATORS = tuple(names)
        probe = {}
        for name, sentences, per_ann in docs:
            probe[name] = (sentences, per_ann)
        size = sum(len(" ".join(w for s in sents for w in s)) for sents, _ in probe.values())
        # about 5 bytes of annotation per byte of text in these formats: a first guess
        # bytes written per byte of text, both annotators (measured; a little under, so
        # that the corpus is just over mb)
        n = _copies(mb, size * {"conll": 22, "corefud": 14.5, "brat": 10, "mmax2": 19,
                                "xmi": 47}[fmt])
        while True:
            corpus = [(sentences, per_ann) for _ in range(n) for _, sentences, per_ann in docs]
            mdocs, ann = _sample_objects(
                mod, corpus, names, [f"{docs[i % len(docs)][0]}_{i // len(docs):04d}"
                                     for i in range(len(corpus))])
            getattr(mod, f"write_{fmt}")(mdocs, ann)
            folder = {"conll": "conll2012", "corefud": "corefud"}.get(fmt, fmt)
            if _size(root / folder) >= mb * 1e6:
                break
            _rm(root / folder)
            n = math.ceil(n * mb * 1e6 / max(_size(root), 1) * 1.05)
        if fmt == "conll":
            return [root / "conll2012" / f"{a}.v4_gold_conll" for a in names], "GUM/OntoGUM"
        if fmt == "corefud":
            return [root / "corefud" / f"{a}.conllu" for a in names], "GUM/OntoGUM"
        return [root / fmt], "GUM/OntoGUM"

    return build


def _repeat_files(pairs: list[tuple[Path, str]], root: Path, mb: float,
                  rename: Callable[[bytes, int], bytes] | None = None) -> None:
    """Copies of each ``(file, folder relative to root)`` as ``<folder>/<stem>_<k><suffix>``
    until they hold ``mb`` MB (``rename(data, k)`` edits copy k, e.g. its ids)."""
    one = sum(f.stat().st_size for f, _ in pairs)
    for k in range(_copies(mb, one)):
        for f, folder in pairs:
            dest = root / folder / f"{f.stem}_{k:05d}{''.join(f.suffixes[-1:])}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            data = f.read_bytes()
            dest.write_bytes(rename(data, k) if rename else data)


def real_webanno(root: Path, mb: float) -> tuple[list[Path], str]:
    gum = CORPORA / "gum_ontogum_tsv"
    _repeat_files([(f, side) for side in ("gum", "ontogum")
                   for f in sorted((gum / side).glob("*.tsv"))], root, mb)
    return [root / "gum", root / "ontogum"], "GUM/OntoGUM TSV as released"


def real_ezcoref(root: Path, mb: float) -> tuple[list[Path], str]:
    src = CORPORA / "ezcoref_gupta2023" / "annotations"
    _repeat_files([(f, f.parent.name) for f in sorted(src.rglob("*.json"))], root, mb)
    return [root], "ezCoref passages"


def real_rs3(root: Path, mb: float) -> tuple[list[Path], str]:
    src = CORPORA / "rstmulti_hewett2025" / "data"
    names = sorted(f.name for f in (src / "1").glob("*.rs3") if (src / "2" / f.name).is_file())
    _repeat_files([(src / a / n, a) for n in names for a in ("1", "2")], root, mb)
    return [root / "1", root / "2"], "RSTmulti"


def _rst_segments() -> list:
    """RSTmulti's segmentations (documents both annotators segment over the same words)."""
    import warnings

    from corpusagree import readers

    src = CORPORA / "rstmulti_hewett2025" / "data"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return readers.read("segments", [src / "1", src / "2"], "rs3", on_mismatch="skip")[1]


def real_disrpt(root: Path, mb: float) -> tuple[list[Path], str]:
    segs = _rst_segments()
    by = {}
    for s in segs:
        by.setdefault(s.annotator, []).append(s)
    one = sum(len(" ".join(s.tokens)) * 4 for s in segs)  # a row of 10 columns per word
    n = _copies(mb, one)
    for a, docs in by.items():
        (root / a).mkdir(parents=True)
        with open(root / a / "rst.tok", "w", encoding="utf-8") as out:
            for k in range(n):
                for s in docs:
                    out.write(f"# newdoc id = {s.document}_{k:05d}\n")
                    t = 0
                    for m in s.masses:
                        for j in range(m):
                            out.write(f"{t + 1}\t{s.tokens[t]}\t_\t_\t_\t_\t_\t_\t_\t"
                                      f"{'BeginSeg=Yes' if j == 0 else '_'}\n")
                            t += 1
                    out.write("\n")
    return [root / a for a in by], "RSTmulti's EDUs"


def real_text(root: Path, mb: float) -> tuple[list[Path], str]:
    segs = _rst_segments()
    one = sum(len(" ".join(s.tokens)) for s in segs)
    for k in range(_copies(mb, one)):
        for s in segs:
            paras, t = [], 0
            for m in s.masses:
                paras.append(" ".join(s.tokens[t:t + m]))
                t += m
            folder = root / s.annotator
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{s.document}_{k:05d}.txt").write_text("\n\n".join(paras) + "\n",
                                                             encoding="utf-8")
    return sorted(d for d in root.iterdir() if d.is_dir()), "RSTmulti's EDUs"


def real_positions(root: Path, mb: float) -> tuple[list[Path], str]:
    src = CORPORA / "moonstone_kazantseva2012" / "segmentations"
    _repeat_files([(f, "moonstone") for f in sorted(src.glob("*.csv"))], root, mb)
    return [root / "moonstone"], "Moonstone"


def real_segeval_json(root: Path, mb: float) -> tuple[list[Path], str]:
    data = json.loads((CORPORA / "moonstone_kazantseva2012" /
                       "moonstone_segeval_masses.json").read_text(encoding="utf-8"))
    one = len(json.dumps(data["items"]))
    items = {f"{d}_{k:05d}": v for k in range(_copies(mb, one)) for d, v in data["items"].items()}
    root.mkdir(parents=True)
    path = root / "moonstone.json"
    path.write_text(json.dumps({**data, "items": items}), encoding="utf-8")
    return [path], "Moonstone"


def real_segeval_tsv(root: Path, mb: float) -> tuple[list[Path], str]:
    _repeat_files([(CORPORA / "segeval_samples" / "hearst1997.tsv", "hearst")], root, mb)
    return [root / "hearst"], "Hearst (segeval)"


def real_wsbest(root: Path, mb: float) -> tuple[list[Path], str]:
    src = CORPORA / "erk2013_wsbest_wssim" / "wsbest"
    head, *rows = (src / "judgments.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")
    uhead, *uses = (src / "uses.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")
    n = _copies(mb, sum(map(len, rows)) + sum(map(len, uses)))
    root.mkdir(parents=True)
    with open(root / "judgments.tsv", "w", encoding="utf-8") as out:
        out.write(head + "\n")
        for k in range(n):
            out.writelines(f"{k:05d}{r}\n" for r in rows)
    with open(root / "uses.tsv", "w", encoding="utf-8") as out:
        out.write(uhead + "\n")
        for k in range(n):
            out.writelines(f"{k:05d}{u}\n" for u in uses)
    return [root / "judgments.tsv"], "WSbest"


def real_sensetsv(root: Path, mb: float) -> tuple[list[Path], str]:
    src = CORPORA / "snow2008_mturk" / "wsd.standardized.tsv"
    head, *rows = src.read_text(encoding="utf-8").rstrip("\n").split("\n")
    root.mkdir(parents=True)
    with open(root / "wsd.tsv", "w", encoding="utf-8") as out:
        out.write(head + "\n")
        for k in range(_copies(mb, sum(map(len, rows)))):
            for r in rows:
                cells = r.split("\t")
                cells[2] = f"{k:05d}:{cells[2]}"
                out.write("\t".join(cells) + "\n")
    return [root / "wsd.tsv"], "Snow et al. 2008 (wsd)"


def real_raganato(root: Path, mb: float) -> tuple[list[Path], str]:
    src = SAMPLES_DIR / "senses"
    data = (src / "sample.data.xml").read_text(encoding="utf-8")
    start, end = data.index("<text "), data.rindex("</corpus>")
    body = data[start:end]
    keys = {f.name: f.read_text(encoding="utf-8") for f in sorted((src / "keys").glob("*"))}
    n = _copies(mb, len(body) + sum(map(len, keys.values())))
    root.mkdir(parents=True)
    (root / "keys").mkdir()
    with open(root / "data.xml", "w", encoding="utf-8") as out:
        out.write(data[:start])
        for k in range(n):
            out.write(body.replace('id="d', f'id="c{k:05d}d'))
        out.write(data[end:])
    for name, text in keys.items():
        with open(root / "keys" / name, "w", encoding="utf-8") as out:
            for k in range(n):
                out.write(re.sub(r"(?m)^d", f"c{k:05d}d", text))
    return [root / "data.xml", root / "keys"], "sample_corpora/senses (Raganato's variant)"


def real_senseval(root: Path, mb: float) -> tuple[list[Path], str]:
    src = ROOT / "tests" / "data" / "senses"
    data = (src / "lexsample.xml").read_text(encoding="utf-8")
    answers = {a: (src / a).read_text(encoding="utf-8") for a in ("t1.ans", "t2.ans")}
    lexelts = re.findall(r"(?s)( <lexelt .*?</lexelt>\n)", data)
    n = _copies(1.2 * mb, len(data) + sum(map(len, answers.values())))  # a copy: less
    root.mkdir(parents=True)
    with open(root / "lexsample.xml", "w", encoding="utf-8") as out:
        out.write(data[:data.index(" <lexelt")])
        for lex in lexelts:
            head, _, rest = lex.partition("\n")
            out.write(head + "\n")
            for k in range(n):
                out.write(re.sub(r'(instance(?: id)?=")', rf"\g<1>c{k:05d}.", rest.rsplit(
                    " </lexelt>", 1)[0]))
            out.write(" </lexelt>\n")
        out.write("</corpus>\n")
    for a, text in answers.items():
        with open(root / a, "w", encoding="utf-8") as out:
            for k in range(n):
                out.write(re.sub(r"(?m)^(\S+) ", rf"\1 c{k:05d}.", text))
    return [root / "lexsample.xml", root / "t1.ans", root / "t2.ans"], \
        "tests/data/senses (Senseval's variant)"


def real_ontonotes(root: Path, mb: float) -> tuple[list[Path], str]:
    text = (ROOT / "tests" / "data" / "senses" / "demo.sense").read_text(encoding="utf-8")
    root.mkdir(parents=True)
    with open(root / "demo.sense", "w", encoding="utf-8") as out:
        for k in range(_copies(mb, len(text))):
            out.write(text.replace("/demo_0001@", f"/demo_{k:05d}@"))
    return [root / "demo.sense"], "tests/data/senses (OntoNotes' variant)"


def _gum_relations() -> list[tuple[str, str, str, list, list, list]]:
    """GUM's documents with the coreference relations of GUM and OntoGUM as the relations job
    reads them from the released WebAnno TSV: ``(annotator, document, text, [(span id, its
    character fragments)], [(source id, target id, label)], [sentences as token character
    offsets])``."""
    gum = CORPORA / "gum_ontogum_tsv"
    if not gum.is_dir():
        raise FileNotFoundError("gum_ontogum_tsv")
    import warnings

    from corpusagree import readers

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, anns = readers.read("relations", [gum / "gum", gum / "ontogum"], "webanno_tsv")
    out = []
    for a in anns:
        doc, at, offsets = a.document, 0, []
        for t in doc.tokens:  # the tokens are the text's, in order
            at = doc.text.index(t, at)
            offsets.append((at, at + len(t)))
            at += len(t)
        bounds = [*doc.sentence_starts, len(offsets)]
        sentences = [offsets[x:y] for x, y in zip(bounds, bounds[1:], strict=False) if y > x]
        out.append((a.annotator, doc.id, doc.text,
                    [(k, m.attrs["char_offsets"]) for k, m in a.spans.items()],
                    [(r.source, r.target, r.type) for r in a.relations], sentences))
    return out


_BRAT_TYPE = re.compile(r"[^\w-]")  # what a brat type name may not hold


def _brat_relations(text: str, spans: list, rels: list) -> tuple[str, str]:
    """A document's ``.txt`` and ``.ann``: a ``T`` line per span, an ``R`` line per relation."""
    tid = {k: f"T{j}" for j, (k, _) in enumerate(spans, 1)}
    lines = [f"{tid[k]}\tReferent {';'.join(f'{b} {e}' for b, e in frags)}\t"
             f"{' '.join(text[b:e].replace(chr(10), ' ') for b, e in frags)}"
             for k, frags in spans]
    lines += [f"R{j}\t{_BRAT_TYPE.sub('_', label)} Arg1:{tid[src]} Arg2:{tid[tgt]}"
              for j, (src, tgt, label) in enumerate(rels, 1)]
    return text, "\n".join(lines) + "\n"


def _xmi_relations(text: str, spans: list, rels: list, sentences: list, Cas) -> bytes:
    """A document as INCEpTION exports it, written by make_sample's ``Cas``: sentences and
    tokens, a ``Referent`` span per span (its first to its last character), a ``Coref``
    relation per relation (``Governor`` the source, ``label`` its label, at its target);
    UTF-16 offsets."""
    cas = Cas(text, {"xmi": "http://www.omg.org/XMI", "cas": "http:///uima/cas.ecore",
                     "custom": "http:///webanno/custom.ecore",
                     "type4": "http:///de/tudarmstadt/ukp/dkpro/core/api/segmentation/"
                              "type.ecore"})
    wide = [k for k, c in enumerate(text) if ord(c) > 0xFFFF]

    def node(prefix: str, tag: str, begin: int, end: int, **attrs: str) -> str:
        # UTF-16 offsets of code points begin and end
        return cas.node(prefix, tag, sofa=cas.sofa, begin=begin + bisect.bisect_left(wide, begin),
                        end=end + bisect.bisect_left(wide, end), **attrs)

    members = []
    for sentence in sentences:
        members.append(node("type4", "Sentence", sentence[0][0], sentence[-1][1]))
        members += [node("type4", "Token", b, e) for b, e in sentence]
    xid, where = {}, dict(spans)
    for k, frags in spans:  # the span ids are distinct
        xid[k] = node("custom", "Referent", frags[0][0], frags[-1][1])
        members.append(xid[k])
    members += [node("custom", "Coref", where[tgt][0][0], where[tgt][-1][1], label=label,
                     Governor=xid[src], Dependent=xid[tgt]) for src, tgt, label in rels]
    return cas.xmi(members, indent=False)


def real_relations(fmt: str) -> Callable[[Path, float], tuple[list[Path], str]]:
    """GUM's coreference relations (both annotators) written as brat ``R`` lines or XMI
    relations (:func:`_gum_relations`), copies renamed until they hold ``mb`` MB."""

    def build(root: Path, mb: float) -> tuple[list[Path], str]:
        docs = _gum_relations()
        Cas = _load("coref_make_sample", ROOT / "sample_corpora" / "coref" /
                    "make_sample.py").Cas
        files = []
        for who, doc, text, spans, rels, sentences in docs:
            if fmt == "brat":
                txt, ann = _brat_relations(text, spans, rels)
                files += [(who, f"{doc}.txt", txt.encode()), (who, f"{doc}.ann", ann.encode())]
            else:
                files.append((who, f"{doc}.xmi",
                              _xmi_relations(text, spans, rels, sentences, Cas)))
        for k in range(_copies(mb, sum(len(data) for *_, data in files))):
            for who, name, data in files:
                stem, dot, suffix = name.partition(".")
                (root / who).mkdir(parents=True, exist_ok=True)
                (root / who / f"{stem}_{k:05d}{dot}{suffix}").write_bytes(data)
        return sorted(d for d in root.iterdir() if d.is_dir()), \
            "GUM/OntoGUM's coreference relations"

    return build


# ---- annotation platforms' exports: Prodigy's real NER examples as each tool writes them -----
PLATFORM_SOURCE = ROOT / "tests" / "data" / "platforms" / "prodigy" / "news_headlines_ner.jsonl"
PLATFORM_ANNOTATORS = ("alice", "bob", "carol")


def platform_corpus(n: int, a: argparse.Namespace | None = None) -> list[tuple]:
    """``n`` copies of Prodigy's accepted news headlines: (id, text, tokens, {annotator:
    spans}); the second annotator leaves out every third span, the third relabels every
    fourth."""
    lines = [json.loads(x) for x in PLATFORM_SOURCE.read_text(encoding="utf-8").splitlines()]
    lines = [x for x in lines if x.get("answer") == "accept"]
    out = []
    for k in range(n):
        x = lines[k % len(lines)]
        spans = [(s["start"], s["end"], s["label"]) for s in x.get("spans", [])]
        per = {"alice": spans, "bob": [s for j, s in enumerate(spans) if j % 3 != 2],
               "carol": [(b, e, "MISC" if j % 4 == 3 else lab)
                         for j, (b, e, lab) in enumerate(spans)]}
        out.append((k, x["text"], x.get("tokens", []), per))
    return out


def write_prodigy(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "ner.jsonl", "w", encoding="utf-8") as out:
        for k, text, tokens, per in corpus:
            for who, spans in per.items():
                out.write(json.dumps({
                    "text": text, "_input_hash": k, "_task_hash": k, "tokens": tokens,
                    "spans": [{"start": b, "end": e, "label": lab} for b, e, lab in spans],
                    "answer": "accept", "_session_id": f"ner-{who}",
                    "_annotator_id": f"ner-{who}"}) + "\n")
    return [root / "ner.jsonl"]


def write_labelstudio(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    tasks = [{"id": k, "data": {"text": text}, "predictions": [], "annotations": [
        {"id": k * 3 + j, "completed_by": {"id": j, "email": f"{who}@example.org"},
         "was_cancelled": False, "result": [
             {"id": f"{k}-{j}-{r}", "from_name": "label", "to_name": "text", "type": "labels",
              "origin": "manual", "value": {"start": b, "end": e, "text": text[b:e],
                                            "labels": [lab]}}
             for r, (b, e, lab) in enumerate(spans)]}
        for j, (who, spans) in enumerate(per.items())]} for k, text, _, per in corpus]
    (root / "export.json").write_text(json.dumps(tasks), encoding="utf-8")
    return [root / "export.json"]


def write_doccano(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    for who in PLATFORM_ANNOTATORS:
        with open(root / f"{who}.jsonl", "w", encoding="utf-8") as out:
            for k, text, _, per in corpus:
                out.write(json.dumps({"id": k, "text": text, "label": [
                    [b, e, lab] for b, e, lab in per[who]], "Comments": []}) + "\n")
    return [root / f"{who}.jsonl" for who in PLATFORM_ANNOTATORS]


def write_inception_diff(corpus: list[tuple], root: Path) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    rows = [{"doc": f"doc{k}.txt", "user": who, "begin": b, "end": e, "label": lab}
            for k, _, _, per in corpus for who, spans in per.items() for b, e, lab in spans]
    (root / "diff.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return [root / "diff.json"]


for _f, _w in (("prodigy", write_prodigy), ("labelstudio", write_labelstudio),
               ("doccano", write_doccano), ("inception_diff", write_inception_diff)):
    _add(f"coref/{_f}", "coref", _f, platform_corpus, _w)


SAMPLES_DIR = ROOT / "sample_corpora"
#: label -> builder of real documents repeated: (root, mb) -> (paths, where they come from)
REAL: dict[str, Callable[[Path, float], tuple[list[Path], str]]] = {
    **{f"coref/{f}": real_coref(f) for f in ("conll", "corefud", "brat", "mmax2", "xmi")},
    "coref/webanno_tsv": real_webanno, "coref/ezcoref": real_ezcoref,
    "coref/conll_ner": real_conll_ner,
    "segments/segeval": real_segeval_json, "segments/segeval_tsv": real_segeval_tsv,
    "segments/positions": real_positions, "segments/rs3": real_rs3,
    "segments/disrpt": real_disrpt, "segments/text": real_text,
    "senses/raganato": real_raganato, "senses/senseval": real_senseval,
    "senses/ontonotes": real_ontonotes, "senses/sensetsv": real_sensetsv,
    "senses/wsbest": real_wsbest,
    "relations/webanno_tsv": real_webanno,
    "relations/brat": real_relations("brat"), "relations/xmi": real_relations("xmi"),
}
#: the platforms' exports are written from real examples already (platform_corpus)
PLATFORM_READERS = ("coref/prodigy", "coref/labelstudio", "coref/doccano",
                    "coref/inception_diff")


def build_real(label: str, root: Path, mb: float) -> tuple[list[Path], int, str]:
    """Write ≥ ``mb`` MB of real documents for ``label``: (paths, bytes, their source)."""
    paths, source = REAL[label](root, mb)
    return paths, _size(root), source


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build(label: str, root: Path, mb: float, args: argparse.Namespace) -> tuple[list[Path], int,
                                                                                   int, float]:
    """Write ≥ ``mb`` MB of ``label``'s format under ``root``: (paths, bytes, units, seconds);
    the size of a small probe gives the number of documents (or sentences)."""
    _, _, corpus, writer = READERS[label]
    t = time.perf_counter()
    probe_n = 20 if label.startswith(("coref", "segments", "trees")) else 2000
    probe = root / "probe"
    writer(corpus(probe_n, args), probe)
    per = _size(probe) / probe_n
    _rm(probe)
    n = math.ceil(mb * 1e6 / per * 1.02)
    while True:
        out = root / "corpus"
        paths = writer(corpus(n, args), out)
        size = _size(out)
        if size >= mb * 1e6:
            return paths, size, n, time.perf_counter() - t
        _rm(out)
        n = math.ceil(n * mb * 1e6 / size * 1.02)


def _rm(path: Path) -> None:

    shutil.rmtree(path, ignore_errors=True)


def _files(paths: Sequence[str]) -> list[Path]:
    """The files below ``paths``, as a reader lists them (sorted, recursively)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    return out


def floor_bytes(paths: Sequence[str]) -> None:
    """Listing the folders and reading every file's bytes: what any reader does first."""
    for f in _files(paths):
        f.read_bytes()


def floor_cassis(paths: Sequence[str], task: str = "coref") -> Callable[[], None]:
    """dkpro-cassis's ``load_cas_from_xmi`` alone on every file, with the type system the
    XMI reader of ``task`` gives it (taken from one read of the first file, before the clock
    starts)."""
    import contextlib
    from io import BytesIO
    from unittest import mock

    import cassis

    from corpusagree import readers
    from corpusagree.model.errors import InputError

    files = [f for f in _files(paths) if f.suffix == ".xmi"]
    if not files:
        raise FileNotFoundError("no .xmi file")
    # the type system the reader hands to cassis, caught as it is handed (the read then stops:
    # the reader reports cassis's failure as the file's error; it imports cassis's function
    # where it loads a CAS, so the patch is on cassis)
    with mock.patch.object(cassis, "load_cas_from_xmi", side_effect=RuntimeError) as load, \
            contextlib.suppress(InputError):
        readers.read(task, files[:1], "xmi")
    ts = load.call_args.kwargs["typesystem"]

    def run() -> None:
        for f in files:
            cassis.load_cas_from_xmi(BytesIO(f.read_bytes()), typesystem=ts)

    return run


def floor_spacy(paths: Sequence[str]) -> Callable[[], None]:
    """spaCy's blank English tokenizer alone on every text (``.txt``) file."""
    from corpusagree.readers import _text

    nlp, _ = _text._blank(_text.DEFAULT_LANG)
    files = [f for f in _files(paths) if f.suffix == ".txt"]
    if not files:
        raise FileNotFoundError("no .txt file")

    def run() -> None:
        for f in files:
            nlp.make_doc(f.read_text(encoding="utf-8"))

    return run


def floor_jsonl_spacy(paths: Sequence[str]) -> Callable[[], dict]:
    """What a reader of JSON Lines exports with texts must do at least: every file parsed by
    one ``json.loads`` (its lines as one array), then spaCy's blank tokenizer on each distinct
    text (one call over them joined, as the readers tokenise); no object of the corpus is
    built, and the garbage collector is paused as during a read. Returns the CPU seconds of
    each part."""
    from corpusagree.readers import _text, paused_gc
    from corpusagree.readers._platforms import SEPARATOR

    nlp, _ = _text._blank(_text.DEFAULT_LANG)
    files = _files(paths)

    def run() -> dict:
        with paused_gc():
            c = time.process_time()
            texts: dict = {}
            for f in files:
                rows = json.loads(b"[" + f.read_bytes().strip().replace(b"\n", b",") + b"]")
                for row in rows:
                    texts.setdefault((row.get("id"), row["text"]), None)
            parsed = time.process_time()
            for _, piece in _text._pieces(SEPARATOR.join(t for _, t in texts)):
                nlp.make_doc(piece)
            done = time.process_time()
        return {"json.loads": parsed - c, "spaCy's tokenizer": done - parsed}

    return run


#: label -> (what bounds the reader from below, a function of the paths that prepares it
#: and returns what is timed)
FLOORS: dict[str, tuple[str, Callable[[Sequence[str]], Callable[[], None]]]] = {
    "coref/xmi": ("dkpro-cassis's load alone", floor_cassis),
    "coref/brat": ("spaCy's tokenizer alone", floor_spacy),
    "segments/text": ("spaCy's tokenizer alone", floor_spacy),
    "segments/segeval_tsv": ("listing and reading the files alone",
                             lambda paths: lambda: floor_bytes(paths)),
    "relations/xmi": ("dkpro-cassis's load alone",
                      lambda paths: floor_cassis(paths, "relations")),
    "relations/brat": ("spaCy's tokenizer alone", floor_spacy),
    "coref/doccano": ("json.loads, then spaCy's tokenizer on the texts", floor_jsonl_spacy),
}


def floor_once(label: str, paths: list[str]) -> dict:
    """In this process: the CPU and wall time of ``label``'s floor (:data:`FLOORS`), and of
    its parts where it has some (a floor that returns ``{part: CPU seconds}``)."""
    run = FLOORS[label][1](paths)
    t, c = time.perf_counter(), time.process_time()
    parts = run()
    out = {"seconds": time.perf_counter() - t, "cpu_seconds": time.process_time() - c}
    return {**out, "parts": parts} if isinstance(parts, dict) else out


def read_once(task: str, fmt: str, paths: list[str]) -> dict:
    """In this process: read through the registry; times, peak memory and what was read."""
    from corpusagree import readers

    readers.readers(task)
    # spaCy's import and blank pipeline: once per process
    if fmt in ("text", "brat", "xmi", "labelstudio", "prodigy", "doccano"):
        from corpusagree.readers import _text

        _text.check_lang(_text.DEFAULT_LANG)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t, c = time.perf_counter(), time.process_time()
    _, objects = readers.read(task, paths, fmt)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": wall, "cpu_seconds": cpu, "objects": len(objects),
            "peak_mb": peak / 1024, "peak_above_start_mb": (peak - before) / 1024}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mb", type=float, default=20.0, help="corpus size per format (MB)")
    p.add_argument("--only", help="only these readers (comma separated, e.g. coref/brat)")
    p.add_argument("--synthetic", action="store_true",
                   help="generated corpora instead of real documents repeated")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mentions", type=int, default=100, help="coreference: per document")
    p.add_argument("--units", type=int, default=2000, help="segmentation: words per document")
    p.add_argument("--keep", type=Path, help="write the corpora here (kept)")
    p.add_argument("--repeat", type=int, default=1,
                   help="read in this many fresh processes; the best CPU time counts")
    p.add_argument("--json", action="store_true")
    p.add_argument("--read", nargs="+", help=argparse.SUPPRESS)  # task format paths...
    p.add_argument("--floor", nargs="+", help=argparse.SUPPRESS)  # label paths...
    args = p.parse_args()
    if args.read:
        print(json.dumps(read_once(args.read[0], args.read[1], args.read[2:])))
        return
    if args.floor:
        print(json.dumps(floor_once(args.floor[0], args.floor[1:])))
        return
    labels = list(READERS) if not args.only else args.only.split(",")
    unknown = [x for x in labels if x not in READERS]
    if unknown:
        p.error(f"unknown readers {unknown}; known: {', '.join(READERS)}")
    results = {}
    if not args.json:
        print(f"{'reader':21s} {'MB':>5s} {'s':>6s} {'MB/s':>6s} {'CPU MB/s':>8s} "
              f"{'before':>6s}  documents", flush=True)
    with tempfile.TemporaryDirectory(prefix="corpusagree-throughput-") as tmp:
        base = args.keep or Path(tmp)
        for label in labels:
            task, fmt, _, _ = READERS[label]
            root = base / label.replace("/", "_")
            _rm(root)
            t = time.perf_counter()
            source = None
            if label in PLATFORM_READERS:
                source = "synthetic: Prodigy's news headlines (prodigy-recipes), 3 annotators"
            elif not args.synthetic and label not in REAL:
                source = "synthetic (no real documents at hand)"
            elif not args.synthetic:
                try:
                    paths, size, source = build_real(label, root, args.mb)
                    n = None
                except (FileNotFoundError, OSError) as e:
                    _rm(root)
                    source = f"synthetic ({getattr(e, 'filename', None) or e} absent)"
            if source is None or source.startswith("synthetic"):
                paths, size, n, _ = build(label, root, args.mb, args)
                source = source or "synthetic"
            t_gen = time.perf_counter() - t
            res: dict = {}
            for _ in range(args.repeat):  # the best of --repeat fresh processes
                proc = subprocess.run([sys.executable, __file__, "--read", task, fmt,
                                       *map(str, paths)], capture_output=True, text=True)
                if proc.returncode != 0:
                    res = {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
                    break
                run = json.loads(proc.stdout.strip().splitlines()[-1])
                if not res or run["cpu_seconds"] < res["cpu_seconds"]:
                    res = run
            if "error" not in res:
                res["mb_per_second"] = size / 1e6 / res["seconds"]
                res["mb_per_cpu_second"] = size / 1e6 / res["cpu_seconds"]
            if label in FLOORS and "error" not in res:
                res["floor"] = _floor(label, paths, size, args.repeat)
            results[label] = {"task": task, "format": fmt, "bytes": size, "units": n,
                              "documents": source, "readme_mb_per_second": PREVIOUS.get(label),
                              "generate_seconds": t_gen, **res}
            if not args.json:
                _print(label, results[label])
            if not args.keep:
                _rm(root)
    if args.json:
        print(json.dumps({"mb": args.mb, "readers": results}, indent=2))
        return
    floors = {label: r["floor"] for label, r in results.items() if "floor" in r}
    if floors:
        print("\nWhat bounds a reader from below, timed on the same files (MB/s of CPU):")
        for label, f in floors.items():
            if "error" in f:
                print(f"  {label:21s} {f['what']}: FAILED {f['error'][:30]}")
            else:
                print(f"  {label:21s} {f['what']}: {f['mb_per_cpu_second']:.2f} "
                      f"(the reader: {results[label]['mb_per_cpu_second']:.2f})")
                for part, rate in f.get("parts_mb_per_cpu_second", {}).items():
                    print(f"  {'':21s}   {part} alone: {rate:.1f}")


def _floor(label: str, paths: list[Path], size: int, repeat: int = 1) -> dict:
    """``label``'s floor (:data:`FLOORS`) timed in a fresh process on the reader's files
    (the best of ``repeat`` processes)."""
    out = {"what": FLOORS[label][0]}
    best: dict = {}
    for _ in range(repeat):
        proc = subprocess.run([sys.executable, __file__, "--floor", label,
                               *map(str, paths)], capture_output=True, text=True)
        if proc.returncode != 0:
            return {**out, "error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
        res = json.loads(proc.stdout.strip().splitlines()[-1])
        if not best or res["cpu_seconds"] < best["cpu_seconds"]:
            best = res
    parts = {k: size / 1e6 / v for k, v in best.get("parts", {}).items()}
    return {**out, **best, "mb_per_cpu_second": size / 1e6 / best["cpu_seconds"],
            "parts_mb_per_cpu_second": parts}


def _print(label: str, r: dict) -> None:
    before = r.get("readme_mb_per_second")
    if "error" in r:
        print(f"{label:21s} {r['bytes'] / 1e6:5.1f} FAILED: {r['error'][:45]}", flush=True)
        return
    print(f"{label:21s} {r['bytes'] / 1e6:5.1f} {r['seconds']:6.2f} {r['mb_per_second']:6.2f} "
          f"{r['mb_per_cpu_second']:8.2f} {before if before is not None else '—':>6}  "
          f"{r['documents'][:23]}", flush=True)


if __name__ == "__main__":
    main()
