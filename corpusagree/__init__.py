"""corpusagree: agreement on structured corpus annotation (Artstein & Poesio's coefficient family)."""

__version__ = "0.1.0"
