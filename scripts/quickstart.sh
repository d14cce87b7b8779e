#!/usr/bin/env bash
# The README's first command, offline on CPU in a few minutes:
#   1. install into .venv (CPU torch first);
#   2. build the small release of every dataset into hub/;
#   3. validate every release with the reference agents (oracle, blind, stale, first-position,
#      always-accept, abstention, legend-order, random, and the shortcut agents position-prior,
#      metadata, anti-stale, answer-everything, text-reader) and put the validity table in each card;
#   4. score a tiny random VLM on every task with lm-evaluation-harness (release -> lm-eval ->
#      scoring -> metrics; the tiny model scores near zero, the point is the path);
#   5. rescore everything with `chartprobe score` (gold from the releases) and write the report with plots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1
CP=.venv/bin/chartprobe
$CP build all --preset small --out hub/ --overwrite
$CP validate hub/chartprobe-* --out out/validity --samples-out out/agents --write-card
.venv/bin/python tests/tiny_vlm.py out/tiny-vlm
CHARTPROBE_DATA=hub $CP eval --model hf-multimodal \
  --model_args pretrained=out/tiny-vlm,max_images=2 \
  --tasks chartprobe_smoke,chartprobe,chartprobe_families,chartprobe_judge,chartprobe_legend,chartprobe_legend_studies \
  --gen_kwargs max_gen_toks=32 --batch_size 8 --output_path out/eval --log_samples
# The gold comes from the releases in hub/, never from the samples files; the agents answer only the
# rows they apply to, so their runs are scored as partial (labelled), the model's over every task.
$CP score --samples out/eval --releases hub --out out/results.json
$CP score --samples out/agents --releases hub --allow-partial --out out/agents.json
$CP report out/results.json out/agents.json --validity out/validity/validity.json --out out/report
echo "releases: hub/   validity: out/validity/validity.md   lm-eval: out/eval/   report: out/report/report.md"
