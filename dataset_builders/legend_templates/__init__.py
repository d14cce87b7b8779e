"""LegendBench question templates (T1 parsing, T2 grounding, T3 reasoning), one file each,
registered with ``@legend_template("<name>")``; T4 abstention items come from answerability
interventions on these questions."""
