"""pygamma-agreement's best-alignment disorder on the time-aligned files of this folder, for
tests/readers/test_timeline.py.

The files are read here by the libraries pygamma-agreement itself depends on (pympi-ling's
``Eaf`` for ELAN, ``textgrid`` for TextGrid; RTTM's SPEAKER lines by hand), not by
corpusagree's readers; α = β = Δ∅ = 1 (pygamma's defaults).

Run with the Python that has pygamma-agreement installed (it pins old dependencies)::

    python -m venv /tmp/pg && /tmp/pg/bin/pip install pygamma-agreement
    /tmp/pg/bin/python tests/data/timeline/make_pygamma_values.py
"""

import json
from pathlib import Path

HERE = Path(__file__).parent
#: file (or files), the tiers read and the annotator each tier is
CASES = {
    "two_tiers_long.TextGrid": {"ann1": "ann1", "ann2": "ann2"},
    "two_tiers_short.TextGrid": {"coder1": "coder1", "coder2": "coder2"},
    "two_tiers.eaf": {"gesture@ann1": "ann1", "gesture@ann2": "ann2"},
    "pympi_sample_3.0.eaf": {"text": "text", "gestures": "gestures"},
    "ann1.rttm ann2.rttm": None,
}


def units(case, tiers):
    if case.endswith(".TextGrid"):
        import textgrid
        tg = textgrid.TextGrid.fromFile(str(HERE / case))
        return [(tiers[t.name], float(i.minTime), float(i.maxTime), i.mark.strip())
                for t in tg.tiers if t.name in tiers for i in t
                if i.mark.strip() and i.maxTime > i.minTime]
    if case.endswith(".eaf"):
        import pympi
        eaf = pympi.Elan.Eaf(str(HERE / case))
        return [(tiers[t], s / 1000, e / 1000, v.strip())
                for t in tiers for s, e, v, *_ in eaf.get_annotation_data_for_tier(t)
                if v.strip() and e > s]
    out = []
    for f in case.split():
        for line in (HERE / f).read_text().splitlines():
            x = line.split()
            if x and x[0] == "SPEAKER" and float(x[4]) > 0:
                out.append((Path(f).stem, float(x[3]), float(x[3]) + float(x[4]), x[7]))
    return out


def main():
    from pyannote.core import Segment
    from pygamma_agreement import CombinedCategoricalDissimilarity, Continuum

    values = {}
    for case, tiers in CASES.items():
        rows = units(case, tiers)
        cont = Continuum()
        for a, s, e, c in rows:
            cont.add(a, Segment(s, e), c)
        best = cont.get_best_alignment(CombinedCategoricalDissimilarity(alpha=1, beta=1,
                                                                        delta_empty=1))
        values[case] = {"units": len(rows), "best_disorder": float(best.disorder)}
        print(case, values[case])
    (HERE / "pygamma_values.json").write_text(json.dumps(values, indent=1) + "\n")


if __name__ == "__main__":
    main()
