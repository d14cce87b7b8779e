"""The chart core: a chart is data, and its image and answers are functions of that data.

``spec`` (the frozen ``ChartSpec``) and ``fields`` (its closed vocabularies and ``SpecError``),
``validation``, ``render`` (+ ``render_overrides``; with ``charts/``, the only matplotlib code), ``charts/``
(one module per chart kind), ``scenes/`` (the CLEVR-like shape scenes: a second visual spec,
rendered with Pillow), ``specs`` (every spec kind by its version string: one load/render entry
point for any stored ``spec`` column), ``themes``, ``rng``, ``registry``, ``vocab``,
``chartview`` (geometry-aware queries over a spec) and ``programs`` (recorded answer programs).

The core imports no benchmark package and no other face of chartprobe.
"""
