#!/usr/bin/env bash
# Create .venv and install chartprobe with every extra, from this repo's own files.
# CPU torch first: `pip install torch==2.13.0` resolves to a local CPU wheel on our
# machines; letting another package pull torch would fetch a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q torch==2.13.0
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/python -c "import torch, dataset_builders, eval_tasks, training; print('chartprobe installed; torch', torch.__version__)"
