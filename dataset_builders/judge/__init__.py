"""ChartJudgeBench item generators: CPA pairs (``cpa``), CRJ reproduction and editing items."""
