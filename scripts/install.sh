#!/usr/bin/env bash
# Create .venv and install chartprobe with every extra, from this repo's own files.
# CPU torch first: `pip install torch==2.13.0` resolves to a local CPU wheel on our
# machines; letting another package pull torch would fetch a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's Chromium for the Space's browser test (driven by the playwright package; never
# `playwright install`). CI runs as root.
command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || {
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || {
    echo "install.sh: could not install chromium (needed by tests/test_space.py); run as root or" \
         "install Debian's chromium yourself, then rerun" >&2; exit 1; }
}
# Debian's bubblewrap: the sandbox `chartprobe reconstruct` runs model-written code in (its tests need it;
# without it only the weaker unshare+rlimit fallback exists, which reconstruct refuses unless told).
command -v bwrap >/dev/null || {
  { apt-get install -y -qq bubblewrap || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap; }; } \
    >/dev/null 2>&1 || { echo "install.sh: could not install bubblewrap (needed by chartprobe reconstruct's sandbox" \
                              "and tests/test_reconstruct_*.py); run as root or install Debian's bubblewrap" >&2; exit 1; }
}
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q torch==2.13.0
.venv/bin/python -m pip install -q -e ".[dev,lmms]"
# lmms-eval without its requirements (they pin torchvision, whose wheel pulls a CUDA torch; the lmms
# extra above lists what it really imports). pip then reports its unmet requirements as "dependency
# conflicts" on every install: expected, harmless.
.venv/bin/python -m pip install -q --no-deps lmms-eval==0.7.3
# torchvision for the processors that need it (Qwen-VL, InternVL, LLaVA-OneVision, GLM-4V, Mistral-3, ...):
# the registry's wheel is built against CUDA; without its dependencies (no CUDA torch pulled) and with
# scripts/torchvision_cpu.py's one-file fix it imports next to the CPU torch.
.venv/bin/python -m pip install -q --no-deps torchvision==0.28.0
.venv/bin/python scripts/torchvision_cpu.py
.venv/bin/python -c "import torch, lmms_eval, chartprobe.dataset_builders, chartprobe.eval_tasks, chartprobe.training; print('chartprobe installed; torch', torch.__version__)"
