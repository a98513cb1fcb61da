"""The jobs behind the CLI subcommands: convert a corpus, compute, report (one module each)."""
