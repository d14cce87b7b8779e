"""``chartprobe report``: the report document, its sections, model comparison and the study tables."""
