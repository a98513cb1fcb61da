"""Relations between annotated spans: what relation layers hold (brat ``R`` lines, INCEpTION
and WebAnno relation layers, DISRPT ``.rels`` rows)."""

from __future__ import annotations

from dataclasses import dataclass

from .corpus import Document, Link, Mention


@dataclass
class RelationAnnotation:
    """One annotator's relations between spans of one document (brat ``R`` lines, INCEpTION
    relation layers, DISRPT ``.rels`` rows).

    ``spans``: the relations' endpoints (and any other span of their layer) by id;
    ``relations``: ``Link(source, target, type=<label>, attrs)`` with ``source``/``target``
    span ids, ``type`` the label compared (brat's relation type, a relation layer's label
    feature) and ``attrs`` what else the file says (``id``, ``layer``, ``line``).
    """

    document: Document
    annotator: str
    spans: dict[str, Mention]
    relations: list[Link]
    source: str = ""


__all__ = ["RelationAnnotation"]
