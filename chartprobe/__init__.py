"""chartprobe: diagnostic chart benchmarks for vision-language models.

The distribution installs one import package, ``chartprobe``, whose sub-packages are the
repository's top-level folders (mapped with setuptools' ``package-dir``)::

    chartprobe.dataset_builders  dataset_builders/  chart core, release layer, one package per benchmark
    chartprobe.eval_tasks        eval_tasks/        scoring, metrics, agents, suites, lm-eval tasks
    chartprobe.training          training/          atomic-skill and bottleneck-guided LoRA tuning
    chartprobe.cli               chartprobe/cli.py  the ``chartprobe`` command, from the three faces

Imports run one way: ``cli`` -> ``training`` -> ``eval_tasks`` -> ``dataset_builders``. This
module imports nothing, so every layer may read :data:`__version__`.
"""

__version__ = "0.2.0"
