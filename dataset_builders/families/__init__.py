"""Chartographer (``chartprobe-families``): counterfactual chart-question families.

Builder side (here): ``source`` (the source-template contract, regimes and the
``FAMILY_SOURCES`` registry), ``sources/`` (16 source templates, one file each), ``images``
(the degraded "scraped" original and the resolution ablation), ``builder``
(``@dataset("families")``) and ``card``; the importer of the paper's released families
(``chartprobe build families --released DIR``): ``released`` (reading, hashes, configs),
``released_rows`` (the field mapping), ``released_answers`` (answer types), ``released_images``
and ``card_released``.

Evaluation side: metrics (OA, RA, VA, RVC, CVA, CU/NU/SP, sign-flip p) in
``eval_tasks/metrics/families.py``, the validity suite in ``eval_tasks/suites/families.py``,
lm-eval tasks ``chartprobe_families*`` (``eval_tasks/harness/tasks/_families_yaml``,
``families_utils.py``) and the LLM-judge equivalence in ``eval_tasks/answer_judge/equivalence.py``.
"""
