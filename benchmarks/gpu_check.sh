#!/usr/bin/env bash
# One command on a GPU machine: a randomly initialised Qwen2.5-VL at 7B's shape through chartprobe's
# lm-eval and LoRA-training paths; prints a markdown table (phase, model shape, docs or steps, wall s,
# docs/s, tokens/s, peak GPU GiB) within 8 minutes. See benchmarks/gpu_check.md.
#
#   bash benchmarks/gpu_check.sh [--wheels DIR] [--smoke] [--report DIR] [gpu_check.py options]
#
# --wheels DIR  install DIR/*.whl (benchmarks/gpu_check_wheels.sh) into a scratch site folder put first on
#               PYTHONPATH: for a machine without network whose Python lacks lm-eval, datasets, trl...
# --smoke       the same pipeline on CPU with tiny models (well under 2 minutes; tests/test_gpu_check.py)
# PYTHON=...    the interpreter (default python3). chartprobe itself comes from this checkout, never
#               from an installed copy (gpu_check.py lays out pyproject's package-dir as symlinks).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-python3}
args=()
WHEELS=
while [ $# -gt 0 ]; do
  case "$1" in
    --wheels) WHEELS=$2; shift 2 ;;
    --wheels=*) WHEELS=${1#*=}; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ -n "$WHEELS" ]; then
  SITE=${GPU_CHECK_SITE:-${TMPDIR:-/tmp}/gpu_check_site}
  start=$(date +%s)
  # --no-deps: nothing may replace the machine's torch; pip missing or refusing -> unpack the zips.
  if ! "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
      "$WHEELS"/*.whl 2>"$SITE.pip.log"; then
    echo "[gpu_check] pip install failed ($(tail -1 "$SITE.pip.log")); unpacking the wheels" >&2
    "$PY" -c 'import sys, zipfile; [zipfile.ZipFile(w).extractall(sys.argv[1]) for w in sys.argv[2:]]' \
      "$SITE" "$WHEELS"/*.whl
  fi
  echo "[gpu_check] $(ls "$WHEELS"/*.whl | wc -l) wheels into $SITE in $(( $(date +%s) - start )) s"
  export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
fi
cd "$ROOT"
exec "$PY" benchmarks/gpu_check.py ${args[@]+"${args[@]}"}
