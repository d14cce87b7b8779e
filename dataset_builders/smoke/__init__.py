"""``chartprobe-smoke``: 20 rows over every chart kind, to exercise build -> lm-eval -> score.

Evaluation side: ``eval_tasks/suites/smoke.py`` and the ``chartprobe_smoke`` task
(``eval_tasks/harness/tasks/chartprobe_smoke.yaml``, ``smoke_utils.py``).
"""
