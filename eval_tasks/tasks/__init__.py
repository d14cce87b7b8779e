"""The lm-eval include path (``chartprobe tasks-path``): task YAMLs plus their ``<benchmark>_utils.py`` hooks.

lm-eval never imports this package; the file exists so setuptools ships the ``*_utils.py`` hooks in
wheels (package-data globs cover only the YAML files).
"""
