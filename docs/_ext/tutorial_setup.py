"""What every tutorial's hidden first cell does, so that each runs as a user's session would.

* work in a fresh folder where ``sample_corpora/`` is at hand (a link to the repository's), so
  paths read as they do from the repository's root and nothing is written into the checkout;
* ``%%bash`` cells run the command line as a terminal user would see it redirected: no colour
  codes (the kernel sets ``FORCE_COLOR``), 80 columns, the output shown once when the command
  ends, and a command that fails (non-zero exit status) fails the cell, so the build.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import tempfile

#: environment variables the kernel sets that would make the command line colour its tables
COLOUR = ("FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR")


def start() -> pathlib.Path:
    """Set up the tutorial's session; the folder it works in."""
    root = pathlib.Path(os.environ.get("CORPUSAGREE_ROOT", pathlib.Path.cwd().parents[1]))
    work = pathlib.Path(tempfile.mkdtemp(prefix="corpusagree-"))
    (work / "sample_corpora").symlink_to(root / "sample_corpora")
    os.chdir(work)
    for name in COLOUR:
        os.environ.pop(name, None)
    os.environ.update({"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        shell.register_magic_function(bash, "cell", "bash")
    return work


def bash(line: str, cell: str) -> None:
    """Run the cell with bash (``-e``: the first failing command stops it) and show what it
    printed, standard error included, as one block; a non-zero exit status raises."""
    from IPython.display import display

    done = subprocess.run(["bash", "-e", "-c", cell], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    display({"text/plain": done.stdout.rstrip("\n")}, raw=True)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, cell.strip(), done.stdout)
