"""LegendBench (``chartprobe-legend``): legend counterfactual groups.

Builder side (here): ``unit`` (the base unit b = (s, l, q, y): chart side, legend side,
``compose``), ``space`` / ``layouts`` / ``values`` / ``vocab`` (sampling s and l), ``templates/``
(T1-T3 question templates), ``interventions/`` (preserve / alter / answerability),
``program`` (recompute a row's gold), ``rows``, ``groups`` (counterfactual groups and chains),
``studies`` (channel, order, visibility), ``builder`` (``@dataset("legend")``) and ``card``.

Evaluation side: the capability profile in ``eval_tasks/metrics/legend.py`` and
``legend_studies.py``, the validity suite in ``eval_tasks/suites/legend.py``, lm-eval tasks
``chartprobe_legend*`` (``eval_tasks/harness/tasks/_legend_yaml``, ``legend_utils.py``).
"""
