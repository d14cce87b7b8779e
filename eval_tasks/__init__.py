"""chartprobe scoring, metrics and lm-evaluation-harness tasks."""
