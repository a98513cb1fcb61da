"""Write ``numpy.inv``, the intersphinx inventory of numpy's public top-level names, from the
installed numpy and the URL scheme of numpy's reference (numpy's own ``objects.inv`` is not
shipped by any package the build can install; python's, scipy's and pandas's are copied from
Debian's ``python3.11-doc``, ``python-scipy-doc`` and ``python-pandas-doc``: see README.md).

    python docs/_inventories/make_numpy_inventory.py

Functions and ufuncs link to ``reference/generated/numpy.NAME.html``, scalar types to
``reference/arrays.scalars.html``, :class:`numpy.ndarray` and :class:`numpy.dtype` to their
generated pages, and the random generator to ``reference/random/generator.html``.
"""

from __future__ import annotations

import inspect
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def entries() -> list[str]:
    """The inventory's lines: ``name domain:role priority uri dispname``."""
    out = []
    for name in sorted(n for n in dir(np) if not n.startswith("_")):
        obj = getattr(np, name)
        if inspect.ismodule(obj):
            continue
        if inspect.isclass(obj) and issubclass(obj, np.generic):
            out.append(f"numpy.{name} py:class 1 reference/arrays.scalars.html#$ -")
        elif inspect.isclass(obj):
            out.append(f"numpy.{name} py:class 1 reference/generated/numpy.{name}.html#$ -")
        elif callable(obj):
            out.append(f"numpy.{name} py:function 1 reference/generated/numpy.{name}.html#$ -")
    for name in ("Generator", "default_rng"):
        role = "class" if name == "Generator" else "function"
        out.append(f"numpy.random.{name} py:{role} 1 reference/random/generator.html#$ -")
    out.append("numpy.nan py:data 1 reference/constants.html#$ -")
    return out


def main() -> None:
    header = ("# Sphinx inventory version 2\n# Project: NumPy\n"
              f"# Version: {np.__version__}\n"
              "# The remainder of this file is compressed using zlib.\n")
    body = "".join(line + "\n" for line in entries())
    (HERE / "numpy.inv").write_bytes(header.encode() + zlib.compress(body.encode()))


if __name__ == "__main__":
    main()
