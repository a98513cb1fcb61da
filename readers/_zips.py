"""Zip files of annotation exports (INCEpTION, WebAnno): their members, with the annotator and
document each stands for, inflated within bounds.

An INCEpTION or WebAnno project export keeps one folder per document and one file per
annotator, ``annotation/<document>/<user>.<ext>``, the file often itself a zip holding the
annotation (``annotation/<document>/<user>.zip`` → ``<document>.<ext>``); an export of
annotations may instead keep one folder per annotator, ``<user>/<document>.<ext>``. Curation
(``curation/``, user ``CURATION_USER``) and the initial CAS (``INITIAL_CAS``) are no annotator.

A member is inflated up to :data:`INFLATE_RATIO` times the zip's size (plus
:data:`INFLATE_SLACK` bytes), so a zip bomb is refused instead of filling the memory.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..model.errors import InputError, clip, quote

#: how much larger than its zip a member may inflate (XMI compresses 10-30 fold)
INFLATE_RATIO, INFLATE_SLACK = 200, 64 << 20
#: users of an export that are no annotator
NOT_ANNOTATORS = frozenset({"CURATION_USER", "INITIAL_CAS"})


def is_zip(path: Path) -> bool:
    """A readable file that is a zip archive."""
    try:
        return path.is_file() and zipfile.is_zipfile(path)
    except OSError:
        return False


def inflate(z: zipfile.ZipFile, path: Path, name: str) -> bytes:
    """A zip member's bytes, refusing a member that inflates beyond ``INFLATE_RATIO`` times
    the zip's size (plus ``INFLATE_SLACK``): the sizes in a zip's headers may lie."""
    limit = INFLATE_RATIO * path.stat().st_size + INFLATE_SLACK
    try:
        with z.open(name) as member:
            data = member.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError) as e:
        raise InputError(f"cannot inflate {clip(name)}: {e}", path) from None
    if len(data) > limit:
        raise InputError(f"{clip(name)} inflates to more than {limit} bytes, {INFLATE_RATIO} "
                         "times the zip file and more: refused as a zip bomb", path)
    return data


@dataclass(frozen=True)
class Member:
    """One annotation file inside a zip: ``name`` for messages (``x.zip!/a/b.tsv``), its bytes,
    and the annotator and document its place in the export gives."""

    name: str
    data: bytes
    annotator: str
    document: str


def members(path: Path, suffix: str) -> Iterator[Member]:
    """The members of the zip ``path`` whose name ends in ``suffix``, and those of the zips
    inside it (one level), each with its annotator and document (see the module docstring);
    members of curation and of the users that are no annotator are left out."""
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise InputError(f"not a readable zip file: {e}", path) from None
    with z:
        for name in sorted(z.namelist()):
            member = PurePosixPath(name)
            if name.endswith("/") or "curation" in member.parts[:-1]:
                continue
            if name.endswith(suffix):
                annotator, document = _names(member, Path(path).stem)
                if annotator not in NOT_ANNOTATORS:
                    yield Member(f"{path}!/{name}", inflate(z, path, name), annotator,
                                 document)
            elif name.endswith(".zip"):
                annotator, document = _names(member, Path(path).stem)
                if annotator in NOT_ANNOTATORS:
                    continue
                data = inflate(z, path, name)
                try:
                    inner = zipfile.ZipFile(io.BytesIO(data))
                except zipfile.BadZipFile as e:
                    raise InputError(f"{quote(name)} is not a readable zip file: {e}",
                                     path) from None
                with inner:
                    for sub in sorted(n for n in inner.namelist() if n.endswith(suffix)):
                        yield Member(f"{path}!/{name}!/{sub}", inflate(inner, path, sub),
                                     annotator, document)


def _names(member: PurePosixPath, zip_stem: str) -> tuple[str, str]:
    """``(annotator, document)`` of a member: ``annotation/<document>/<user>.<ext>``, else
    ``<annotator>/<document>.<ext>``, else (at the zip's root) the zip's name and the file's."""
    stem = member.name.split(".")[0] if member.suffix == ".zip" else member.stem
    if len(member.parts) >= 3 and member.parts[-3] == "annotation":
        return stem, member.parts[-2]
    if len(member.parts) >= 2:
        return member.parts[-2], stem
    return zip_stem, stem


__all__ = ["INFLATE_RATIO", "INFLATE_SLACK", "NOT_ANNOTATORS", "Member", "inflate", "is_zip",
           "members"]
