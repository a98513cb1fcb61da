"""Writes the fuzz suite's sources that no sample has (``benchmarks/fuzzing.py``): the sample
XMI zipped in INCEpTION's three export layouts, DISRPT ``.rels`` files of two annotators and a
table of set labels (mvα). Run from the repository's root: ``python
tests/data/fuzz/make_fuzz_sources.py``."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
XMI = ROOT / "sample_corpora" / "coref" / "xmi" / "annotation"
RELS = ("doc\tunit1_toks\tunit2_toks\tunit1_txt\tunit2_txt\ts1_toks\ts2_toks\tunit1_sent\t"
        "unit2_sent\tdir\torig_label\tlabel\n")


def export(layout: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for doc in sorted(XMI.iterdir()):
            z.write(doc / "TypeSystem.xml", f"annotation/{doc.name}/TypeSystem.xml")
            for f in sorted(doc.glob("*.xmi")):
                if layout == "annotation":
                    z.write(f, f"annotation/{doc.name}/{f.stem}.xmi")
                elif layout == "user":
                    z.write(f, f"{f.stem}/{doc.name}.xmi")
                else:
                    inner = io.BytesIO()
                    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as u:
                        u.write(f, f"{doc.name}.xmi")
                        u.write(doc / "TypeSystem.xml", "TypeSystem.xml")
                    z.writestr(f"annotation/{doc.name}/{f.stem}.zip", inner.getvalue())
    return buf.getvalue()


def main() -> None:
    for layout in ("annotation", "user", "nested"):
        (HERE / "export").mkdir(exist_ok=True)
        (HERE / "export" / f"{layout}.zip").write_bytes(export(layout))
    rows = {"a": ["d1\t1-3\t4-6\tx\ty\t1-6\t1-6\ts\ts\t1>2\tcause\tcausal",
                  "d1\t7-9,12\t1-6\tx\ty\t1-12\t1-6\ts\ts\t1<2\telab\telaboration",
                  "d2\t1-2\t3-5\tx\ty\t1-5\t1-5\ts\ts\t1>2\tcontrast\tcontrast"],
            "b": ["d1\t1-3\t4-6\tx\ty\t1-6\t1-6\ts\ts\t1>2\tresult\tcausal",
                  "d1\t7-9\t1-6\tx\ty\t1-9\t1-6\ts\ts\t1<2\telab\telaboration",
                  "d2\t1-2\t3-5\tx\ty\t1-5\t1-5\ts\ts\t1>2\tcontrast\tcontrast"]}
    for who, lines in rows.items():
        (HERE / "rels" / who).mkdir(parents=True, exist_ok=True)
        (HERE / "rels" / who / "x.rels").write_text(RELS + "\n".join(lines) + "\n")
    cells = ["a|b", "a", "b|c", "c", "a|c", "b"]
    lines = ["coder,item,label"] + [f"c{k},i{i},{cells[(i + k) % len(cells)]}"
                                    for i in range(12) for k in range(3)]
    (HERE / "sets.csv").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
