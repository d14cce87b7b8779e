"""Chartographer source templates: one chart-question pair + executable QA logic per module.

Each module registers one :class:`dataset_builders.families.FamilySource` with
``@family_source("<name>")``; ``FAMILY_SOURCES`` imports them all (sorted) on first use.
"""
