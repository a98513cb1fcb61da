"""The jobs: one module per job, the corpus layer (``corpora``) and the registry of jobs
(``jobs``) below them, and the report of a study folder (``folder``) that composes them."""

__all__: list[str] = []
