"""Raganato et al. (2017) unified WSD XML (``*.data.xml``) with one key file per annotator.

Key lines are ``instance_id sense [sense ...]``; several senses make one set-valued tag.
Item = instance id, lemma = the instance's ``lemma`` attribute, part of speech = its ``pos``
(Universal POS tags; NOUN, VERB, ADJ, ADV as WordNet's n, v, a, r, so that items grouped by
lemma keep it: ``english.n`` and ``english.a`` are two lemmas), document = its ``<text id>``;
``source``/``line`` point at the key file line.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from ..model.corpus import SenseTag
from ..model.errors import InputError, Problems
from . import _paths, register
from ._sensefiles import (
    Instance,
    annotator_names,
    data_and_keys,
    instance_id,
    key_tags,
    read_key_file,
)
from ._xml import local, parse


def instances(data_xml: str | PathLike) -> dict[str, Instance]:
    """Instance id -> its lemma, text id and sentence (the words before it, its word, the words
    after it) of a Raganato data file."""
    root = parse(data_xml).getroot()
    if local(root.tag) != "corpus":
        raise InputError(f"expected a <corpus> root, found <{local(root.tag)}>", data_xml,
                         root.sourceline)
    texts = [el for el in root if local(el.tag) == "text"]
    if not texts:
        raise InputError("no <text> in <corpus>: not a Raganato data file", data_xml,
                         root.sourceline)
    out: dict[str, Instance] = {}
    for text in texts:
        for sentence in text.iter():
            if local(sentence.tag) != "sentence":
                continue
            words = [el for el in sentence if local(el.tag) in ("wf", "instance")]
            forms = [(el.text or "").strip() for el in words]
            for j, el in enumerate(words):
                if local(el.tag) != "instance":
                    continue
                out[instance_id(el, out, data_xml)] = Instance(el.get("lemma"), text.get("id"), (
                    " ".join(forms[:j]), forms[j], " ".join(forms[j + 1:])),
                    wordnet_pos(el.get("pos")))
    return out


#: Universal POS tags of the content words as WordNet's letters
WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


def wordnet_pos(tag: str | None) -> str | None:
    """WordNet's letter of a Universal POS tag (NOUN -> n, VERB -> v, ADJ -> a, ADV -> r),
    any other tag lowercased, None for none.

    >>> wordnet_pos("ADJ"), wordnet_pos("PROPN"), wordnet_pos(None)
    ('a', 'propn', None)
    """
    if not tag:
        return None
    return WORDNET_POS.get(tag, tag.lower())


def read(data_xml: str | PathLike, key_files: str | PathLike | Sequence[str | PathLike],
         annotators: Sequence[str] | None = None) -> list[SenseTag]:
    """One SenseTag per annotator and keyed instance.

    Annotators are named by ``annotators`` (one per key file) or by the key file names
    (``A.key.txt`` -> ``A``; the parent folder names when those clash).
    """
    paths = _paths.as_list(key_files)
    names = annotator_names(paths, annotators)
    known = instances(data_xml)
    tags: list[SenseTag] = []
    problems = Problems()
    for path, name in zip(paths, names, strict=True):
        with problems.collect():
            tags += key_tags(path, name, read_key_file(path, known, problems=problems), known)
    problems.check()
    return tags


def sniff(path: str | PathLike) -> bool:
    """True for an XML file whose head has a ``<corpus>`` with ``<sentence>`` elements."""
    try:
        with Path(path).open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b"<corpus" in head and b"<sentence" in head


@register("senses", "raganato", layout="paired", sniff=sniff,
          summary="Raganato et al. (2017) unified WSD data XML, then one key file per annotator "
          "(or a folder of them)")
def read_paths(paths: Sequence[Path], annotators: Sequence[str] | None = None) -> list[SenseTag]:
    """:func:`read` with the data XML as the first path and the key files (or folders of
    them) as the other paths."""
    data_xml, keys = data_and_keys(paths, "raganato")
    return read(data_xml, keys, annotators)


__all__ = ["WORDNET_POS", "instances", "read", "read_paths", "sniff", "wordnet_pos"]
