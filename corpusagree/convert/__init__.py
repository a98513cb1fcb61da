"""Converters: corpus objects -> ReliabilityData (one module per task)."""


__all__: list[str] = []
