"""Write the sample coreference corpus in five formats from the one definition below.

Run ``python make_sample.py`` (from anywhere); it rewrites ``conll2012/``, ``corefud/``,
``brat/``, ``mmax2/`` and ``xmi/`` next to this file, byte-identically on every run.
The texts are invented for corpusagree. See README.md for the design.

A mention is ``(sentence, "words")``, ``(sentence, "words", n)`` for the n-th occurrence in
that sentence, or a tuple of those for a discontinuous mention; ``*`` marks the head word
(default: the last word). ann1's chains are written out; ann2 and ann3 are ann1 plus the
edits in ``EDITS``, which are exactly the designed disagreements.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

from lxml import etree

HERE = Path(__file__).resolve().parent
ANNOTATORS = ("ann1", "ann2", "ann3")

DOCUMENTS: dict[str, list[str]] = {
    "harbour": [
        "Mara sold the old ferry to her cousin Tomas .",
        "He painted it blue and renamed it the Heron .",
        "The boat still leaks 🙁 , but Tomas says she is worth every coin .",
    ],
    "gates": [
        "The north and south gates of the old town were shut at dusk .",
        "The north ones opened again at dawn , but the south gates stayed closed all week .",
        "Traders waited outside the town with their carts .",
    ],
    "recipe": [
        "Aunt Lise wrote down her soup recipe for Ben .",
        "He lost it twice .",
        "Now the recipe hangs on his fridge , next to a photo of her .",
    ],
    "council": [
        "The town and county councils met the engineers on Monday .",
        "They approved the bridge plan after a long debate .",
        "The engineers will start work on the bridge in spring , and the county council will pay .",
    ],
    "letters": [
        "Ines and her brother sent letters to each other for ten years .",
        "Her letters were long ; his were short .",
        "After the war , the siblings finally met in Lisbon .",
    ],
}

# ann1: chain name -> (entity type, mentions)
ANN1: dict[str, dict[str, tuple[str, list]]] = {
    "harbour": {
        "mara": ("person", [(0, "Mara"), (0, "her")]),
        "tomas": ("person", [(0, "her cousin Tomas"), (1, "He"), (2, "Tomas")]),
        "ferry": ("object", [(0, "the old ferry"), (1, "it", 0), (1, "it", 1), (1, "the Heron"),
                             (2, "The boat"), (2, "she")]),
        "coin": ("abstract", [(2, "every coin")]),
    },
    "gates": {
        "all_gates": ("place", [(0, "The north and south *gates of the old town")]),
        "north": ("place", [((0, "north"), (0, "gates")), (1, "The north ones")]),
        "south": ("place", [(0, "south gates"), (1, "the south gates")]),
        "town": ("place", [(0, "the old town"), (2, "the town")]),
        "traders": ("person", [(2, "Traders"), (2, "their")]),
        "carts": ("object", [(2, "their carts")]),
    },
    "recipe": {
        "lise": ("person", [(0, "Aunt Lise"), (0, "her"), (2, "her")]),
        "recipe": ("object", [(0, "her soup recipe"), (1, "it"), (2, "the recipe")]),
        "ben": ("person", [(0, "Ben"), (1, "He"), (2, "his")]),
        "fridge": ("object", [(2, "his fridge")]),
        "photo": ("object", [(2, "a *photo of her")]),
    },
    "council": {
        "councils": ("organization", [(0, "The town and county councils"), (1, "They")]),
        "town_council": ("organization", [((0, "town"), (0, "councils"))]),
        "county_council": ("organization", [(0, "county councils"), (2, "the county council")]),
        "engineers": ("person", [(0, "the engineers"), (2, "The engineers")]),
        "plan": ("abstract", [(1, "the bridge plan")]),
        "debate": ("event", [(1, "a long debate")]),
        "bridge": ("object", [(2, "the bridge")]),
    },
    "letters": {
        "siblings": ("person", [(0, "*Ines and her brother"), (2, "the siblings")]),
        "ines": ("person", [(0, "Ines"), (0, "her"), (1, "Her")]),
        "brother": ("person", [(0, "her brother"), (1, "his")]),
        "letters": ("object", [(0, "letters")]),
        "her_letters": ("object", [(1, "Her letters")]),
        "war": ("event", [(2, "the war")]),
        "lisbon": ("place", [(2, "Lisbon")]),
    },
}


def move(mention, src: str, dst: str):
    def edit(chains):
        chains[src][1].remove(mention)
        chains[dst][1].append(mention)
    return edit


def split(src: str, mentions: list, new: str):
    def edit(chains):
        for m in mentions:
            chains[src][1].remove(m)
        chains[new] = (chains[src][0], list(mentions))
    return edit


def merge(keep: str, gone: str):
    def edit(chains):
        chains[keep][1].extend(chains.pop(gone)[1])
    return edit


def drop(src: str, mention):
    def edit(chains):
        chains[src][1].remove(mention)
        if not chains[src][1]:
            del chains[src]
    return edit


def add(dst: str, mention):
    def edit(chains):
        chains[dst][1].append(mention)
    return edit


def respan(src: str, old, new):
    def edit(chains):
        ms = chains[src][1]
        ms[ms.index(old)] = new
    return edit


# (document, annotator, kind, what, edit): the designed disagreements with ann1
EDITS = [
    ("harbour", "ann2", "mention attached to a different chain",
     "'she' (s3) is Mara, not the boat",
     move((2, "she"), "ferry", "mara")),
    ("recipe", "ann3", "different span boundary",
     "'a photo' instead of 'a photo of her'",
     respan("photo", (2, "a *photo of her"), (2, "a photo"))),
    ("recipe", "ann2", "split chain",
     "'the recipe' (s3) starts a new chain apart from 'her soup recipe', 'it'",
     split("recipe", [(2, "the recipe")], "recipe_2")),
    ("council", "ann3", "merged chains",
     "the councils and the engineers are one chain",
     merge("councils", "engineers")),
    ("council", "ann2", "missed mention (discontinuous)",
     "the discontinuous singleton 'town … councils' not marked",
     drop("town_council", ((0, "town"), (0, "councils")))),
    ("letters", "ann3", "missed mention",
     "the singleton 'Lisbon' not marked",
     drop("lisbon", (2, "Lisbon"))),
    ("letters", "ann2", "extra mention",
     "'each other' marked and put in the siblings chain",
     add("siblings", (0, "each other"))),
]


# ---- resolving mention specs to token spans -----------------------------------------------------

class Doc:
    """A document's tokens with sentence offsets, and span lookup."""

    def __init__(self, name: str, sentences: list[str]) -> None:
        self.name = name
        self.sents = [s.split(" ") for s in sentences]
        self.starts, pos = [], 0
        for s in self.sents:
            self.starts.append(pos)
            pos += len(s)
        self.tokens = [t for s in self.sents for t in s]

    def fragment(self, spec) -> tuple[tuple[int, int], int | None]:
        sent, words, nth = (*spec, 0) if len(spec) == 2 else spec
        ws = words.split(" ")
        head = next((i for i, w in enumerate(ws) if w.startswith("*")), None)
        ws = [w.lstrip("*") for w in ws]
        toks = self.sents[sent]
        hits = [i for i in range(len(toks) - len(ws) + 1) if toks[i:i + len(ws)] == ws]
        if len(hits) <= nth:
            raise ValueError(f"{self.name}: {words!r} (occurrence {nth}) not in sentence {sent}")
        start = self.starts[sent] + hits[nth]
        return (start, start + len(ws)), None if head is None else start + head

    def mention(self, spec) -> tuple[tuple[tuple[int, int], ...], int]:
        """Fragments (sorted) and the head token of a mention spec."""
        specs = spec if isinstance(spec[0], tuple) else (spec,)
        frags, heads = zip(*(self.fragment(s) for s in specs), strict=True)
        head = next((h for h in heads if h is not None), max(e for _, e in frags) - 1)
        return tuple(sorted(frags)), head


class Chains:
    """One annotator's chains of one document as token spans: [(etype, [(frags, head)])]."""

    def __init__(self, doc: Doc, spec: dict[str, tuple[str, list]]) -> None:
        self.chains = [(etype, sorted(doc.mention(m) for m in ms)) for etype, ms in spec.values()]
        self.chains.sort(key=lambda c: c[1][0][0])

    def mentions(self):
        """(chain number from 1, etype, fragments, head), in span order."""
        rows = [(k, etype, frags, head) for k, (etype, ms) in enumerate(self.chains, 1)
                for frags, head in ms]
        return sorted(rows, key=lambda r: (r[2], r[0]))


def corpus() -> tuple[dict[str, Doc], dict[str, dict[str, Chains]]]:
    docs = {name: Doc(name, sents) for name, sents in DOCUMENTS.items()}
    ann: dict[str, dict[str, Chains]] = {a: {} for a in ANNOTATORS}
    for name, doc in docs.items():
        for a in ANNOTATORS:
            chains = copy.deepcopy(ANN1[name])
            for d, who, _, _, edit in EDITS:
                if d == name and who == a:
                    edit(chains)
            ann[a][name] = Chains(doc, chains)
    return docs, ann


def hull(frags) -> tuple[int, int]:
    return frags[0][0], frags[-1][1]


# ---- text with character offsets (brat, XMI) ----------------------------------------------------

NO_SPACE_BEFORE = {".", ",", ";"}


def layout(doc: Doc) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    """Text (one sentence per line), token and sentence code-point offsets."""
    text, offs, sents = "", [], []
    for s in doc.sents:
        begin = len(text)
        for i, t in enumerate(s):
            if i and t not in NO_SPACE_BEFORE:
                text += " "
            offs.append((len(text), len(text) + len(t)))
            text += t
        sents.append((begin, len(text)))
        text += "\n"
    return text, offs, sents


def utf16(text: str, i: int) -> int:
    """UTF-16 offset of code-point offset ``i`` (Java counts surrogate pairs as two)."""
    return i + sum(1 for c in text[:i] if ord(c) > 0xFFFF)


# ---- writers ------------------------------------------------------------------------------------

def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def brackets(n_tokens: int, rows, fmt) -> list[list[str]]:
    """Per token, the bracket chunks of every (part of a) mention row, in the canonical order:
    openings (longer first), one-token mentions, closings (inner first)."""
    cells: list[list[tuple]] = [[] for _ in range(n_tokens)]
    for k, etype, frags, head in rows:
        for j, (s, e) in enumerate(frags):
            part = (j + 1, len(frags)) if len(frags) > 1 else None
            if e - s == 1:
                cells[s].append((1, 0, fmt(k, etype, frags, head, part, kind="single")))
            else:
                cells[s].append((0, -e, fmt(k, etype, frags, head, part, kind="open")))
                cells[e - 1].append((2, -s, fmt(k, etype, frags, head, part, kind="close")))
    return [[c for *_, c in sorted(cell)] for cell in cells]


def write_conll(docs: dict[str, Doc], ann: dict[str, dict[str, Chains]]) -> None:
    """CoNLL-2012: discontinuous mentions become their covering span (the format has no gaps)."""
    for a in ANNOTATORS:
        out = []
        for name, doc in docs.items():
            rows = [(k, t, (hull(f),), h) for k, t, f, h in ann[a][name].mentions()]
            cells = brackets(len(doc.tokens), rows, lambda k, *_, kind: {
                "single": f"({k})", "open": f"({k}", "close": f"{k})"}[kind])
            out.append(f"#begin document ({name}); part 000")
            for si, sent in enumerate(doc.sents):
                for wi, word in enumerate(sent):
                    cell = "|".join(cells[doc.starts[si] + wi]) or "-"
                    cols = [name, "0", str(wi), word, "-", "*", "-", "-", "-", "-", "*", cell]
                    out.append("  ".join(cols))
                out.append("")
            out.append("#end document")
        write(HERE / "conll2012" / f"{a}.v4_gold_conll", "\n".join(out) + "\n")


def write_corefud(docs: dict[str, Doc], ann: dict[str, dict[str, Chains]]) -> None:
    for a in ANNOTATORS:
        out = ["# global.Entity = eid-etype-head-other"]
        for name, doc in docs.items():
            def fmt(k, etype, frags, head, part, kind):
                toks = [t for s, e in frags for t in range(s, e)]
                eid = f"e{k}" + (f"[{part[0]}/{part[1]}]" if part else "")
                full = f"({eid}-{etype}-{toks.index(head) + 1}"
                return {"single": full + ")", "open": full, "close": eid + ")"}[kind]

            cells = brackets(len(doc.tokens), ann[a][name].mentions(), fmt)
            text, offs, _ = layout(doc)
            out.append(f"# newdoc id = {name}")
            for si, sent in enumerate(doc.sents):
                out.append(f"# sent_id = {name}-{si + 1}")
                out.append(f"# text = {text.splitlines()[si]}")
                for wi, word in enumerate(sent):
                    i = doc.starts[si] + wi
                    misc = []
                    if cells[i]:
                        misc.append("Entity=" + "".join(cells[i]))
                    if wi + 1 < len(sent) and offs[i][1] == offs[i + 1][0]:
                        misc.append("SpaceAfter=No")
                    out.append("\t".join([str(wi + 1), word] + ["_"] * 7
                                         + ["|".join(misc) or "_"]))
                out.append("")
        write(HERE / "corefud" / f"{a}.conllu", "\n".join(out) + "\n")


BRAT_CONF = """[entities]
Mention

[relations]
Coreference\tArg1:Mention, Arg2:Mention, <REL-TYPE>:symmetric-transitive

[events]

[attributes]
EntityType\tArg:Mention, Value:person|place|object|organization|abstract|event
"""


def write_brat(docs: dict[str, Doc], ann: dict[str, dict[str, Chains]]) -> None:
    write(HERE / "brat" / "annotation.conf", BRAT_CONF)
    for a in ANNOTATORS:
        for name, doc in docs.items():
            text, offs, _ = layout(doc)
            lines, members = [], {}
            for n, (k, etype, frags, _) in enumerate(ann[a][name].mentions(), 1):
                chars = [(offs[s][0], offs[e - 1][1]) for s, e in frags]
                where = ";".join(f"{s} {e}" for s, e in chars)
                covered = " ".join(text[s:e] for s, e in chars)
                lines.append(f"T{n}\tMention {where}\t{covered}")
                lines.append(f"A{n}\tEntityType T{n} {etype}")
                members.setdefault(k, []).append(f"T{n}")
            lines += [f"*\tCoreference {' '.join(ts)}" for ts in members.values() if len(ts) > 1]
            write(HERE / "brat" / a / f"{name}.txt", text)
            write(HERE / "brat" / a / f"{name}.ann", "\n".join(lines) + "\n")


MMAX_SCHEME = """<?xml version="1.0" encoding="UTF-8"?>
<annotationscheme>
<attribute id="att_type" name="type" type="nominal_list">
<value id="v_person" name="person"/><value id="v_place" name="place"/>
<value id="v_object" name="object"/><value id="v_organization" name="organization"/>
<value id="v_abstract" name="abstract"/><value id="v_event" name="event"/>
</attribute>
<attribute id="att_coref_set" name="coref_set" type="markable_set">
<value id="v_set" name="coref_set"/>
</attribute>
</annotationscheme>
"""

MMAX_SENTENCE_SCHEME = """<?xml version="1.0" encoding="UTF-8"?>
<annotationscheme>
<attribute id="att_orderid" name="orderid" type="freetext"><value id="v_orderid" name="orderid"/>
</attribute>
</annotationscheme>
"""

MMAX_COMMON = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE common_paths>
<common_paths>
<basedata_path>../Basedata/</basedata_path>
<scheme_path>../Schemes/</scheme_path>
<style_path>../Styles/</style_path>
<customization_path>../Customizations/</customization_path>
<markable_path>Markables/</markable_path>
<views><stylesheet>default_style.xsl</stylesheet></views>
<annotations>
<level name="sentence" schemefile="sentence_scheme.xml"
 customization_file="sentence_customization.xml">$_sentence_level.xml</level>
<level name="coref" schemefile="coref_scheme.xml"
 customization_file="coref_customization.xml">$_coref_level.xml</level>
</annotations>
</common_paths>
"""


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def _words(frags) -> str:
    return ",".join(f"word_{s + 1}" if e - s == 1 else f"word_{s + 1}..word_{e}"
                    for s, e in frags)


def write_mmax2(docs: dict[str, Doc], ann: dict[str, dict[str, Chains]]) -> None:
    """MMAX2: one project directory per annotator over shared base data (formats.md §1.6);
    a chain of one markable has ``coref_set="empty"``."""
    root = HERE / "mmax2"
    write(root / "Schemes" / "coref_scheme.xml", MMAX_SCHEME)
    write(root / "Schemes" / "sentence_scheme.xml", MMAX_SENTENCE_SCHEME)
    for name, doc in docs.items():
        words = "".join(f'<word id="word_{i + 1}">{_attr(t)}</word>\n'
                        for i, t in enumerate(doc.tokens))
        write(root / "Basedata" / f"{name}_words.xml",
              '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE words SYSTEM "words.dtd">\n'
              f"<words>\n{words}</words>\n")
    for a in ANNOTATORS:
        write(root / a / "common_paths.xml", MMAX_COMMON)
        for name, doc in docs.items():
            write(root / a / f"{name}.mmax",
                  '<?xml version="1.0" encoding="UTF-8"?>\n<mmax_project>\n'
                  f"<words>{name}_words.xml</words>\n<keyactions></keyactions>\n"
                  "<gestures></gestures>\n</mmax_project>\n")
            sents = "".join(
                f'<markable id="markable_{i + 1}" span="{_words([(s, s + len(toks))])}" '
                f'orderid="{i}" mmax_level="sentence"/>\n'
                for i, (s, toks) in enumerate(zip(doc.starts, doc.sents, strict=True)))
            chains = ann[a][name]
            sizes = {k: len(ms) for k, (_, ms) in enumerate(chains.chains, 1)}
            marks = "".join(
                f'<markable id="markable_{n}" span="{_words(frags)}" '
                f'coref_set="{f"set_{k}" if sizes[k] > 1 else "empty"}" type="{etype}" '
                'mmax_level="coref"/>\n'
                for n, (k, etype, frags, _) in enumerate(chains.mentions(), 1))
            for level, body in (("sentence", sents), ("coref", marks)):
                write(root / a / "Markables" / f"{name}_{level}_level.xml",
                      '<?xml version="1.0" encoding="UTF-8"?>\n'
                      '<!DOCTYPE markables SYSTEM "markables.dtd">\n'
                      f'<markables xmlns="www.eml.org/NameSpaces/{level}">\n{body}</markables>\n')


NS = {
    "xmi": "http://www.omg.org/XMI",
    "cas": "http:///uima/cas.ecore",
    "type2": "http:///de/tudarmstadt/ukp/dkpro/core/api/metadata/type.ecore",
    "type4": "http:///de/tudarmstadt/ukp/dkpro/core/api/segmentation/type.ecore",
    "type5": "http:///de/tudarmstadt/ukp/dkpro/core/api/coref/type.ecore",
}
DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
TYPES = [  # (name, supertype, [(feature, range, element type)])
    (DKPRO + "metadata.type.DocumentMetaData", "uima.tcas.DocumentAnnotation",
     [("documentTitle", "uima.cas.String"), ("documentId", "uima.cas.String"),
      ("documentUri", "uima.cas.String"), ("collectionId", "uima.cas.String"),
      ("documentBaseUri", "uima.cas.String"), ("isLastSegment", "uima.cas.Boolean")]),
    (DKPRO + "segmentation.type.Sentence", "uima.tcas.Annotation", [("id", "uima.cas.String")]),
    (DKPRO + "segmentation.type.Token", "uima.tcas.Annotation", [("id", "uima.cas.String")]),
    (DKPRO + "coref.type.CoreferenceLink", "uima.tcas.Annotation",
     [("next", DKPRO + "coref.type.CoreferenceLink"), ("referenceType", "uima.cas.String"),
      ("referenceRelation", "uima.cas.String")]),
    (DKPRO + "coref.type.CoreferenceChain", "uima.cas.AnnotationBase",
     [("first", DKPRO + "coref.type.CoreferenceLink")]),
]


def typesystem() -> bytes:
    ns = "http://uima.apache.org/resourceSpecifier"
    root = etree.Element(f"{{{ns}}}typeSystemDescription", nsmap={None: ns})
    types = etree.SubElement(root, f"{{{ns}}}types")
    for name, sup, feats in TYPES:
        td = etree.SubElement(types, f"{{{ns}}}typeDescription")
        etree.SubElement(td, f"{{{ns}}}name").text = name
        etree.SubElement(td, f"{{{ns}}}description").text = ""
        etree.SubElement(td, f"{{{ns}}}supertypeName").text = sup
        fs = etree.SubElement(td, f"{{{ns}}}features")
        for fname, rng in feats:
            fd = etree.SubElement(fs, f"{{{ns}}}featureDescription")
            etree.SubElement(fd, f"{{{ns}}}name").text = fname
            etree.SubElement(fd, f"{{{ns}}}description").text = ""
            etree.SubElement(fd, f"{{{ns}}}rangeTypeName").text = rng
    etree.indent(root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


class Cas:
    """One CAS written as XMI, as INCEpTION exports it: the NULL element, the _InitialView
    sofa over ``text``, then an element per :meth:`node` (xmi:ids in the order made), and
    the view listing its members (:meth:`xmi`). ``ns``: the namespaces, by prefix."""

    def __init__(self, text: str, ns: dict[str, str] = NS) -> None:
        self.ns = ns
        self.root = etree.Element(f"{{{ns['xmi']}}}XMI", nsmap=ns)
        self.root.set(f"{{{ns['xmi']}}}version", "2.0")
        self.elements: dict[str, etree._Element] = {}
        etree.SubElement(self.root, f"{{{ns['cas']}}}NULL").set(f"{{{ns['xmi']}}}id", "0")
        self.sofa = self.node("cas", "Sofa", sofaNum=1, sofaID="_InitialView", mimeType="text",
                              sofaString=text)

    def node(self, prefix: str, tag: str, **attrs) -> str:
        """A new element ``prefix:tag`` with ``attrs``, after the others; its xmi:id."""
        xid = str(len(self.elements) + 1)
        el = self.elements[xid] = etree.SubElement(self.root, f"{{{self.ns[prefix]}}}{tag}")
        el.set(f"{{{self.ns['xmi']}}}id", xid)
        for k, v in attrs.items():
            el.set(k, str(v))
        return xid

    def xmi(self, members: list[str], indent: bool = True) -> bytes:
        """The document, its view listing ``members``."""
        view = etree.SubElement(self.root, f"{{{self.ns['cas']}}}View")
        view.set("sofa", self.sofa)
        view.set("members", " ".join(members))
        if indent:
            etree.indent(self.root)
        return etree.tostring(self.root, xml_declaration=True, encoding="UTF-8")


def xmi(doc: Doc, chains: Chains) -> bytes:
    """One user's CAS: shared sofa, sentences and tokens plus this user's chains (UTF-16
    offsets; a discontinuous mention becomes its covering span, INCEpTION has no gaps)."""
    text, offs, sents = layout(doc)
    cas = Cas(text)
    node, sofa = cas.node, cas.sofa
    members = [node("type2", "DocumentMetaData", sofa=sofa, begin=0, end=utf16(text, len(text)),
                    language="en", documentTitle=f"{doc.name}.txt", documentId=f"{doc.name}.txt",
                    isLastSegment="false")]
    members += [node("type4", "Sentence", sofa=sofa, begin=utf16(text, b), end=utf16(text, e))
                for b, e in sents]
    members += [node("type4", "Token", sofa=sofa, begin=utf16(text, b), end=utf16(text, e))
                for b, e in offs]
    for etype, ms in chains.chains:
        links = []
        for frags, _ in ms:
            s, e = hull(frags)
            links.append(node("type5", "CoreferenceLink", sofa=sofa,
                              begin=utf16(text, offs[s][0]), end=utf16(text, offs[e - 1][1]),
                              referenceType=etype))
        for el_id, nxt in zip(links, links[1:], strict=False):
            cas.elements[el_id].set("referenceRelation", "coreferential")
            cas.elements[el_id].set("next", nxt)
        members += links
        members.append(node("type5", "CoreferenceChain", sofa=sofa, first=links[0]))
    return cas.xmi(members)


def write_xmi(docs: dict[str, Doc], ann: dict[str, dict[str, Chains]]) -> None:
    """INCEpTION project-export layout: ``source/<doc>.txt`` and, per document,
    ``annotation/<doc>.txt/<user>.xmi`` next to its ``TypeSystem.xml``."""
    for name, doc in docs.items():
        write(HERE / "xmi" / "source" / f"{name}.txt", layout(doc)[0])
        folder = HERE / "xmi" / "annotation" / f"{name}.txt"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "TypeSystem.xml").write_bytes(typesystem())
        for a in ANNOTATORS:
            (folder / f"{a}.xmi").write_bytes(xmi(doc, ann[a][name]))


def main() -> None:
    docs, ann = corpus()
    for sub in ("conll2012", "corefud", "brat", "mmax2", "xmi"):
        shutil.rmtree(HERE / sub, ignore_errors=True)
    write_conll(docs, ann)
    write_corefud(docs, ann)
    write_brat(docs, ann)
    write_mmax2(docs, ann)
    write_xmi(docs, ann)


if __name__ == "__main__":
    main()
