"""Zip files of annotation exports (INCEpTION, WebAnno): their members, with the annotator and
document each stands for, inflated within bounds.

An INCEpTION or WebAnno project export keeps one folder per document and one file per
annotator, ``annotation/<document>/<user>.<ext>``, the file often itself a zip holding the
annotation (``annotation/<document>/<user>.zip`` → ``<document>.<ext>``); an export of
annotations may instead keep one folder per annotator, ``<user>/<document>.<ext>``. Curation
(``curation/``, user ``CURATION_USER``) and the initial CAS (``INITIAL_CAS``) are no annotator,
and the export's ``source/``, ``annotation_ser/``, ``curation_ser/`` and ``log/`` hold no
annotation.

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
#: top folders of a project export that hold no annotator's annotation (the source
#: documents, serialised CASes, the log)
EXPORT_FOLDERS = frozenset({"source", "annotation_ser", "curation_ser", "log"})


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
    #: at the zip's root, not in an export's folders: the names are the zip's and the file's
    root: bool = False


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
            if name.endswith("/") or "curation" in member.parts[:-1] or (
                    len(member.parts) > 1 and member.parts[0] in EXPORT_FOLDERS):
                continue
            if name.endswith(suffix):
                annotator, document = _names(member, Path(path).stem)
                if annotator not in NOT_ANNOTATORS:
                    yield Member(f"{path}!/{name}", inflate(z, path, name), annotator,
                                 document, len(member.parts) == 1)
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


def has_member(path: Path, suffix: str) -> bool:
    """Whether the zip ``path`` has a member ending in ``suffix``, or a zip member (one level
    down, as an export's ``annotation/<document>/<user>.zip``) that has one; False for
    anything that is no readable zip."""
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if any(n.endswith(suffix) for n in names):
                return True
            inner = next((n for n in sorted(names) if n.endswith(".zip")
                          and _names(PurePosixPath(n), "")[0] not in NOT_ANNOTATORS), None)
            if inner is None:
                return False
            with zipfile.ZipFile(io.BytesIO(inflate(z, Path(path), inner))) as sub:
                return any(n.endswith(suffix) for n in sub.namelist())
    except (zipfile.BadZipFile, OSError, InputError, zlib.error, EOFError, RuntimeError):
        return False


def find(path: Path, basename: str) -> tuple[str, bytes] | None:
    """``(name for messages, bytes)`` of the first member called ``basename`` (in any folder)
    of the zip ``path`` or of a zip inside it (an export's per-user zips each hold the
    ``TypeSystem.xml`` of their CAS); None when there is none."""
    with zipfile.ZipFile(path) as z:
        names = sorted(z.namelist())
        hit = next((n for n in names if PurePosixPath(n).name == basename), None)
        if hit is not None:
            return f"{path}!/{hit}", inflate(z, path, hit)
        for n in (n for n in names if n.endswith(".zip")):
            try:
                sub = zipfile.ZipFile(io.BytesIO(inflate(z, path, n)))
            except zipfile.BadZipFile:
                continue
            with sub:
                hit = next((m for m in sorted(sub.namelist())
                            if PurePosixPath(m).name == basename), None)
                if hit is not None:
                    return f"{path}!/{n}!/{hit}", inflate(sub, path, hit)
    return None


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
