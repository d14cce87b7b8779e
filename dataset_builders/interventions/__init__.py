"""LegendBench instance-level interventions on the legend side ``l``, one file each,
registered with ``@intervention("<name>")``: mapping-preserving, mapping-altering and
answerability families (paper Table 3)."""
