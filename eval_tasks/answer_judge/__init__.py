"""The optional LLM answer-equivalence judge (``chartprobe score --judge``), not ChartJudgeBench.

Client, content cache, released prompt and verdict parser; it resolves the answers the typed scorer
cannot decide. Imports only :mod:`..scoring` and :mod:`..metrics`."""
