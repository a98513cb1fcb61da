"""The exports of annotation platforms read as judgements (the ``table`` and ``ratings``
jobs' platform formats): which platform an export is, and its judgements, with the options
each platform's reader takes. Both :mod:`corpusagree.readers.table` (``--input-format``)
and :mod:`corpusagree.readers.discover` (``report FOLDER``) read them through here.

>>> from pathlib import Path
>>> platform(Path("docs/formats/table/argilla/records.json"))
'argilla'
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from types import ModuleType

from ..model.data import ReliabilityData
from ..model.errors import InputError

__all__ = ["PLATFORMS", "module", "platform", "read"]

#: the exports of annotation platforms read as judgements: format → reader module and the
#: options of :func:`read` it takes (``label``: the control or question of Label Studio and
#: Argilla, the column of a dataset)
PLATFORMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "labelstudio": ("labelstudio", ("label",)),
    "prodigy": ("prodigy", ()),
    "doccano": ("doccano", ()),
    "argilla": ("argilla", ("label",)),
    "hf": ("hfdataset", ("coder", "item", "label", "group", "set_sep", "numeric",
                         "categories")),
}


#: the platforms' names in messages
NAMES = {"labelstudio": "Label Studio", "prodigy": "Prodigy", "doccano": "doccano",
         "argilla": "Argilla", "hf": "Hugging Face dataset"}


def module(fmt: str) -> ModuleType:
    """The reader module of a platform's export (:data:`PLATFORMS`)."""
    return importlib.import_module(f"{__package__}.{PLATFORMS[fmt][0]}")


def platform(path: Path) -> str | None:
    """The platform whose export ``path`` is (:data:`PLATFORMS`), or None."""
    return next((fmt for fmt in PLATFORMS if module(fmt).sniff(path)), None)


def read(path: Path, fmt: str, *, coder: str = "coder", item: str = "item",
         label: str = "label", group: str | None = None, set_sep: str | None = None,
         numeric: bool = False, categories=None) -> ReliabilityData:
    """The judgements of a platform's export, with those of the options it takes; an option
    given that the platform's export does not take is an InputError naming it (never
    ignored), except ``numeric``: the exports' JSON numbers are numbers already."""
    given = {"coder": coder, "item": item, "label": label, "group": group,
             "set_sep": set_sep, "numeric": numeric, "categories": categories}
    default = {k: p.default for k, p in inspect.signature(read).parameters.items()}
    takes = PLATFORMS[fmt][1]
    wrong = [k for k, v in given.items() if k not in takes and v != default[k]
             and not (k == "label" and v is None) and k != "numeric"]
    if wrong:
        raise InputError(", ".join(f"{k}={given[k]!r}" for k in wrong)
                         + f" does not apply to {NAMES[fmt]} exports", Path(path))
    return module(fmt).read_judgements(
        Path(path), **{k: v for k, v in given.items() if k in takes})
