"""The one safe XML parser every reader uses.

lxml with entity resolution, DTD loading and network access off; malformed input raises
:class:`corpusagree.errors.InputError` as ``file:line: message`` on one line. An element with
more than :data:`MAX_ATTRIBUTES` attributes is refused: reading attributes through lxml costs
time quadratic in their number, and no annotation format needs that many.
"""

from __future__ import annotations

import re
from os import PathLike

from lxml import etree

from ..model.errors import InputError
from ..model.io import read_bytes

#: attributes one element may have (MMAX2 markables and XMI feature structures have a dozen)
MAX_ATTRIBUTES = 1000
_ENCODING = re.compile(r"Invalid bytes in character encoding|not proper UTF-8|"
                       r"Document labelled UTF-16 but has UTF-8 content")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True,
                           dtd_validation=False, huge_tree=False, remove_blank_text=False)


def parse(path: str | PathLike) -> etree._ElementTree:
    """Parse an XML file safely; raise InputError naming the file and line on bad XML."""
    return parse_bytes(read_bytes(path), path).getroottree()


def parse_bytes(data: bytes, path: str | PathLike = "<bytes>") -> etree._Element:
    """Parse XML from bytes with the same safe settings; return the root element."""
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno or None
        raise InputError(_message(e, data), path, line) from None
    for el in root.iter(etree.Element):
        if len(el.attrib) > MAX_ATTRIBUTES:
            raise InputError(f"<{local(el.tag)}> has {len(el.attrib)} attributes; more than "
                             f"{MAX_ATTRIBUTES} is not an annotation file", path, el.sourceline)
    return root


def _message(e: etree.XMLSyntaxError, data: bytes) -> str:
    """libxml2's message on one line; an encoding error names the byte and its column."""
    msg = " ".join((e.msg or str(e)).split()).replace(" ,", ",")
    if _ENCODING.search(msg) and e.position:
        line, column = e.position
        rows = data.split(b"\n", line)
        byte = rows[line - 1][column - 1:column] if 0 < line <= len(rows) and column > 0 else b""
        if byte and byte[0] >= 0x80:
            return (f"not UTF-8 (byte 0x{byte[0]:02x} at column {column}); save the file as "
                    "UTF-8 or declare its encoding in <?xml ... encoding=...?>")
    return f"malformed XML: {msg}"


def local(tag: object) -> str:
    """The local name of an element tag, without its namespace (MMAX2 uses default namespaces);
    empty for comments, processing instructions and entity references."""
    # the text after the namespace's "}" (Clark notation, as lxml writes a tag): what
    # etree.QName(tag).localname gives without building a QName, which cost a tenth of a read
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


__all__ = ["MAX_ATTRIBUTES", "local", "parse", "parse_bytes"]
