"""Run the pre-redesign CLI on the cases below and store each --json output."""
import json
import subprocess
import sys
from pathlib import Path

S = "sample_corpora"
R = "../shared/corpora"
CASES = {
 "table_weights": ["table", f"{S}/table/dialogue_acts.csv", "--weights", f"{S}/table/dialogue_acts.weights.csv", "--json"],
 "table_group_ci_diag": ["table", f"{S}/table/dialogue_acts.csv", "--group", "document", "--ci", "--seed", "1", "--diagnostics", "--json"],
 "table_wide_interval": ["table", f"{S}/table/essay_marks_wide.csv", "--wide", "--distance", "interval", "--ci", "--seed", "0", "--interval", "bca", "--diagnostics", "--json"],
 "coref_corefud": ["coref", f"{S}/coref/corefud/ann1.conllu", f"{S}/coref/corefud/ann2.conllu", f"{S}/coref/corefud/ann3.conllu", "--ci", "--by-document", "--diagnostics", "--json"],
 "coref_mmax2_variants": ["coref", f"{S}/coref/mmax2", "--match", "overlap", "--unmarked", "singleton", "--label", "prefix", "--singletons", "drop", "--ci", "--seed", "3", "--json"],
 "coref_brat_antecedent": ["coref", f"{S}/coref/brat", "--label", "antecedent", "--by-document", "--diagnostics", "--json"],
 "markables_sample": ["markables", f"{S}/coref/mmax2", "--ci", "--json"],
 "markables_potts": ["markables", f"{R}/potts_mmax2_subset/corpus", "--ci", "--json"],
 "segments_sample": ["segments", f"{S}/segments/segments.json", "--ci", "--seed", "0", "--by-document", "--diagnostics", "--json"],
 "segments_moonstone": ["segments", f"{R}/moonstone_kazantseva2012/moonstone_segeval_masses.json", "--ci", "--seed", "0", "--by-document", "--diagnostics", "5", "--json"],
 "senses_sample_folder": ["senses", f"{S}/senses", "--ci", "--json"],
 "senses_tsv_all": ["senses", f"{S}/senses/sample.tsv", "--inventory", f"{S}/senses/inventory.tsv", "--ci", "--by-lemma", "--diagnostics", "--json"],
 "senses_wsbest": ["senses", f"{R}/erk2013_wsbest_wssim/wsbest/judgments.tsv", "--format", "wsbest", "--inventory", "lexfile", "--ci", "--by-lemma", "--json"],
}
out = Path("tests/data/frozen")
for name, argv in CASES.items():
    r = subprocess.run(["corpusagree", *argv], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{name}: {r.stderr}")
    docs = []  # the senses folder prints one JSON document per annotation set
    dec = json.JSONDecoder(); s = r.stdout.strip(); i = 0
    while i < len(s):
        obj, j = dec.raw_decode(s, i); docs.append(obj); i = j
        while i < len(s) and s[i].isspace(): i += 1
    (out / f"{name}.json").write_text(json.dumps({"argv": argv, "output": docs if len(docs) > 1 else docs[0]}, ensure_ascii=False, indent=1) + "\n")
    print(name, len(r.stdout))
