"""INCEpTION / WebAnno UIMA CAS XMI reader (Apache UIMA CAS XMI), loaded with dkpro-cassis.

No ``TypeSystem.xml`` is needed: the type system is synthesised from the XMI itself.
Every element type becomes a type (``uima.tcas.Annotation`` with begin/end,
``uima.cas.AnnotationBase`` with a sofa, ``uima.cas.TOP`` otherwise); ``first``/``next`` of
chain layers are references, every other feature a string (a string array when written as
child elements), so unknown layers and features never fail to load. cassis converts the
UTF-16 offsets to code points.

Coreference layers are the chain types present (``...coref.type.CoreferenceChain`` and custom
``webanno.custom.<Name>Chain``), with their ``<Name>Link`` types; ``layers=`` restricts them.
Span layers are the other annotation types (``begin``/``end``) but DKPro's segmentation and
metadata types and relation layers (``Governor``/``Dependent``): named in ``layers=`` (type
name or local name, ``NamedEntity``), or with ``spans=True`` the one span layer of a file
without a coreference layer, each annotation is a mention (id = its ``xmi:id``; ``attrs``:
``layer``, its features, e.g. ``value``, ``text``, ``char_offsets``) and a singleton chain.
A chain is the linked list ``first -> next -> ...``: each link is a mention (id = its
``xmi:id``; ``attrs``: ``layer``, ``referenceType``, ``text``, ``char_offsets``), each arc a
``Link(source=<next>, target=<link>, type=<layer>, attrs={"relation": referenceRelation})``.
One-link chains are singletons; links reachable from no chain become singleton chains with
``attrs["orphan"] = True``; a link in two chains is kept in both (see ``check_chains``).

Tokens and sentences come from the CAS (DKPro ``Token``/``Sentence``), else from blank spaCy.
Comments and processing instructions in the XMI are skipped. A zip member is inflated within
the bounds of :func:`corpusagree.readers._zips.inflate`, so a zip bomb is refused instead of
filling the memory.

Annotator: ``annotators`` > ``CASMetadata.username`` > INCEpTION layout
(``annotation/<doc>/<user>.xmi``, or ``<user>.xmi`` inside ``annotation/<doc>/*.zip``) > the
directory name; users ``CURATION_USER`` and ``INITIAL_CAS`` are skipped unless named. Document
id: ``DocumentMetaData.documentTitle`` > ``documentId`` > the layout.
"""

from __future__ import annotations

import warnings
import zipfile
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from io import BytesIO
from itertools import groupby
from operator import attrgetter, itemgetter, methodcaller
from os import PathLike
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, NoReturn

from lxml import etree

from ..model.chains import check_same_tokens
from ..model.corpus import Chain, CorefAnnotation, Link
from ..model.errors import InputError, Problems, clip, listing, quote
from ..model.io import read_bytes, regular
from ..model.relations import RelationAnnotation
from . import Option, _paths, _zips, register
from ._text import (
    DEFAULT_LANG,
    LANG,
    Spans,
    Tokens,
    Utf16Offsets,
    anchored,
    check_lang,
    tokenize,
    utf16_to_codepoints,
)
from ._xml import local, parse, parse_bytes
from ._zips import NOT_ANNOTATORS

if TYPE_CHECKING:  # dkpro-cassis is imported where a CAS is built (a job's --help needs none)
    from cassis import TypeSystem

XMI_NS = "http://www.omg.org/XMI"
CAS_NS = "http:///uima/cas.ecore"
XMI_ID = f"{{{XMI_NS}}}id"
SOFA_TAG = f"{{{CAS_NS}}}Sofa"
#: the tags of elements in these namespaces are XMI's and the CAS's own, no feature structure
NOT_TYPES = (f"{{{XMI_NS}}}", f"{{{CAS_NS}}}")
_KEYS_OF = methodcaller("keys")  # an element's attribute names
_ID_OF = methodcaller("get", XMI_ID)
_TAG_OF = attrgetter("tag")
_LINE_OF = attrgetter("sourceline")
#: the relations of an XMI: its elements with a Governor and a Dependent, in the file's order
_RELATIONS = etree.XPath("*[@Governor and @Dependent]")
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
METADATA = "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData"
CAS_METADATA = "de.tudarmstadt.ukp.clarin.webanno.api.type.CASMetadata"
#: packages of annotation types that are never span layers (tokens, sentences, metadata)
NOT_SPAN_LAYERS = ("uima.", "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.",
                   "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.")
#: the layers option of the XMI and WebAnno TSV readers
LAYERS = Option("layers", "XMI, WebAnno TSV: layer(s) to read: chain layers, e.g. "
                "CoreferenceChain (default: every coreference layer), or span layers, e.g. "
                "NamedEntity (spans reads the one span layer of files without a coreference "
                "layer)", multiple=True, metavar="LAYER", aliases=("--layer",))


def sniff(path: str | PathLike) -> bool:
    """An ``.xmi`` file, a zip holding one, or a directory with either below it."""
    return _paths.has_files(path, _is_xmi)


def _is_xmi(p: Path) -> bool:
    if not p.is_file():
        return False
    if p.suffix == ".xmi":
        return True
    return p.suffix == ".zip" and _zips.is_zip(p) and _zips.has_member(p, ".xmi")


@register("coref", "xmi", layout="each", sniff=sniff,
          summary="UIMA CAS XMI (INCEpTION, WebAnno, DKPro) .xmi files or zips of them, chain "
          "or span layers: files or folders", options=(LAYERS, LANG), span_layers=True)
def read(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None, *,
         layers: Sequence[str] | None = None, spans: bool = False,
         lang: str = DEFAULT_LANG) -> list[CorefAnnotation]:
    """Read XMI exports; see the module docstring.

    ``paths``: ``.xmi`` files, zips, or directories searched recursively for both.
    ``annotators``: one id per path (applies to every file under it). ``layers``: chain
    layers to read, by type name, local name or short name (``CoreferenceChain``,
    ``Coreference``), or span layers by type name or local name; default every chain layer.
    ``spans``: without a chain layer, read the one span layer. ``lang``: the language of
    spaCy's blank tokenizer, for a CAS without tokens.
    """
    check_lang(lang)
    problems = Problems()
    found: list[_Read] = []
    seen: dict[tuple[str, str], str] = {}
    choice = LayerChoice()
    wanted = None if layers is None else set(layers)
    with problems.collect():
        for src in _sources(paths, annotators):
            with problems.collect():
                one = _read_source(src, wanted, spans, choice, lang)
                if one is None:
                    continue
                key = (one.annotator, one.doc_id)
                if key in seen:
                    raise InputError(f"annotator {quote(key[0])} has document {quote(key[1])} "
                                     f"twice (also in {seen[key]})", src.name)
                seen[key] = src.name
                found.append(one)
    problems.check()
    choice.settle(len(found))
    out = _annotations(found, problems)
    problems.check()
    check_same_tokens(out)
    return out


@dataclass
class _Read:
    """One XMI read: its document, annotator, text, tokens (before they are cut at the
    mentions' boundaries), mentions as character spans, chains and links."""

    name: str
    annotator: str
    doc_id: str
    text: str
    tokens: Tokens
    mentions: Spans
    chains: list[Chain]
    links: list[Link]


def _annotations(found: list[_Read], problems: Problems) -> list[CorefAnnotation]:
    """The annotations of the XMIs read, in their order (:func:`._text.anchored`), without the
    ``kind`` of their mentions (kept until then for the messages)."""
    out = anchored(found, problems, _covers_nothing)
    for ann in out:
        for m in ann.mentions.values():
            m.attrs.pop("kind", None)
    return out


def _covers_nothing(r: _Read, k: int) -> InputError:
    spans = r.mentions.spans[k]
    return InputError(f"{r.mentions.attrs[k].get('kind', 'annotation')} "
                      f"xmi:id={clip(r.mentions.ids[k])}: span {spans[0][0]}-{spans[-1][1]} "
                      "covers no token", r.name, r.mentions.lines[k])


@dataclass
class LayerChoice:
    """The layers the files of one read chose (XMI, WebAnno TSV). ``missing``: files without
    the named layers; ``unmarked``: files without any layer when the spans job reads the one
    span layer; ``plain``: each span layer read that way, with its first file. An annotator
    who marked nothing leaves no annotation, and in XMI no trace of the layer."""

    missing: list[InputError] = field(default_factory=list)
    unmarked: list[InputError] = field(default_factory=list)
    plain: dict[str, str] = field(default_factory=dict)
    #: files without a layer to read (one problem of the read, however many files)
    none: list[InputError] = field(default_factory=list)
    #: WebAnno TSV: files with columns past the header's, all '_' (a warning of the read)
    surplus: list[str] = field(default_factory=list)

    def read_plain(self, layer: str, name: str) -> None:
        self.plain.setdefault(layer, name)

    def nothing(self, error: InputError) -> None:
        """A file has no layer to read: the read's error, said once (:meth:`settle`)."""
        self.none.append(error)

    def settle(self, files: int) -> None:
        """After every file: the named layers are in none of them, the files' one span layers
        differ, or files without any layer beside none that has one: one error; files without
        any layer beside files with one span layer: their annotators marked nothing there
        (a warning)."""
        if self.none:
            first = self.none[0]
            more = len(self.none) - 1
            raise InputError(first.message + (f" (so do {more} other file(s))" if more else ""),
                             first.path, first.line)
        if self.missing and len(self.missing) == files:
            raise self.missing[0]
        if len(self.plain) > 1:
            (first, where), (other, path) = list(self.plain.items())[:2]
            raise InputError(f"its only span layer is {other}, where {where}'s is {first}: "
                             "name the one to compare with layers=[NAME]", path)
        if self.unmarked and not self.plain:
            raise self.unmarked[0]
        if self.unmarked:
            (layer, first), = self.plain.items()
            warnings.warn(f"{len(self.unmarked)} file(s) without any annotation (first: "
                          f"{self.unmarked[0].path}) read as marking nothing in {layer}, the "
                          f"span layer of the others (first: {first})", stacklevel=3)


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
                declared = _declared(parse(ts).getroot()) if regular(ts) else frozenset()
                yield _Source(str(f), None, given, *_paths.inception_names(f), declared)
                continue
            # an export's layouts (annotation/<document>/<user>.xmi, <user>/<document>.xmi,
            # annotation/<document>/<user>.zip holding <document>.xmi): _zips.members
            try:
                ts = _zips.find(f, "TypeSystem.xml")
            except (zipfile.BadZipFile, OSError) as e:
                raise InputError(f"not a readable zip file: {e}", f) from None
            declared = _declared(parse_bytes(ts[1], ts[0])) if ts else frozenset()
            for m in _zips.members(f, ".xmi"):
                names = _paths.inception_names(f, PurePosixPath(m.name).stem) if m.root \
                    else (m.annotator, m.document)
                yield _Source(m.name, m.data, given, *names, declared)


def _declared(root: etree._Element) -> frozenset[str]:
    """Chain type names declared in a UIMA type system description."""
    names = (el.text or "" for el in root.iter() if local(el.tag) == "name"
             and local(el.getparent().tag) == "typeDescription")
    return frozenset(n.strip() for n in names if n.strip().endswith("Chain"))


@lru_cache(maxsize=1024)
def _type_name(tag: str) -> str:
    """UIMA type name of an XMI element, as cassis derives it.

    Cached because a file has a few dozen tags over as many elements as annotations and
    tokens, and deriving the name (a QName, three string edits) cost a tenth of a read."""
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


def _span_layers(kinds: dict[str, list[etree._Element]], chains: list[_Layer]) -> list[str]:
    """The span layers of one XMI (see the module docstring), by type name."""
    links = {lay.link for lay in chains}
    return [name for name, els in sorted(kinds.items())
            if "begin" in els[0].attrib and name not in links
            and not name.startswith(NOT_SPAN_LAYERS) and not name.endswith("Chain")
            and not {"Governor", "Dependent"} <= set(els[0].attrib)]


def _choose(kinds: dict[str, list[etree._Element]], declared: frozenset[str],
            wanted: set[str] | None, spans: bool, name: str, line: int | None,
            choice: LayerChoice) -> tuple[list[_Layer], list[str]]:
    """The chain layers and span layers to read (see :func:`read`); none is an error naming
    the layers found, but for named layers, which a file may lack (its annotator marked
    nothing there), and for the spans job's one span layer, which a file without any layer
    lacks: those errors go to ``choice``, which settles them after every file."""
    every = _layers(kinds, declared, None)
    found = _span_layers(kinds, every)
    chains = _layers(kinds, declared, wanted)
    if wanted is not None:
        plain = [n for n in found if wanted & {n, _short(n)}]
    else:
        plain = found if spans and not chains and len(found) == 1 else []
        for n in plain:
            choice.read_plain(_short(n), name)
    if chains or plain:
        return chains, plain
    listing = ", ".join([f"{lay.short} (chain)" for lay in every]
                        + [f"{_short(n)} (span)" for n in found]) or "none"
    if wanted is not None:
        choice.missing.append(InputError(f"no layer {', '.join(sorted(wanted))}; layers "
                                         f"found: {listing}", name, line))
        return [], []
    error = InputError(no_layer("no coreference layer: CoreferenceChain or a custom *Chain "
                                "layer is neither annotated nor declared in a TypeSystem.xml "
                                "beside the file", spans, [_short(n) for n in found]),
                       name, line)
    if spans and not every and not found:
        choice.unmarked.append(error)
    else:
        choice.nothing(error)
    return [], []


def no_layer(why: str, spans: bool, found: Sequence[str]) -> str:
    """The error of a file without the layers to read (XMI, WebAnno TSV): ``why`` it has no
    coreference layer, and the span layers ``found``, of which the spans job reads one."""
    if spans and found:
        return (f"no coreference layer and {len(found)} span layers ({listing(found)}): "
                "name one with layers=[NAME]")
    return why + (f"; span layers found: {listing(found)} (read one with layers=[NAME])"
                  if found else "")


def _short(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


def _typesystem(root: etree._Element, kinds: dict[str, list[etree._Element]],
                layers: list[_Layer]) -> TypeSystem:
    """A permissive type system for the element types of one XMI (``root``).

    A type's features are the attribute names of all its elements, gathered by lxml's
    ``keys`` mapped over them and joined in one set without a Python loop per element
    (a file has as many elements as tokens and annotations), then the few names filtered."""
    refs = {(lay.chain, "first") for lay in layers} | {(lay.link, "next") for lay in layers}
    arrays = _children(root)
    types = []
    for name, elements in kinds.items():
        keys = set().union(*map(_KEYS_OF, elements))
        attrib = {k for k in keys if not k.startswith("{")}
        children = arrays.get(name, set())
        supertype = ("uima.tcas.Annotation" if attrib & {"begin", "end"}
                     else "uima.cas.AnnotationBase" if "sofa" in attrib else "uima.cas.TOP")
        features = tuple(
            [(f, "uima.cas.TOP" if (name, f) in refs else "uima.cas.String")
             for f in sorted(attrib - {"begin", "end", "sofa"} - children)]
            + [(f, "uima.cas.StringArray") for f in sorted(children)])
        types.append((name, supertype, features))
    return _built_typesystem(tuple(types))


def _children(root: etree._Element) -> dict[str, set[str]]:
    """The local names of the child elements (string arrays) of each type's elements.

    Found by one path search for the elements two levels down, few or none in most files,
    instead of iterating over the children of every element."""
    out: dict[str, set[str]] = {}
    for child in root.iterfind("*/*"):  # elements only, as the type's elements are
        tag = child.getparent().tag
        if not tag.startswith(NOT_TYPES):
            out.setdefault(_type_name(tag), set()).add(local(child.tag))
    return out


@lru_cache(maxsize=64)
def _built_typesystem(types: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]
                      ) -> TypeSystem:
    """The type system of ``(type name, supertype, ((feature, range), ...))`` entries.

    Cached because files of one project share their types, and building a cassis type system
    (and the classes of its feature structures, made when a type is first instantiated) costs
    more than loading a small CAS; loading a CAS only reads its type system."""
    from cassis import TypeSystem

    ts = TypeSystem()
    for name, supertype, features in types:
        if ts.contains_type(name):  # a predefined UIMA type
            continue
        t = ts.create_type(name, supertype)
        for feature, range_type in features:
            ts.create_feature(t, feature, range_type)
    return ts


def _parse(src: _Source) -> etree._Element:
    """The XML of a file or zip member."""
    return parse(src.name).getroot() if src.data is None else parse_bytes(src.data, src.name)


@dataclass
class _Top:
    """The top-level elements of one XMI (no comments, processing instructions), with their
    xmi:ids and tags.

    Each list is one lxml accessor mapped over every element, without a Python loop per
    element: a file has as many elements as tokens and annotations."""

    elements: list[etree._Element]
    ids: list[str | None]
    tags: list[str]  # "{namespace}local", compared as text: a QName per element cost more

    @classmethod
    def of(cls, root: etree._Element) -> _Top:
        elements = list(root.iterchildren(etree.Element))
        return cls(elements, list(map(_ID_OF, elements)), list(map(_TAG_OF, elements)))


def _lines(top: _Top, name: str) -> dict[str, int | None]:
    """The line of each xmi:id; a duplicate xmi:id is an error (:func:`_duplicate`)."""
    lines = dict(zip(top.ids, map(_LINE_OF, top.elements), strict=True))
    lines.pop(None, None)
    if len(lines) + top.ids.count(None) < len(top.ids):
        _duplicate(top, name)
    return lines


def _duplicate(top: _Top, name: str) -> NoReturn:
    """The error of the first element whose xmi:id an element before it has."""
    first: dict[str, int | None] = {}
    for xid, el in zip(top.ids, top.elements, strict=True):
        if xid in first:
            raise InputError(f"duplicate xmi:id {xid} (first on line {first[xid]})", name,
                             el.sourceline)
        if xid is not None:
            first[xid] = el.sourceline
    raise AssertionError("no duplicate xmi:id")


def _kinds(top: _Top) -> tuple[dict[str, list[etree._Element]], etree._Element | None]:
    """The feature structures of one XMI by type name, each type's in the order of the file,
    and its (last) _InitialView sofa; elements of XMI's and the CAS's own are none of them.

    Taken a run of one tag at a time (a file lists the elements of one type together)."""
    kinds: dict[str, list[etree._Element]] = {}
    sofa = None
    for tag, run in groupby(zip(top.tags, top.elements, strict=True), itemgetter(0)):
        if tag == SOFA_TAG:
            for _, el in run:
                if el.get("sofaID") == "_InitialView":
                    sofa = el
        elif not tag.startswith(NOT_TYPES):
            kinds.setdefault(_type_name(tag), []).extend(map(itemgetter(1), run))
    return kinds, sofa


def _read_source(src: _Source, wanted: set[str] | None, spans: bool, choice: LayerChoice,
                 lang: str, root: etree._Element | None = None, top: _Top | None = None
                 ) -> _Read | None:
    """One file's annotation (``root``, ``top``: its XML and its top-level elements, when the
    caller has them already)."""
    if root is None:
        root = _parse(src)
    top = top or _Top.of(root)
    lines = _lines(top, src.name)
    kinds, sofa = _kinds(top)
    if sofa is None:
        raise InputError("no _InitialView sofa", src.name, root.sourceline)
    meta = (kinds.get(METADATA) or [None])[0]
    user = (kinds.get(CAS_METADATA) or [None])[0]
    annotator = src.given or (user is not None and user.get("username")) or src.annotator
    if src.given is None and annotator in NOT_ANNOTATORS:
        return None
    layers, plain = _choose(kinds, src.declared, wanted, spans, src.name, root.sourceline,
                            choice)
    _check_references(kinds, layers, sofa.get(XMI_ID), src.name)
    cas = _load(src, root, kinds, layers)
    text = cas.sofa_string or ""
    at = _Positions(text, lines, src.name)
    mentions, chains, links = _chains(cas, layers, at)
    for type_name in plain:
        for el in kinds[type_name]:
            m = _span(el, _short(type_name), sofa.get(XMI_ID), at)
            mentions[m[0]] = m
            chains.append(Chain(f"{m[2]['layer']}:{m[0]}", [m[0]]))
    spans = Spans()
    for mid, frags, attrs in sorted(mentions.values(), key=lambda m: (m[1], int(m[0]))):
        spans.add(mid, frags, attrs, lines.get(mid))
    doc_id = (meta is not None and (meta.get("documentTitle") or meta.get("documentId"))) \
        or src.document
    return _Read(src.name, annotator, doc_id, text, _tokens(cas, text, kinds, lang, at), spans,
                 chains, links)


def _span(el: etree._Element, layer: str, sofa: str | None, at: _Positions) -> _CharMention:
    """The mention of one annotation of a span layer, its features (XML attributes) in its
    attrs."""
    mid = el.get(XMI_ID)
    if mid is None or not mid.isdigit():
        raise InputError(f"{layer} without a numeric xmi:id", at.name, el.sourceline)
    if el.get("sofa") != sofa:
        raise InputError(f"{layer} xmi:id={mid} is not on the _InitialView; other views are "
                         "not supported", at.name, el.sourceline)
    try:
        begin, end = int(el.get("begin", "")), int(el.get("end", ""))
    except ValueError:
        raise InputError(f"{layer} xmi:id={mid}: begin and end must be integers", at.name,
                         el.sourceline) from None
    features = {k: v for k, v in el.attrib.items()
                if not k.startswith("{") and k not in ("begin", "end", "sofa")}
    return at.mention(mid, layer, layer, begin, end, False, features)


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


def _load(src: _Source, root: etree._Element, kinds: dict[str, list[etree._Element]],
          layers: list[_Layer]):
    from cassis import load_cas_from_xmi

    data = src.data if src.data is not None else read_bytes(src.name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cassis renames features called 'type'/'self'
            return load_cas_from_xmi(BytesIO(data), typesystem=_typesystem(root, kinds, layers))
    except Exception as e:  # any cassis failure here means a bad input file
        raise InputError(f"cassis cannot load the CAS: {type(e).__name__}: {e}",
                         src.name) from None


def _tokens(cas, text: str, kinds: dict[str, list], lang: str, at: _Positions) -> Tokens:
    """Tokens and sentences of the CAS, or blank-spaCy ones when it has no indexed tokens.

    A token must lie in the text, its end not before its begin: a damaged offset (one past
    the text, or too large for any text) is an error naming the token and its line."""
    toks = sorted(cas.select(TOKEN), key=lambda t: (t.begin, t.end)) if TOKEN in kinds else []
    if not toks:
        return tokenize(text, lang)
    bad = [t for t in toks if not 0 <= t.begin <= t.end <= len(text)]
    if bad:
        first = str(min(t.xmiID for t in bad))
        el = next(el for el in kinds[TOKEN] if el.get(XMI_ID) == first)
        raise InputError(f"Token xmi:id={first}: span {clip(el.get('begin', ''))}-"
                         f"{clip(el.get('end', ''))} is not within the text"
                         + (f" ({len(bad) - 1} other token(s) too)" if len(bad) > 1 else ""),
                         at.name, el.sourceline)
    starts = [t.begin for t in toks]
    sents = sorted({bisect_left(starts, s.begin) for s in cas.select(SENTENCE)}
                   if SENTENCE in kinds else set())
    return Tokens([t.get_covered_text() for t in toks], starts, [t.end for t in toks],
                  [s for s in sents if s < len(toks)])


#: a mention before it meets the tokens: (id, character fragments, attrs)
_CharMention = tuple[str, tuple[tuple[int, int], ...], dict]


@dataclass
class _Positions:
    """Mentions at the offsets of one CAS: its text (code points), element lines."""

    text: str
    lines: dict[str, int | None]
    name: str
    table: Utf16Offsets | None = None

    def mention(self, mid: str, kind: str, layer: str, begin: int, end: int, converted: bool,
                features: dict) -> _CharMention:
        """The mention of annotation ``mid`` of type ``kind`` (a local name) at UTF-16
        offsets ``begin``-``end`` (already code points where ``converted``), its attrs
        ``layer``, ``features``, ``text`` (``char_offsets`` are added when it meets the
        tokens)."""
        b, e = begin, end
        if not converted:
            self.table = self.table or utf16_to_codepoints(self.text)
            b, e = self.table.get(begin, -1), self.table.get(end, -1)
        if not 0 <= b < e:
            raise InputError(f"{kind} xmi:id={clip(mid)}: span {begin}-{end} covers no token",
                             self.name, self.lines.get(mid))
        return mid, ((b, e),), {"layer": layer, **features, "text": self.text[b:e],
                                "kind": kind}


def _chains(cas, layers: list[_Layer], at: _Positions
            ) -> tuple[dict[str, _CharMention], list[Chain], list[Link]]:
    mentions: dict[str, _CharMention] = {}
    chains: list[Chain] = []
    links: list[Link] = []

    def mention(fs, lay: _Layer, indexed: set[int]) -> str:
        mid = str(fs.xmiID)
        if mid not in mentions:  # cassis converts the offsets of indexed annotations only
            mentions[mid] = at.mention(mid, f"{lay.short}Link", lay.short, fs.begin, fs.end,
                                       fs.xmiID in indexed,
                                       {"referenceType": getattr(fs, "referenceType", None)})
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
                                     f"form a cycle at xmi:id={fs.xmiID}", at.name,
                                     at.lines.get(str(fs.xmiID)))
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
                mentions[mid][2]["orphan"] = True
                chains.append(Chain(f"orphan_{mid}", [mid]))
    return mentions, chains, links


# ---- relation layers (the relations job) --------------------------------------------------------
#: attributes of a relation annotation that are no label
_STRUCTURAL = {"begin", "end", "sofa", "Governor", "Dependent", "flavor"}


@register("relations", "xmi", sniff=sniff,
          summary="UIMA CAS XMI (INCEpTION, WebAnno) relation layers (Governor, Dependent) over "
          "span layers: files or folders", options=(LAYERS,), layout="each")
def read_relations(paths: Sequence[str | PathLike], annotators: Sequence[str] | None = None,
                   *, layers: Sequence[str] | None = None) -> list[RelationAnnotation]:
    """Relations of the relation layers (annotations with ``Governor`` and ``Dependent``
    features) between the spans they point to, read as the span layers of :func:`read`: the
    source is the governor, the label the relation's first other feature (the layer's name
    when it has none; ``attrs["layer"]`` names it). ``layers``: the relation layers to read
    (type name or local name; default all). Files, folders and annotators as :func:`read`."""
    wanted = None if layers is None else set(layers)
    reads: list[_Read] = []
    relations: list[list[Link]] = []
    seen: dict[tuple[str, str], str] = {}
    for src in _sources(paths, annotators):
        root = _parse(src)
        found: list[tuple[str, etree._Element]] = []
        for el in _RELATIONS(root):
            name = _type_name(el.tag)
            if wanted is None or wanted & {name, _short(name)}:
                found.append((name, el))
        if not found:
            continue
        top = _Top.of(root)
        tags = dict(zip(top.ids, top.tags, strict=True))  # of every element with an xmi:id
        for _, el in found:
            for end in (el.get("Governor"), el.get("Dependent")):
                if end not in tags:
                    raise InputError(f"{_short(_type_name(el.tag))} xmi:id={el.get(XMI_ID)}: "
                                     f"no annotation xmi:id={end}", src.name, el.sourceline)
        spans = {_short(_type_name(tags[el.get(e)])) for _, el in found
                 for e in ("Governor", "Dependent")}
        one = _read_source(src, spans, False, LayerChoice(), DEFAULT_LANG, root, top)
        if one is None:
            continue
        rels = []
        for name, el in found:
            label = next((v for k, v in el.attrib.items()
                          if not k.startswith("{") and k not in _STRUCTURAL), None)
            rels.append(Link(el.get("Governor"), el.get("Dependent"), label or _short(name),
                             {"layer": _short(name), "id": el.get(XMI_ID),
                              "line": el.sourceline}))
        key = (one.annotator, one.doc_id)
        if key in seen:
            raise InputError(f"annotator {quote(key[0])} has document {quote(key[1])} twice "
                             f"(also in {seen[key]})", src.name)
        seen[key] = src.name
        reads.append(one)
        relations.append(rels)
    problems = Problems()
    out = [RelationAnnotation(ann.document, ann.annotator, ann.mentions, rels, ann.source)
           for ann, rels in zip(_annotations(reads, problems), relations, strict=True)]
    problems.check()
    if not out:
        what = f"relation layer {', '.join(sorted(wanted))}" if wanted else \
            "relation layer (annotations with Governor and Dependent)"
        raise InputError(f"no {what} in these files", _paths.as_list(paths)[0])
    check_same_tokens(out)
    return out


__all__ = ["CAS_METADATA", "CAS_NS", "LAYERS", "METADATA", "NOT_SPAN_LAYERS", "NOT_TYPES",
           "SENTENCE", "SOFA_TAG", "TOKEN", "XMI_ID", "XMI_NS", "LayerChoice", "no_layer", "read",
           "read_relations", "sniff"]
