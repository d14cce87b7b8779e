"""chartprobe dataset builders: one chart core, a release layer, one package per benchmark.

    core/      the chart spec engine: spec, validation, render, chart kinds, scenes, themes,
               rng, registry, vocab, chart views, answer programs. Knows no benchmark.
    release/   Hub-layout releases: the DatasetBuilder contract and registry, build_release,
               dataset cards, presets, push.
    probes/    ChartProbe: skill-probe templates, probe domains, builder, card.
    families/  Chartographer: source templates, families, degraded originals, builder, card.
    legend/    LegendBench: the base unit (s, l, q, y), legend space, templates,
               interventions, groups, studies, builder, card.
    judge/     ChartJudgeBench: flaw criteria, CPA pairs, CRJ reproduction/editing, builder, card.
    smoke/     a 20-row dataset that exercises the whole path.
    commands.py  the ``build``, ``render``, ``push`` and ``list`` commands.
    configs/   release presets, ``<dataset>-<preset>.yaml``.

Imports run one way: benchmark packages -> release -> core (``tests/test_layout.py``).
"""
