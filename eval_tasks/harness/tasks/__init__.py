"""The lm-eval include path (``chartprobe tasks-path``): task YAMLs plus their ``<benchmark>_utils.py`` hooks.

lm-eval never imports this package (it loads the hooks by path); the file exists so setuptools ships
the ``*_utils.py`` hooks in wheels (package-data globs cover only the YAML files). The lmms-eval twins
(``eval_tasks/harness/lmms/tasks/``) do import it: their ``!function`` hooks name these modules absolutely.
"""
