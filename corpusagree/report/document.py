"""The base of every job's report: the envelope of its JSON document, its tables and its
renderings.

``Report.to_json``, ``to_csv``, ``to_html`` and ``_repr_html_`` import their renderer where
they run (the renderers read a report's ``to_dict()``, ``tables`` and ``plots()``, and never
import this module); the jobs of :mod:`corpusagree.analyses` subclass :class:`Report`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._version import __version__
from ..model.records import plain
from ..stats.inference import Bootstrap
from .tables import Plot, WithTables, bootstrap_plot

__all__ = ["SCHEMA", "Report"]

#: version of the JSON layout; raised when a key is renamed or removed (with the ``schema``
#: const of the JSON Schema, corpusagree/report/report.schema.json)
SCHEMA = 1


class Report(WithTables):
    """Base of every job's report: the envelope of the JSON, the tables and the renderings.

    A report is a tree of dataclasses that knows nothing about terminals. Every report has
    ``.tables`` (id → :class:`Table`), :meth:`to_dict` (the JSON document), :meth:`to_json`,
    :meth:`to_frame`, :meth:`to_csv`, :meth:`to_html` and shows itself in Jupyter. A job's
    report class adds its own parts (coefficients, scores, diagnostics …) as attributes.

    Attributes
    ----------
    job : str
        The job (``table``, ``coref`` …).
    inputs : list of str
        The paths read.
    options : dict
        The options of the analysis (and the reader's), as the JSON records them.
    bootstrap : Bootstrap or None
        The bootstrap settings, None without intervals.
    notes : list of str
        What a reader of the report must know (a clustered bootstrap that fell back to items,
        undefined values and why …).

    Examples
    --------
    >>> from corpusagree.analyses import segments
    >>> report = segments.analyse(segments.read("sample_corpora/segments/segments.json"))
    >>> report.job, list(report.tables)[:3]
    ('segments', ['boundaries', 'unit_sets', 'pairwise_means'])
    >>> doc = report.to_dict()
    >>> doc["schema"], doc["job"], doc["inputs"]
    (1, 'segments', ['sample_corpora/segments/segments.json'])
    """

    job: str = ""
    inputs: list[str]
    options: dict
    bootstrap: Bootstrap | None
    notes: list[str]

    def body(self) -> dict:
        """The job's own part of :meth:`to_dict` (everything but the envelope).

        Returns
        -------
        dict
        """
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The report in the stable JSON layout (schema 1).

        The envelope ``{"corpusagree": version, "schema": 1, "job", "inputs", "options",
        "bootstrap", …, "notes"}`` around the job's own parts. Undefined values stay float nan here;
        the JSON renderer writes them as null.

        Returns
        -------
        dict
        """
        gates = getattr(self, "_gates", None)
        return plain({"corpusagree": __version__, "schema": SCHEMA, "job": self.job,
                      "inputs": list(self.inputs), "options": self.options,
                      "bootstrap": None if self.bootstrap is None else self.bootstrap.as_dict(),
                      **self.body(), "notes": list(self.notes),
                      **({} if gates is None else {"gates": [o.to_dict() for o in gates]})})

    def check(self, *gates: str) -> list:
        """Whether the report reaches each gate: ``"alpha=0.8"`` (the value) or
        ``"alpha.low=0.667"`` (its interval's lower bound), for pipelines that accept a batch
        of annotation (:mod:`corpusagree.report.gates`). The outcomes are recorded in
        :meth:`to_dict` (``gates``).

        Parameters
        ----------
        *gates : str
            ``COEF=VALUE`` or ``COEF.low=VALUE``; COEF a coefficient id of the report.

        Returns
        -------
        list of Outcome
            Each with ``passed``, ``value``, ``shortfall`` and a one-line ``message()``.

        Raises
        ------
        ValueError
            A malformed gate, or a coefficient the report does not hold (the message lists
            those it holds).

        Examples
        --------
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> outcome, = report.check("alpha=0.667")
        >>> outcome.passed, round(outcome.shortfall, 4)
        (False, 0.2477)
        >>> report.to_dict()["gates"][0]["passed"]
        False
        """
        from .gates import check

        self._gates = check(self, gates)
        return self._gates

    def to_json(self) -> str:
        """The report as a JSON document (:meth:`to_dict`, undefined values as null).

        Returns
        -------
        str

        Examples
        --------
        >>> import json
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> json.loads(report.to_json())["coefficients"][0]["id"]
        'percent_agreement'
        """
        from .json import dumps

        return dumps([self])

    def to_csv(self, folder: str | os.PathLike) -> list[Path]:
        """Write every table as ``<folder>/<table id>.csv``.

        Parameters
        ----------
        folder : str or path-like
            Made when missing.

        Returns
        -------
        list of pathlib.Path
            The files written.

        Examples
        --------
        >>> import tempfile
        >>> from corpusagree.analyses import table
        >>> report = table.analyse(table.read("sample_corpora/table/dialogue_acts.csv"))
        >>> [p.name for p in report.to_csv(tempfile.mkdtemp())]
        ['coefficients.csv', 'notes.csv']
        """
        from .csv import write_files

        return write_files([self], Path(folder))

    def to_html(self, path: str | os.PathLike | None = None) -> str:
        """The report as one self-contained HTML page with its plots (needs matplotlib).

        Parameters
        ----------
        path : str or path-like, optional
            Where to write the page.

        Returns
        -------
        str
            The page.
        """
        from .html import dumps

        page = dumps([self])
        if path is not None:
            from .write import write_text

            write_text(path, page)
        return page

    def _repr_html_(self) -> str:
        from .html import fragment

        return fragment(self)

    def summary(self) -> str:
        """One line saying what was measured on what (the report's ``repr``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.summary()})"

    def headline(self) -> Any:
        """The coefficient a reader looks at first (the first α), or None.

        Returns
        -------
        corpusagree.analyses.base.Estimate or None
        """
        return None

    def plots(self) -> list[Plot]:
        """Pictures of what the tables cannot show, as data the HTML renderer draws.

        By default the bootstrap distribution of :meth:`headline` when it has an interval; jobs add
        their own (heatmaps of coders, continua, confusion matrices).

        Returns
        -------
        list of Plot
        """
        e = self.headline()
        if e is None or e.interval is None or e.interval.distribution is None:
            return []
        return [bootstrap_plot(e.result.symbol, e.result.distance, e.value, e.interval)]
