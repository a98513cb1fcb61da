"""Reading and scoring speed of coreference annotation in brat and CoNLL-2012.

Writes a synthetic corpus (deterministic for a seed) into a temporary folder: ``--docs``
documents × ``--annotators`` annotators × about ``--mentions`` mentions, each document 20
sentences of pseudo-words, one mention (1–3 tokens, some with a nested one-token mention) per
four-token clause, gold chains over ~35 entities with a skewed distribution; each annotator
copies the gold annotation but misses 5 % of the mentions, puts 5 % in another chain and moves
3 % of the span ends by one token. The same annotations are written

* in brat: ``annN/docNNNN.txt`` + ``.ann`` (``T`` lines, ``*  Coreference`` lines);
* in CoNLL-2012: ``annN.v4_gold_conll``, one ``#begin document`` block per document.

Prints wall time (and this process's CPU time, for busy machines) and documents per second
(wall) for reading each format (``readers.brat``, ``readers.conll2012``)
and for scoring: mention alignment and chains as set labels (``corpusagree.convert.coref``),
then α and β with one set distance. Both formats must give the same α and β.

Usage: python benchmarks/coref_readers.py [--docs 1000] [--annotators 3] [--mentions 100]
       [--distance passonneau] [--seed 0] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from corpusagree.convert import coref as conv
from corpusagree.readers import brat, conll2012
from corpusagree.stats import coefficients as coef

CLAUSE = 4  # tokens per clause, one mention per clause
SENTENCES = 20


def _vocabulary(rng: np.random.Generator, size: int = 500) -> list[str]:
    syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "da", "pe", "gu", "ho"]
    out = set()
    while len(out) < size:
        out.add("".join(rng.choice(syllables, int(rng.integers(1, 4)))))
    return sorted(out)


def generate_document(rng: np.random.Generator, vocab: list[str], mentions: int,
                      annotators: int) -> tuple[list[list[str]], list[list[tuple]]]:
    """(sentences of tokens, per annotator [(start, end, entity)]) for one document; token
    offsets count every token of the document, the sentence-final '.' included."""
    clauses = max(1, mentions)
    per_sent = -(-clauses // SENTENCES)
    sentences, spans = [], []  # spans: (start, end, clause start, nested in or holding one)
    pos = 0
    for s in range(0, clauses, per_sent):
        n = min(per_sent, clauses - s)
        sentences.append(list(rng.choice(vocab, n * CLAUSE)) + ["."])
        for c in range(n):
            first = pos + c * CLAUSE
            start = first + int(rng.integers(0, 2))
            end = start + int(rng.integers(1, 4))
            nest = end - start >= 2 and rng.random() < 0.12
            spans.append((start, end, first, nest))
            if nest:
                spans.append((end - 1, end, first, True))
        pos += n * CLAUSE + 1
    entities = 35
    w = 1.0 / np.arange(1, entities + 1)
    gold = rng.choice(entities, len(spans), p=w / w.sum())
    out = []
    for _ in range(annotators):
        mine = []
        for (s, e, first, nested), ent in zip(spans, gold.tolist(), strict=True):
            u = rng.random()
            if u < 0.05:
                continue
            if u < 0.10:
                ent = int(rng.integers(0, entities))
            elif u < 0.13 and not nested:  # span boundary: shorter, or one token to the left
                e, s = (e - 1, s) if e - s > 1 else (e, max(first, s - 1))
            mine.append((s, e, ent))
        out.append(mine)
    return sentences, out


def generate(docs: int, annotators: int, mentions: int, seed: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    return [generate_document(rng, vocab, mentions, annotators) for _ in range(docs)]


def write_brat(corpus: list[tuple], root: Path) -> list[Path]:
    """One directory per annotator: docNNNN.txt (a sentence per line) and docNNNN.ann."""
    dirs = []
    for a in range(len(corpus[0][1])):
        d = root / f"ann{a + 1}"
        d.mkdir(parents=True)
        dirs.append(d)
    for i, (sentences, per_ann) in enumerate(corpus):
        tokens = [t for s in sentences for t in s]
        starts, text = [], []
        offset = 0
        for s in sentences:
            for k, t in enumerate(s):
                starts.append(offset)
                text.append(t)
                offset += len(t) + 1
                text.append(" " if k < len(s) - 1 else "\n")
        txt = "".join(text)
        for a, mentions in enumerate(per_ann):
            lines, chains = [], {}
            for m, (s, e, ent) in enumerate(mentions, 1):
                b, f = starts[s], starts[e - 1] + len(tokens[e - 1])
                lines.append(f"T{m}\tMention {b} {f}\t{txt[b:f]}")
                chains.setdefault(ent, []).append(f"T{m}")
            lines += [f"*\tCoreference {' '.join(ts)}" for ts in chains.values() if len(ts) > 1]
            (dirs[a] / f"doc{i:04d}.txt").write_text(txt, encoding="utf-8")
            (dirs[a] / f"doc{i:04d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dirs


def write_conll(corpus: list[tuple], root: Path) -> list[Path]:
    """One ``annN.v4_gold_conll`` file per annotator, 12 columns, brackets in the last."""
    files = []
    root.mkdir(parents=True, exist_ok=True)
    for a in range(len(corpus[0][1])):
        out = []
        for i, (sentences, per_ann) in enumerate(corpus):
            n = sum(len(s) for s in sentences)
            opens, closes, singles = ([[] for _ in range(n)] for _ in range(3))
            # longer mentions open first and close last
            for s, e, ent in sorted(per_ann[a], key=lambda m: (m[0], -m[1])):
                if e - s == 1:
                    singles[s].append(f"({ent})")
                else:
                    opens[s].append(f"({ent}")
                    closes[e - 1].insert(0, f"{ent})")
            name = f"doc{i:04d}"
            out.append(f"#begin document ({name}); part 000")
            t = 0
            for sent in sentences:
                for k, word in enumerate(sent):
                    cell = "|".join(opens[t] + singles[t] + closes[t]) or "-"
                    out.append(f"{name}  0  {k}  {word}  -  *  -  -  -  -  *  {cell}")
                    t += 1
                out.append("")
            out.append("#end document")
        f = root / f"ann{a + 1}.v4_gold_conll"
        f.write_text("\n".join(out) + "\n", encoding="utf-8")
        files.append(f)
    return files


def _timed(fn, *args, **kw):
    """(result, wall seconds, CPU seconds of this process)."""
    t, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t, time.process_time() - c


def score(annotations, distance: str) -> dict:
    """Alignment + chains as set labels + α and β: figures and times."""
    def work():
        data, _ = conv.coref_data(annotations)
        return data, coef.alpha(data, distance), coef.beta(data, distance)

    (data, a, b), secs, cpu = _timed(work)
    return {"seconds": secs, "cpu_seconds": cpu, "items": data.n_items, "alpha": a.value,
            "beta": b.value}


def run(docs: int, annotators: int, mentions: int, seed: int, distance: str, root: Path
        ) -> dict:
    corpus, t_gen, _ = _timed(generate, docs, annotators, mentions, seed)
    brat_dirs = write_brat(corpus, root / "brat")
    conll_files = write_conll(corpus, root / "conll2012")
    out = {"documents": docs, "annotators": annotators,
           "mentions": sum(len(m) for _, per in corpus for m in per),
           "tokens_per_document": sum(len(s) for s in corpus[0][0]),
           "generate_seconds": t_gen, "distance": distance, "read": {}, "score": {}}
    for name, fn, paths in (("brat", brat.read, brat_dirs),
                            ("conll2012", conll2012.read, conll_files)):
        anns, secs, cpu = _timed(fn, paths)
        s = score(anns, distance)
        out["read"][name] = {"seconds": secs, "cpu_seconds": cpu,
                             "documents_per_second": docs / secs,
                             "annotations": len(anns),
                             "mentions": sum(len(x.mentions) for x in anns)}
        out["score"][name] = {**s, "documents_per_second": docs / s["seconds"]}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--docs", type=int, default=1000)
    p.add_argument("--annotators", type=int, default=3)
    p.add_argument("--mentions", type=int, default=100, help="about this many per document")
    p.add_argument("--distance", default="passonneau",
                   choices=("passonneau", "jaccard", "dice", "masi"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep", type=Path, help="write the corpus here (kept) instead of a temp dir")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.keep:
        out = run(args.docs, args.annotators, args.mentions, args.seed, args.distance, args.keep)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = run(args.docs, args.annotators, args.mentions, args.seed, args.distance,
                      Path(tmp))
    if args.json:
        print(json.dumps(out, indent=2))
        return
    per = out["mentions"] / out["documents"] / out["annotators"]
    print(f"{out['documents']} documents × {out['annotators']} annotators, "
          f"{out['mentions']:,} mentions ({per:.0f} per document and annotator), "
          f"{out['tokens_per_document']} tokens per document")
    for name in out["read"]:
        r, s = out["read"][name], out["score"][name]
        print(f"{name:10s} read {r['seconds']:6.2f} s (CPU {r['cpu_seconds']:6.2f} s) "
              f"{r['documents_per_second']:7.1f} documents/s   score {s['seconds']:5.2f} s "
              f"(CPU {s['cpu_seconds']:5.2f} s) {s['documents_per_second']:7.1f} documents/s"
              f"   α = {s['alpha']:.4f}  β = {s['beta']:.4f} ({out['distance']}, "
              f"{s['items']:,} items)")


if __name__ == "__main__":
    main()
