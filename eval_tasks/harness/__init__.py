"""Glue to the evaluation harnesses: lm-evaluation-harness (``tasks/``, the include path; runner,
argument checks, stderr hook, interleaved chat), lmms-eval (``lmms/``) and VLMEvalKit (``vlmevalkit/``)."""
