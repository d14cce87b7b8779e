"""Chartographer's reconstruction pipeline: real charts in (``chartprobe reconstruct``, §3.1-3.3, A.2-A.5).

From any chart-QA source (:mod:`.sources`: ChartQA, CharXiv, ChartMuseum presets, Hub ids, local
folders) to counterfactual families whose originals are the source images:

- :mod:`.client` + :mod:`.cache`: construction calls to an OpenAI-compatible endpoint or a local
  transformers VLM, temperature 0, cached by content, usage per stage;
- :mod:`.prompts`, :mod:`.replies`: one prompt per stage, one JSON reply each;
- :mod:`.refine`: reconstruction and the diagnose -> plan -> revise loop (A.2, A.3), the verdict;
- :mod:`.review`: the needs-review queue and the decisions a person writes (the Space's review tab);
- :mod:`.counterfactual` + :mod:`.checks`: ``generate_data``, ``adapt_question``,
  ``generate_answer`` run and checked (A.4, A.5);
- :mod:`.sandbox`: every piece of model-written code runs there (bubblewrap, or a weaker
  unshare + rlimit fallback), after an AST check;
- :mod:`.export` + :mod:`.manifest`: the paper's released layout, which ``--released`` imports;
- :mod:`.pipeline`, :mod:`.run`: the job; the command is ``dataset_builders/reconstruct_cli.py``.
"""
