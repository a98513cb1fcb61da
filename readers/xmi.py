"""INCEpTION / WebAnno UIMA CAS XMI reader (Apache UIMA CAS XMI), loaded with dkpro-cassis.

No ``TypeSystem.xml`` is needed: the type system is synthesised from the XMI itself.
Every element type becomes a type (``uima.tcas.Annotation`` with begin/end,
``uima.cas.AnnotationBase`` with a sofa, ``uima.cas.TOP`` otherwise); ``first``/``next`` of
chain layers are references, every other feature a string (a string array when written as
child elements), so unknown layers and features never fail to load. cassis converts the
UTF-16 offsets to code points.

Coreference layers are the chain types present (``...coref.type.CoreferenceChain`` and custom
``webanno.custom.<Name>Chain``), with their ``<Name>Link`` types; ``layers=`` restricts them.
A chain is the linked list ``first -> next -> ...``: each link is a mention (id = its
``xmi:id``; ``attrs``: ``layer``, ``referenceType``, ``text``, ``char_offsets``), each arc a
``Link(source=<next>, target=<link>, type=<layer>, attrs={"relation": referenceRelation})``.
One-link chains are singletons; links reachable from no chain become singleton chains with
``attrs["orphan"] = True``; a link in two chains is kept in both (see ``check_chains``).

Tokens and sentences come from the CAS (DKPro ``Token``/``Sentence``), else from blank spaCy.
Comments and processing instructions in the XMI are skipped. A zip member is inflated up to
:data:`INFLATE_RATIO` times the zip's size (plus :data:`INFLATE_SLACK` bytes), so a zip bomb is
refused instead of filling the memory.

Annotator: ``annotators`` > ``CASMetadata.username`` > INCEpTION layout
(``annotation/<doc>/<user>.xmi``, or ``<user>.xmi`` inside ``annotation/<doc>/*.zip``) > the
directory name; users ``CURATION_USER`` and ``INITIAL_CAS`` are skipped unless named. Document
id: ``DocumentMetaData.documentTitle`` > ``documentId`` > the layout.
"""

from __future__ import annotations

import warnings
import zipfile
import zlib
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from os import PathLike
from pathlib import Path

from cassis import TypeSystem, load_cas_from_xmi
from lxml import etree

from ..model.chains import check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Document, Link, Mention
from ..model.errors import InputError
from . import Option, _paths, register
from ._xml import local, parse, parse_bytes
from .brat import Tokens, token_fragments, tokenize, utf16_to_codepoints

XMI_NS = "http://www.omg.org/XMI"
CAS_NS = "http:///uima/cas.ecore"
XMI_ID = f"{{{XMI_NS}}}id"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
METADATA = "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData"
CAS_METADATA = "de.tudarmstadt.ukp.clarin.webanno.api.type.CASMetadata"
NOT_ANNOTATORS = frozenset({"CURATION_USER", "INITIAL_CAS"})
#: how much larger than its zip an XMI member may inflate (XMI compresses 10-30 fold)
INFLATE_RATIO, INFLATE_SLACK = 200, 64 << 20


def sniff(path: str | PathLike) -> bool:
    """An ``.xmi`` file, a zip holding one, or a directory with either below it."""
    return _paths.has_files(path, _is_xmi)


def _is_xmi(p: Path) -> bool:
    if not p.is_file():
        return False
    if p.suffix == ".xmi":
        return True
    if p.suffix != ".zip" or not zipfile.is_zipfile(p):
        return False
    try:
        with zipfile.ZipFile(p) as z:
            return any(n.endswith(".xmi") for n in z.namelist())
    except (zipfile.BadZipFile, OSError):
        return False


@register("coref", "xmi", sniff=sniff,
          summary="UIMA CAS XMI (INCEpTION, WebAnno, DKPro) .xmi files or zips of them, chain "
          "layers: files or folders",
          options=(Option("layers", "XMI: chain layer(s) to read, e.g. CoreferenceChain "
                          "(default: all)", multiple=True, metavar="LAYER"),))
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         layers: Sequence[str] | None = None) -> list[CorefAnnotation]:
    """Read XMI exports; see the module docstring.

    ``paths``: ``.xmi`` files, zips, or directories searched recursively for both.
    ``annotators``: one id per path (applies to every file under it). ``layers``: chain
    layers to read, by type name, local name or short name (``CoreferenceChain``,
    ``Coreference``); default all.
    """
    out: list[CorefAnnotation] = []
    seen: dict[tuple[str, str], str] = {}
    for src in _sources(paths, annotators):
        ann = _read_source(src, None if layers is None else set(layers))
        if ann is None:
            continue
        key = (ann.annotator, ann.document.id)
        if key in seen:
            raise InputError(f"annotator {key[0]!r} has document {key[1]!r} twice (also in "
                             f"{seen[key]})", src.name)
        seen[key] = src.name
        out.append(ann)
    check_same_tokens(out)
    return out


@dataclass
class _Source:
    name: str  # shown in messages: a path, or "<zip>!/<member>"
    data: bytes | None  # None: read the file ``name``
    given: str | None
    annotator: str  # from the layout
    document: str
    declared: frozenset[str]  # chain types a TypeSystem.xml beside the XMI declares


def _sources(paths: Sequence[str | PathLike],
             annotators: Sequence[str] | None) -> Iterator[_Source]:
    for given, files, _ in _paths.annotator_sources(
            paths, annotators, _is_xmi, layout="each",
            empty="no .xmi files (or zips holding them) below",
            reject="not an XMI file or a zip holding one"):
        for f in files:
            if f.suffix == ".xmi":
                ts = f.parent / "TypeSystem.xml"
                declared = _declared(parse(ts).getroot()) if ts.is_file() else frozenset()
                yield _Source(str(f), None, given, *_paths.inception_names(f), declared)
                continue
            try:
                z = zipfile.ZipFile(f)
            except (zipfile.BadZipFile, OSError) as e:
                raise InputError(f"not a readable zip file: {e}", f) from None
            with z:
                names = z.namelist()
                ts_name = next((n for n in names if Path(n).name == "TypeSystem.xml"), None)
                declared = (_declared(parse_bytes(_inflate(z, f, ts_name), f"{f}!/{ts_name}"))
                            if ts_name else frozenset())
                for n in sorted(n for n in names if n.endswith(".xmi")):
                    yield _Source(f"{f}!/{n}", _inflate(z, f, n), given,
                                  *_paths.inception_names(f, Path(n).stem), declared)


def _inflate(z: zipfile.ZipFile, path: Path, name: str) -> bytes:
    """A zip member's bytes, refusing a member that inflates beyond ``INFLATE_RATIO`` times
    the zip's size (plus ``INFLATE_SLACK``): the sizes in a zip's headers may lie."""
    limit = INFLATE_RATIO * path.stat().st_size + INFLATE_SLACK
    try:
        with z.open(name) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as e:
        raise InputError(f"cannot inflate {name}: {e}", path) from None
    if len(data) > limit:
        raise InputError(f"{name} inflates to more than {limit} bytes, {INFLATE_RATIO} times "
                         "the zip file and more: refused as a zip bomb", path)
    return data


def _declared(root: etree._Element) -> frozenset[str]:
    """Chain type names declared in a UIMA type system description."""
    names = (el.text or "" for el in root.iter() if local(el.tag) == "name"
             and local(el.getparent().tag) == "typeDescription")
    return frozenset(n.strip() for n in names if n.strip().endswith("Chain"))


def _type_name(tag: str) -> str:
    """UIMA type name of an XMI element, as cassis derives it."""
    q = etree.QName(tag)
    package = (q.namespace or "").removeprefix("http:///").removesuffix(".ecore")
    name = f"{package.replace('/', '.')}.{q.localname}"
    return name.removeprefix("uima.noNamespace.")


@dataclass
class _Layer:
    chain: str  # chain type name
    link: str
    short: str  # "Coreference" for CoreferenceChain


def _layers(kinds: dict[str, list[etree._Element]], declared: frozenset[str],
            wanted: set[str] | None) -> list[_Layer]:
    out = []
    for name in sorted(set(kinds) | declared):
        if not name.endswith("Chain") or (name in kinds and "begin" in kinds[name][0].attrib):
            continue
        short = name.rsplit(".", 1)[-1].removesuffix("Chain")
        if wanted is None or wanted & {name, short + "Chain", short}:
            out.append(_Layer(name, name.removesuffix("Chain") + "Link", short))
    return out


def _typesystem(kinds: dict[str, list[etree._Element]], layers: list[_Layer]) -> TypeSystem:
    """A permissive type system for the element types of one XMI."""
    ts = TypeSystem()
    refs = {(lay.chain, "first") for lay in layers} | {(lay.link, "next") for lay in layers}
    for name, elements in kinds.items():
        if ts.contains_type(name):
            continue
        attrib = {k for el in elements for k in el.attrib if not k.startswith("{")}
        children = {local(c.tag) for el in elements for c in el if local(c.tag)}
        supertype = ("uima.tcas.Annotation" if attrib & {"begin", "end"}
                     else "uima.cas.AnnotationBase" if "sofa" in attrib else "uima.cas.TOP")
        t = ts.create_type(name, supertype)
        for feature in sorted(attrib - {"begin", "end", "sofa"} - children):
            ts.create_feature(t, feature,
                              "uima.cas.TOP" if (name, feature) in refs else "uima.cas.String")
        for feature in sorted(children):
            ts.create_feature(t, feature, "uima.cas.StringArray")
    return ts


def _read_source(src: _Source, wanted: set[str] | None) -> CorefAnnotation | None:
    root = parse(src.name).getroot() if src.data is None else parse_bytes(src.data, src.name)
    kinds: dict[str, list[etree._Element]] = {}
    lines: dict[str, int | None] = {}
    sofa = None
    for el in root.iterchildren(etree.Element):  # no comments, processing instructions
        xid = el.get(XMI_ID)
        if xid in lines:
            raise InputError(f"duplicate xmi:id {xid} (first on line {lines[xid]})", src.name,
                             el.sourceline)
        if xid is not None:
            lines[xid] = el.sourceline
        q = etree.QName(el)
        if q.namespace == CAS_NS and q.localname == "Sofa":
            if el.get("sofaID") == "_InitialView":
                sofa = el
        elif q.namespace not in (XMI_NS, CAS_NS):
            kinds.setdefault(_type_name(el.tag), []).append(el)
    if sofa is None:
        raise InputError("no _InitialView sofa", src.name, root.sourceline)
    meta = (kinds.get(METADATA) or [None])[0]
    user = (kinds.get(CAS_METADATA) or [None])[0]
    annotator = src.given or (user is not None and user.get("username")) or src.annotator
    if src.given is None and annotator in NOT_ANNOTATORS:
        return None
    layers = _layers(kinds, src.declared, wanted)
    if not layers:
        what = "the requested layers" if wanted else "CoreferenceChain or a custom *Chain layer"
        raise InputError(f"no coreference layer: {what} is neither annotated nor declared in a "
                         "TypeSystem.xml beside the file (the CAS root element)", src.name,
                         root.sourceline)
    _check_references(kinds, layers, sofa.get(XMI_ID), src.name)
    cas = _load(src, kinds, layers)
    text = cas.sofa_string or ""
    tokens = _tokens(cas, text, kinds)
    mentions, chains, links = _chains(cas, layers, tokens, text, lines, src.name)
    doc_id = (meta is not None and (meta.get("documentTitle") or meta.get("documentId"))) \
        or src.document
    doc = Document(doc_id, tokens.words, tokens.sentence_starts, text=text, source=src.name)
    return CorefAnnotation(doc, annotator, mentions, chains, links, source=src.name)


def _check_references(kinds: dict[str, list[etree._Element]], layers: list[_Layer],
                      sofa: str | None, name: str) -> None:
    """``first``/``next`` must name links of the layer; chains must be on the initial view."""
    for lay in layers:
        links = {el.get(XMI_ID) for el in kinds.get(lay.link, [])}
        for type_name, feature in ((lay.chain, "first"), (lay.link, "next")):
            for el in kinds.get(type_name, []):
                ref = el.get(feature)
                short = type_name.rsplit(".", 1)[-1]
                if ref is not None and ref not in links:
                    raise InputError(f"{short} xmi:id={el.get(XMI_ID)}: {feature}={ref} is not a "
                                     f"{lay.link.rsplit('.', 1)[-1]}", name, el.sourceline)
                if el.get("sofa") != sofa:
                    raise InputError(f"{short} xmi:id={el.get(XMI_ID)} is not on the "
                                     "_InitialView; other views are not supported",
                                     name, el.sourceline)


def _load(src: _Source, kinds: dict[str, list[etree._Element]], layers: list[_Layer]):
    data = src.data if src.data is not None else Path(src.name).read_bytes()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cassis renames features called 'type'/'self'
            return load_cas_from_xmi(BytesIO(data), typesystem=_typesystem(kinds, layers))
    except Exception as e:  # any cassis failure here means a bad input file
        raise InputError(f"cassis cannot load the CAS: {type(e).__name__}: {e}",
                         src.name) from None


def _tokens(cas, text: str, kinds: dict[str, list]) -> Tokens:
    """Tokens and sentences of the CAS, or blank-spaCy ones when it has no indexed tokens."""
    toks = sorted(cas.select(TOKEN), key=lambda t: (t.begin, t.end)) if TOKEN in kinds else []
    if not toks:
        return tokenize(text)
    starts = [t.begin for t in toks]
    sents = sorted({bisect_left(starts, s.begin) for s in cas.select(SENTENCE)}
                   if SENTENCE in kinds else set())
    return Tokens([t.get_covered_text() for t in toks], starts, [t.end for t in toks],
                  [s for s in sents if s < len(toks)])


def _chains(cas, layers: list[_Layer], tokens: Tokens, text: str, lines: dict,
            name: str) -> tuple[dict[str, Mention], list[Chain], list[Link]]:
    mentions: dict[str, Mention] = {}
    chains: list[Chain] = []
    links: list[Link] = []
    table: dict[int, int] | None = None

    def mention(fs, lay: _Layer, indexed: set[int]) -> str:
        nonlocal table
        mid = str(fs.xmiID)
        if mid in mentions:
            return mid
        begin, end = fs.begin, fs.end
        if fs.xmiID not in indexed:  # cassis converts the offsets of indexed annotations only
            table = table or utf16_to_codepoints(text)
            begin, end = table.get(begin, -1), table.get(end, -1)
        frags = token_fragments(tokens, [(begin, end)]) if 0 <= begin <= end else None
        if frags is None:
            raise InputError(f"{lay.short}Link xmi:id={mid}: span {fs.begin}-{fs.end} covers "
                             "no token", name, lines.get(mid))
        mentions[mid] = Mention(mid, frags, attrs={
            "layer": lay.short, "referenceType": getattr(fs, "referenceType", None),
            "text": text[begin:end], "char_offsets": ((begin, end),)})
        return mid

    def select(type_name: str) -> list:
        if not cas.typesystem.contains_type(type_name):
            return []
        return sorted(cas.select(type_name), key=lambda fs: fs.xmiID)

    for lay in layers:
        indexed = {fs.xmiID for fs in select(lay.link)}
        for chain in select(lay.chain):
            members, fs, seen = [], chain.first, set()
            while fs is not None:
                if fs.xmiID in seen:
                    raise InputError(f"{lay.short}Chain xmi:id={chain.xmiID}: the next links "
                                     f"form a cycle at xmi:id={fs.xmiID}", name,
                                     lines.get(str(fs.xmiID)))
                seen.add(fs.xmiID)
                members.append(mention(fs, lay, indexed))
                nxt = getattr(fs, "next", None)
                if nxt is not None:
                    links.append(Link(str(nxt.xmiID), members[-1], lay.short,
                                      {"relation": getattr(fs, "referenceRelation", None)}))
                fs = nxt
            if members:
                chains.append(Chain(str(chain.xmiID), members))
        for fs in select(lay.link):
            if str(fs.xmiID) not in mentions:
                mid = mention(fs, lay, indexed)
                mentions[mid].attrs["orphan"] = True
                chains.append(Chain(f"orphan_{mid}", [mid]))
    order = sorted(mentions, key=lambda m: (mentions[m].fragments, int(m)))
    return {m: mentions[m] for m in order}, chains, links
