"""How ``tests/data/frozen/*.json`` were made: the ``--json`` output of every job, run with the
command line of commit 989a11b (before the package was reorganised). Kept as the record of
those commands; ``tests/cli/test_frozen.py`` runs each ``argv`` with today's command line."""

import json
import subprocess
import sys
from pathlib import Path

S = "sample_corpora"
R = "../shared/corpora"
CASES = {
    "table_weights": ["table", f"{S}/table/dialogue_acts.csv", "--weights",
                      f"{S}/table/dialogue_acts.weights.csv", "--json"],
    "table_group_ci_diag": ["table", f"{S}/table/dialogue_acts.csv", "--group", "document",
                            "--ci", "--seed", "1", "--diagnostics", "--json"],
    "table_wide_interval": ["table", f"{S}/table/essay_marks_wide.csv", "--wide", "--distance",
                            "interval", "--ci", "--seed", "0", "--interval", "bca",
                            "--diagnostics", "--json"],
    "coref_corefud": ["coref", *(f"{S}/coref/corefud/ann{k}.conllu" for k in (1, 2, 3)),
                      "--ci", "--by-document", "--diagnostics", "--json"],
    "coref_mmax2_variants": ["coref", f"{S}/coref/mmax2", "--match", "overlap", "--unmarked",
                             "singleton", "--label", "prefix", "--singletons", "drop", "--ci",
                             "--seed", "3", "--json"],
    "coref_brat_antecedent": ["coref", f"{S}/coref/brat", "--label", "antecedent",
                              "--by-document", "--diagnostics", "--json"],
    "markables_sample": ["markables", f"{S}/coref/mmax2", "--ci", "--json"],
    "markables_potts": ["markables", f"{R}/potts_mmax2_subset/corpus", "--ci", "--json"],
    "segments_sample": ["segments", f"{S}/segments/segments.json", "--ci", "--seed", "0",
                        "--by-document", "--diagnostics", "--json"],
    "segments_moonstone": ["segments", f"{R}/moonstone_kazantseva2012/moonstone_segeval_masses"
                           ".json", "--ci", "--seed", "0", "--by-document", "--diagnostics",
                           "5", "--json"],
    "senses_sample_folder": ["senses", f"{S}/senses", "--ci", "--json"],
    "senses_tsv_all": ["senses", f"{S}/senses/sample.tsv", "--inventory",
                       f"{S}/senses/inventory.tsv", "--ci", "--by-lemma", "--diagnostics",
                       "--json"],
    "senses_wsbest": ["senses", f"{R}/erk2013_wsbest_wssim/wsbest/judgments.tsv", "--format",
                      "wsbest", "--inventory", "lexfile", "--ci", "--by-lemma", "--json"],
}


def documents(text: str):
    """The JSON documents printed back to back (the old senses job printed one per set)."""
    dec, s, i, docs = json.JSONDecoder(), text.strip(), 0, []
    while i < len(s):
        obj, i = dec.raw_decode(s, i)
        docs.append(obj)
        while i < len(s) and s[i].isspace():
            i += 1
    return docs if len(docs) > 1 else docs[0]


if __name__ == "__main__":
    out = Path(__file__).parent
    for name, argv in CASES.items():
        r = subprocess.run(["corpusagree", *argv], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"{name}: {r.stderr}")
        record = {"argv": argv, "output": documents(r.stdout)}
        (out / f"{name}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1)
                                          + "\n")
