"""The lm-eval include path (``chartprobe tasks-path``): task YAMLs plus their ``utils.py`` hooks.

lm-eval never imports this package; the file exists so setuptools ships ``utils.py`` in
wheels (package-data globs cover only the YAML files).
"""
