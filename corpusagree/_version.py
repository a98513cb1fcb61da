"""The package version, in one place."""

#: the version of corpusagree (also in every JSON report, beside the schema number)
__version__ = "0.2.0"


__all__ = ["__version__"]
