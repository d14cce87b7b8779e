#!/usr/bin/env bash
# Assemble a deployable Hugging Face Space folder: spaces/ (app.py, requirements.txt, README.md
# with the Space header, chartspace/) plus the parts of the chartprobe package the app imports.
#   bash scripts/stage_space.sh [OUT=out/space]
#   huggingface-cli upload <org>/chartprobe OUT . --repo-type space
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/space}
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r spaces/. "$OUT"/
# The import package exactly as a wheel lays it out: chartprobe/{dataset_builders,eval_tasks}/.
mkdir -p "$OUT"/chartprobe
cp chartprobe/__init__.py "$OUT"/chartprobe/
cp -r dataset_builders eval_tasks "$OUT"/chartprobe/
find "$OUT" -name __pycache__ -type d -prune -exec rm -rf {} +
echo "Space staged in $OUT ($(find "$OUT" -type f | wc -l) files)"
