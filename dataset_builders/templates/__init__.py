"""Probe templates, one file each, registered with ``@template("<ID>")``."""
