"""VLMEvalKit support: export chartprobe tasks as VLMEvalKit datasets, read its predictions back.

``chartprobe export vlmevalkit RELEASE --config C`` writes one VLMEvalKit TSV per chartprobe task
of config ``C`` (:mod:`.export`, named after the task, so VLMEvalKit's prediction file
``<model>_<task>.xlsx`` names the task as lm-eval's ``samples_<task>_<date>.jsonl`` does) and
the dataset class file ``chartprobe_vlmevalkit.py`` (:mod:`.dataset_class`), whose ``evaluate()``
scores with chartprobe's typed scorer. ``chartprobe score`` reads VLMEvalKit's prediction files
(:mod:`.predictions`) like lm-eval's samples files.

Formats read from VLMEvalKit at commit :data:`.layout.VLMEVALKIT_COMMIT` (see :mod:`.layout`).
VLMEvalKit itself is never imported here: only the class file imports it, inside VLMEvalKit.
"""
