"""ChartProbe (``chartprobe-probes``): atomic skill probes with exact answers.

Builder side (here): ``templates/`` (26 chart templates, the shape-scene templates and the
held-out complex-reasoning templates, one file each), ``domains`` (bar, hbar, pie, shapes:
what a domain samples and how its templates apply), ``builder`` (``@dataset("probes")``) and
``card``. Shape scenes themselves are a core spec kind (``core/scenes/``). The out-of-template
CR sets (``cr_ood_*``, ``docs/probes_out_of_template.md``): ``config_sets`` (which templates a
config asks), ``steps`` (primitive steps per op), ``compose`` (the composition rule),
``phrase_bank_ood`` and ``phrase_overlap`` (their wording), ``out_of_template`` (the build's gate).

Evaluation side: metrics in ``eval_tasks/metrics/probes.py``, the validity suite in
``eval_tasks/suites/probes.py``, lm-eval tasks ``chartprobe_probes_*`` and ``chartprobe_cr_*``
(``eval_tasks/harness/tasks/_probes_yaml``, ``_probes_cr_yaml``, ``probes_utils.py``); training reads
this release (``training/``).
"""
