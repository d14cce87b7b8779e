"""Metrics: pure functions over scored records, shared by lm-eval aggregation and ``chartprobe report``."""
