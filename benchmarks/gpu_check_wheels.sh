#!/usr/bin/env bash
# Download (here, with a network) the wheels that benchmarks/gpu_check.sh needs on a GPU machine
# that has no network: what chartprobe's eval and train paths import beyond that machine's own stack
# (torch 2.11, torchvision 0.26, transformers 5.17, accelerate 1.15, tokenizers 0.23, huggingface-hub
# 1.33, numpy/pandas/pyarrow/matplotlib/scipy/scikit-learn/sacrebleu/pyyaml/jinja2/requests/rich/
# xxhash/psutil). Versions are those our CPU venv is tested with; transformers 5.25 needs
# huggingface-hub >= 2.4, which needs httpx2 (and its httpcore2/truststore); chartprobe's eval runner imports
# lm-eval's API models (chat-completions), which need aiohttp and tenacity even for hf-multimodal.
#
#   bash benchmarks/gpu_check_wheels.sh [DEST=.whl]        (PYVER=3.11 for a local stand-in)
#
# DEST is ignored by git (.gitignore: /.whl/); the device tool carries it with `carry: [".whl"]`.
# The target machine installs them with
#   python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
# --no-deps on both sides: nothing here may pull a CUDA torch or replace the machine's own packages.
set -euo pipefail
DEST=${1:-.whl}
PYVER=${PYVER:-3.12}
mkdir -p "$DEST"
WHEELS=(
  transformers==5.25.0 huggingface_hub==2.4.0 httpx2==2.16.2 httpcore2==2.16.2 truststore==0.10.5
  anyio==4.16.0 idna==3.20 h11==0.16.0 typing_extensions==4.16.0
  datasets==5.2.0 fsspec==2026.9.0 dill==0.4.1 multiprocess==0.70.19
  lm_eval==0.4.13 evaluate==0.4.6 more_itertools==11.2.1
  aiohttp==3.14.5 aiohappyeyeballs==2.7.1 aiosignal==1.4.0 attrs==26.1.0 frozenlist==1.8.0 multidict==7.2.1
  propcache==0.5.4 yarl==1.25.1 tenacity==9.2.1
  pytablewriter==1.2.1 DataProperty==1.1.1 mbstrdecoder==1.1.5 pathvalidate==3.3.1 tabledata==1.3.5
  tcolorpy==0.1.7 typepy==1.3.5 chardet==6.0.0.post1 pytz==2026.6
  trl==1.16.0 peft==0.21.2
  rapidfuzz==3.14.6 orjson==3.13.0
)
# Published as source only, pure Python: built into wheels here (any Python 3 takes them).
SDIST_ONLY=(sqlitedict==2.1.0 word2number==1.1)
for spec in "${WHEELS[@]}"; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$PYVER" --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d "$DEST" "$spec" 2>&1 | grep -v '^WARNING: Location' || true
done
for spec in "${SDIST_ONLY[@]}"; do
  python3 -m pip wheel -q --no-deps -w "$DEST" "$spec" 2>&1 | grep -v '^WARNING: Location' || true
done
missing=0
for spec in "${WHEELS[@]}" "${SDIST_ONLY[@]}"; do
  name=${spec%%==*}; name=${name//-/_}; version=${spec#*==}
  if ! ls "$DEST" | grep -qi "^${name}-${version}-"; then echo "missing wheel: $spec" >&2; missing=1; fi
done
du -sh "$DEST"
exit "$missing"
