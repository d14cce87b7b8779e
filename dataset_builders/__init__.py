"""chartprobe dataset builders: the chart spec engine and the four benchmark builders."""

__version__ = "0.1.0"
GENERATOR_VERSION = __version__
"""Recorded in every row and dataset card; bump it whenever generated content changes."""
