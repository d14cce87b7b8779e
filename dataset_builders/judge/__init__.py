"""ChartJudgeBench (``chartprobe-judge``): chart judge items.

Builder side (here): ``flaws/`` (the 7 flaw criteria, one file each, with their verifiers and
evidence), ``cpa`` (better/worse pairs), ``reproduction`` and ``editing`` (CRJ accept/reject
items), ``builder`` (``@dataset("judge")``) and ``card``. ``released`` (reading),
``released_rows`` (mapping), ``released_images`` and ``card_released`` import the released
ChartJudgeBench data instead (``chartprobe build judge --released DIR``).

Evaluation side: metrics in ``eval_tasks/metrics/judge.py``, the validity suite in
``eval_tasks/suites/judge.py``, lm-eval tasks ``chartprobe_judge_*``
(``eval_tasks/harness/tasks/_judge_cpa_yaml``, ``_judge_crj_yaml``, ``judge_utils.py``, prompts in
``eval_tasks/harness/tasks/prompts/judge_*.txt``).
"""
