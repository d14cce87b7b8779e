"""Chartographer source templates: one chart-question pair + executable QA logic per module.

Each module registers one :class:`chartprobe.dataset_builders.families.source.FamilySource` with
``@family_source("<name>")``; ``FAMILY_SOURCES`` imports them all (sorted) on first use.
"""
