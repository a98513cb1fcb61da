"""Coreference chains shared by the coreference readers: build them, check them.

Chains are the connected components of identity links and equivalence groups (as brat and
MMAX2 store them), computed with scipy's sparse graph routines. Every mention belongs to at
least one chain: a mention with no link is a one-member (singleton) chain, so a chain list is a
full partition of the mentions. ``check_same_tokens`` is the cross-annotator check: the
underlying text or tokens must be identical across annotators; ``check_documents`` also refuses
a document read twice for one annotator.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from .corpus import Chain, CorefAnnotation, Link
from .errors import InputError, quote


def chains_from_links(mention_ids: Sequence[str], links: Iterable[Link],
                      groups: Iterable[Iterable[str]] = (),
                      types: Collection[str] | None = None) -> list[Chain]:
    """Chains as connected components over ``mention_ids``.

    ``links`` join their source and target (only links whose ``type`` is in ``types`` when
    ``types`` is given); each of ``groups`` (e.g. brat ``*`` lines, MMAX2 set values) joins all
    its members. Chains are ordered by their first member, members by ``mention_ids`` order, and
    named ``chain_1``, ``chain_2``, ... A link or group naming an id outside ``mention_ids``
    raises ``ValueError`` (readers validate ids first and report them as InputError).

    >>> [c.members for c in chains_from_links(["a", "b", "c"], [Link("c", "a")])]
    [['a', 'c'], ['b']]
    """
    order = {m: i for i, m in enumerate(mention_ids)}

    def known(mid: str) -> int:
        if mid not in order:
            raise ValueError(f"unknown mention id {mid!r}")
        return order[mid]

    edges = [(known(k.source), known(k.target)) for k in links
             if types is None or k.type in types]
    for group in groups:
        members = [known(m) for m in group]
        edges += zip(members, members[1:], strict=False)
    n = len(order)
    if not edges:  # every mention a chain of its own
        return [Chain(f"chain_{k}", [m]) for k, m in enumerate(order, 1)]
    pairs = np.array(edges, np.int64).reshape(-1, 2)
    graph = sparse.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    count, label = connected_components(graph, directed=False)
    # components ranked by their first member, members in mention order
    first = np.full(count, n, np.int64)
    np.minimum.at(first, label, np.arange(n))
    rank = np.empty(count, np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(count)
    cell = rank[label]
    members = np.lexsort((np.arange(n), cell)).tolist()
    bounds = np.concatenate([[0], np.cumsum(np.bincount(cell, minlength=count))]).tolist()
    names = list(order)
    out = [Chain(f"chain_{k + 1}", [names[i] for i in members[bounds[k]:bounds[k + 1]]])
           for k in range(count)]
    return out


@dataclass
class ChainCheck:
    """What :func:`check_chains` found; all empty means a clean partition of the mentions."""

    shared: dict[str, list[str]] = field(default_factory=dict)
    """mention id -> ids of the several chains it belongs to (allowed, reported)."""
    unknown: list[tuple[str, str]] = field(default_factory=list)
    """(chain id, member id) for members that are not mentions of the annotation."""
    unchained: list[str] = field(default_factory=list)
    """mentions that belong to no chain."""

    @property
    def clean(self) -> bool:
        return not (self.shared or self.unknown or self.unchained)


def check_chains(annotation: CorefAnnotation) -> ChainCheck:
    """Report mentions in several chains, chain members that are not mentions, and mentions
    in no chain."""
    where: dict[str, list[str]] = {}
    out = ChainCheck()
    for chain in annotation.chains:
        for m in chain.members:
            if m in annotation.mentions:
                where.setdefault(m, []).append(chain.id)
            else:
                out.unknown.append((chain.id, m))
    out.shared = {m: ids for m, ids in where.items() if len(ids) > 1}
    out.unchained = [m for m in annotation.mentions if m not in where]
    return out


def check_same_tokens(annotations: Iterable[CorefAnnotation]) -> None:
    """Raise InputError naming both files when two annotators of one document have different
    tokens (the same text, tokenised the same way)."""
    first: dict[str, CorefAnnotation] = {}
    for ann in annotations:
        doc = ann.document
        ref = first.setdefault(doc.id, ann)
        if ref.document.tokens == doc.tokens:
            continue
        a, b = ref.document.tokens, doc.tokens
        n = min(len(a), len(b))
        i = next((k for k in range(n) if a[k] != b[k]), n)
        detail = f"token {i}: {quote(a[i])} vs {quote(b[i])}" if i < n else \
            f"{len(a)} vs {len(b)} tokens"
        raise InputError(f"document {quote(doc.id)}: annotator {quote(ann.annotator)} has other "
                         f"tokens than "
                         f"{quote(ref.annotator)} in {ref.source or ref.document.source} "
                         f"({detail})",
                         ann.source or doc.source)


def check_documents(annotations: Sequence[CorefAnnotation]) -> None:
    """Raise InputError if an (annotator, document) pair occurs twice or if the annotators of
    one document do not have identical tokens (the error names both files)."""
    seen: dict[tuple[str, str], str] = {}
    for a in annotations:
        key = (a.annotator, a.document.id)
        if key in seen:
            raise InputError(f"document {quote(a.document.id)} of annotator {quote(a.annotator)} "
                             f"is also "
                             f"in {seen[key]}", a.source)
        seen[key] = a.source
    check_same_tokens(annotations)


__all__ = ["ChainCheck", "chains_from_links", "check_chains", "check_documents",
           "check_same_tokens"]
