"""Reading speed of every reader: bytes per second on a generated corpus of ≥ ``--mb`` MB each.

For every format of the readers registry (and segeval's TSV variant) a synthetic corpus of at
least ``--mb`` MB (default 50) is written into a temporary folder, then read through the
registry (``corpusagree.readers.read(task, paths, format)``) in a fresh process, which reports
its wall and CPU time and its peak memory above what it held before reading. Prints MB/s
(10^6 bytes per second of wall time) per reader, or everything with ``--json``.

The corpora (pseudo-words, three annotators, deterministic for ``--seed``):

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

Usage: python benchmarks/readers_throughput.py [--mb 50] [--only task/format,...] [--seed 0]
       [--mentions 100] [--units 2000] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


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


def _sample_objects(mod, corpus: list[tuple]) -> tuple[dict, dict]:
    """The corpus as make_sample's ``Doc`` and ``Chains`` objects."""
    docs, ann = {}, {a: {} for a in ANNOTATORS}
    for i, (sentences, per_ann) in enumerate(corpus):
        name = f"doc{i:05d}"
        docs[name] = mod.Doc(name, [" ".join(s) for s in sentences])
        for a, mentions in zip(ANNOTATORS, per_ann, strict=True):
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
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def read_once(task: str, fmt: str, paths: list[str]) -> dict:
    """In this process: read through the registry; times, peak memory and what was read."""
    from corpusagree import readers

    readers.readers(task)
    if task == "segments" and fmt == "text":
        import spacy  # noqa: F401  (the reader imports it on first use; not part of reading)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t, c = time.perf_counter(), time.process_time()
    _, objects = readers.read(task, paths, fmt)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": wall, "cpu_seconds": cpu, "objects": len(objects),
            "peak_mb": peak / 1024, "peak_above_start_mb": (peak - before) / 1024}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mb", type=float, default=50.0, help="corpus size per format (MB)")
    p.add_argument("--only", help="only these readers (comma separated, e.g. coref/brat)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mentions", type=int, default=100, help="coreference: per document")
    p.add_argument("--units", type=int, default=2000, help="segmentation: words per document")
    p.add_argument("--keep", type=Path, help="write the corpora here (kept)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--read", nargs="+", help=argparse.SUPPRESS)  # task format paths...
    args = p.parse_args()
    if args.read:
        print(json.dumps(read_once(args.read[0], args.read[1], args.read[2:])))
        return
    labels = list(READERS) if not args.only else args.only.split(",")
    unknown = [x for x in labels if x not in READERS]
    if unknown:
        p.error(f"unknown readers {unknown}; known: {', '.join(READERS)}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="corpusagree-throughput-") as tmp:
        base = args.keep or Path(tmp)
        for label in labels:
            task, fmt, _, _ = READERS[label]
            root = base / label.replace("/", "_")
            _rm(root)
            paths, size, n, t_gen = build(label, root, args.mb, args)
            proc = subprocess.run([sys.executable, __file__, "--read", task, fmt,
                                   *map(str, paths)], capture_output=True, text=True)
            if proc.returncode != 0:
                res = {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
            else:
                res = json.loads(proc.stdout.strip().splitlines()[-1])
                res["mb_per_second"] = size / 1e6 / res["seconds"]
                res["mb_per_cpu_second"] = size / 1e6 / res["cpu_seconds"]
            results[label] = {"task": task, "format": fmt, "bytes": size, "units": n,
                              "generate_seconds": t_gen, **res}
            if not args.json:
                _print(label, results[label])
            if not args.keep:
                _rm(root)
    if args.json:
        print(json.dumps({"mb": args.mb, "readers": results}, indent=2))


def _print(label: str, r: dict) -> None:
    if "error" in r:
        print(f"{label:22s} {r['bytes'] / 1e6:7.1f} MB  FAILED: {r['error']}", flush=True)
        return
    print(f"{label:22s} {r['bytes'] / 1e6:7.1f} MB  {r['seconds']:7.2f} s  "
          f"{r['mb_per_second']:7.2f} MB/s  (CPU {r['mb_per_cpu_second']:7.2f} MB/s)  "
          f"peak +{r['peak_above_start_mb']:6.0f} MB  {r['objects']:,} objects", flush=True)


if __name__ == "__main__":
    main()
