"""The one safe XML parser every reader uses.

lxml with entity resolution, DTD loading and network access off; malformed input raises
:class:`corpusagree.errors.InputError` as ``file:line: message``.
"""

from __future__ import annotations

from os import PathLike

from lxml import etree

from ..model.errors import InputError


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True,
                           dtd_validation=False, huge_tree=False, remove_blank_text=False)


def parse(path: str | PathLike) -> etree._ElementTree:
    """Parse an XML file safely; raise InputError naming the file and line on bad XML."""
    try:
        return etree.parse(str(path), _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if e.lineno else None
        msg = e.msg if getattr(e, "msg", None) else str(e)
        raise InputError(f"malformed XML: {msg}", path, line) from None
    except OSError as e:
        raise InputError(f"cannot read file: {e}", path) from None


def parse_bytes(data: bytes, path: str | PathLike = "<bytes>") -> etree._Element:
    """Parse XML from bytes with the same safe settings."""
    try:
        return etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise InputError(f"malformed XML: {e.msg}", path, e.lineno or None) from None


def local(tag: object) -> str:
    """The local name of an element tag, without its namespace (MMAX2 uses default namespaces)."""
    return etree.QName(tag).localname if isinstance(tag, str) else ""
