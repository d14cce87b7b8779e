"""ChartJudgeBench flaw criteria: one module per criterion, each registered with ``@flaw``."""
