"""Saved runs against the release gold (``chartprobe score``).

Where task documents come from and in which order (:mod:`.data`, :mod:`.doc_order`), the samples files
of lm-eval and VLMEvalKit (:mod:`.predictions`), provenance, gold lookup, the per-model scorer and its
workers, and the results files it writes."""
