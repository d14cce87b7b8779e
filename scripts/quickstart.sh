#!/usr/bin/env bash
# The README's first command: install, build the small release of every dataset into hub/,
# then run the main job offline on CPU: score a tiny random VLM on the smoke task and every
# benchmark task with lm-evaluation-harness (release -> lm-eval -> scoring -> metrics) into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1
.venv/bin/chartprobe build all --preset small --out hub/ --overwrite
.venv/bin/python tests/tiny_vlm.py out/tiny-vlm
CHARTPROBE_DATA=hub .venv/bin/chartprobe eval --model hf-multimodal \
  --model_args pretrained=out/tiny-vlm,max_images=1 --tasks chartprobe_smoke,chartprobe,chartprobe_families \
  --gen_kwargs max_gen_toks=32 \
  --batch_size 8 --output_path out/eval
echo "releases: hub/   lm-eval results: out/eval/"
