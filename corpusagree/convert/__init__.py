"""Converters: corpus objects -> ReliabilityData (one module per task)."""
