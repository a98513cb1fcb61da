"""Sphinx configuration of the corpusagree documentation.

Build it as CI does (warnings are errors; the tutorials run):

    pip install -e ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

The reference is generated from the package (``_ext/corpusagree_docs.py``): the Python API from
``corpusagree.__all__``, the public modules and the job modules of ``corpusagree.analyses``; the
command line from ``corpusagree.cli.build_parser``; the formats from the readers' registry.

``CORPUSAGREE_DOCS_EXECUTE=off`` skips running the notebooks, for a quick look at the pages
(without ``-W``: their cells then have no outputs and no kernel to name their language).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))
# the tutorials run `corpusagree ...` in their kernels: the command of this Python comes first
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent),
                                      os.environ.get("PATH", "")])
# the kernels draw with matplotlib's non-interactive backend, and tables fit 80 columns
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ["COLUMNS"] = "80"
# the tutorials find the sample corpora here
os.environ["CORPUSAGREE_ROOT"] = str(ROOT)

import corpusagree  # noqa: E402

project = "corpusagree"
author = "the corpusagree authors"
copyright = "the corpusagree authors, MIT licence"
release = corpusagree.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "sphinxarg.ext",
    "sphinx_copybutton",
    "sphinx_codeautolink",
    "corpusagree_docs",
]

root_doc = "index"
# option names stay as typed: no "--wide" turned into an en dash
smartquotes = False
exclude_patterns = ["_build", "formats", "_inventories", "_static", "**.ipynb_checkpoints",
                    "README.md"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["corpusagree.css"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}

# -- the API reference ------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # numpydoc's Parameters say the types; signatures stay short
autodoc_member_order = "bysource"
autodoc_inherit_docstrings = True
numpydoc_show_class_members = False  # the class template lists the methods
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
add_module_names = False
python_maximum_signature_line_length = 88

# -- tutorials: MyST notebooks, executed at every build ---------------------------------------
# formulas are mathematics ($…$ and $$…$$, amsmath environments), typeset by MathJax 3 from the
# copy in _static/mathjax (npm's mathjax 3.2.2, es5/tex-chtml.js and its woff-v2 fonts): the
# pages load no script from elsewhere
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "amsmath"]
mathjax_path = "mathjax/tex-chtml.js"
myst_heading_anchors = 3
nb_execution_mode = os.environ.get("CORPUSAGREE_DOCS_EXECUTE", "force")
nb_execution_raise_on_error = True  # a tutorial cell that raises fails the build
nb_execution_timeout = 300
nb_execution_show_tb = True
nb_merge_streams = True
nb_output_stderr = "show"

# -- links to the documentation of Python, numpy, scipy and pandas ---------------------------
# from the inventories kept in _inventories/ (README.md there says where each comes from), so
# the build reads no network; names in code blocks and notebook cells link to their entries
# (sphinx-codeautolink), across the blocks of a page
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", str(HERE / "_inventories" / "python.inv")),
    "numpy": ("https://numpy.org/doc/stable", str(HERE / "_inventories" / "numpy.inv")),
    "scipy": ("https://docs.scipy.org/doc/scipy", str(HERE / "_inventories" / "scipy.inv")),
    "pandas": ("https://pandas.pydata.org/docs", str(HERE / "_inventories" / "pandas.inv")),
}
codeautolink_concat_default = True
codeautolink_warn_on_failed_resolve = False

# -- the site ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"corpusagree {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "performance": [], "changelog": []}
html_show_sourcelink = False
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
