"""lmms-eval support: the generated task tree (``tasks/``), its hooks and ``chartprobe lmms-tasks-path``."""
