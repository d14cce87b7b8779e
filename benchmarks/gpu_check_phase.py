"""One measured phase of gpu_check, in its own process, so peak GPU memory is that phase's alone.

    python benchmarks/gpu_check_phase.py RECORD.json chartprobe -- <chartprobe arguments>
    python benchmarks/gpu_check_phase.py RECORD.json qwen-build OUT_DIR SIZE DEVICE [--generate N]
    python benchmarks/gpu_check_phase.py RECORD.json llava-build OUT_DIR

``chartprobe`` runs the CLI in this process (``chartprobe.cli.main``) with transformers'
``GenerationMixin.generate`` wrapped to count rows, prompt tokens, generated tokens (up to and including
each row's first EOS or pad) and the seconds spent generating (CUDA-synchronised). Every kind writes
RECORD.json: exit status, wall seconds, peak ``torch.cuda.max_memory_allocated`` / ``_reserved`` in
GiB (null without CUDA), and its own figures.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _cuda_sync(torch) -> None:
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _stop_ids(model, kwargs) -> list[int]:
    gen = kwargs.get("generation_config") or model.generation_config
    ids = []
    for value in (gen.eos_token_id, gen.pad_token_id, kwargs.get("eos_token_id"), kwargs.get("pad_token_id")):
        ids += value if isinstance(value, list) else [] if value is None else [int(value)]
    return sorted(set(ids))


def count_generation(stats: dict) -> None:
    """Wrap ``GenerationMixin.generate`` so every call adds to ``stats`` (rows, tokens, seconds)."""
    import torch
    from transformers.generation.utils import GenerationMixin

    original = GenerationMixin.generate

    def generate(self, *args, **kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        _cuda_sync(torch)
        start = time.perf_counter()
        out = original(self, *args, **kwargs)
        _cuda_sync(torch)
        stats["generate_s"] += time.perf_counter() - start
        seqs = out if isinstance(out, torch.Tensor) else getattr(out, "sequences", None)
        if isinstance(ids, torch.Tensor) and isinstance(seqs, torch.Tensor):
            new = seqs[:, ids.shape[1]:]
            stop = torch.isin(new, torch.tensor(_stop_ids(self, kwargs), device=new.device, dtype=new.dtype))
            full = torch.full_like(stop[:, 0], new.shape[1], dtype=torch.long)
            length = torch.where(stop.any(1), stop.int().argmax(1) + 1, full)  # up to the first EOS/pad
            mask = kwargs.get("attention_mask")
            stats["rows"] += int(seqs.shape[0])
            stats["generated_tokens"] += int(length.sum())
            stats["prompt_tokens"] += int(mask.sum()) if isinstance(mask, torch.Tensor) else int(ids.numel())
            stats["calls"] += 1
        return out

    GenerationMixin.generate = generate


def run_chartprobe(argv: list[str]) -> dict:
    stats = {"rows": 0, "generated_tokens": 0, "prompt_tokens": 0, "generate_s": 0.0, "calls": 0}
    if argv and argv[0] == "eval":
        count_generation(stats)
    from chartprobe.cli import main

    print(f"[gpu_check_phase] chartprobe imported from {Path(sys.modules['chartprobe'].__file__).parent}",
          flush=True)
    try:
        rc = main(argv)
    except SystemExit as exc:  # lm-eval's own argparse/validation exits
        rc = exc.code if isinstance(exc.code, int) else 1
    return {"rc": rc, **(stats if stats["calls"] else {})}


def run_qwen(out: str, size: str, device: str, new_tokens: int) -> dict:
    sys.path.insert(0, str(HERE))
    import gpu_check_qwen as qwen

    return {"rc": 0, **qwen.build(out, size, device, new_tokens)}


def run_llava(out: str) -> dict:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from tiny_vlm import build_tiny_vlm

    path = build_tiny_vlm(out)
    from transformers import AutoModelForImageTextToText

    params = sum(p.numel() for p in AutoModelForImageTextToText.from_pretrained(path).parameters())
    return {"rc": 0, "params": params, "shape": f"tiny LLaVA (tests/tiny_vlm.py, {params / 1e6:.2f}M, float32)"}


def _peak() -> dict:
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return {"peak_gib": None, "reserved_gib": None, "gpu": None}
    return {"peak_gib": torch.cuda.max_memory_allocated() / 2**30,
            "reserved_gib": torch.cuda.max_memory_reserved() / 2**30, "gpu": torch.cuda.get_device_name(0)}


def main(argv: list[str]) -> int:
    record, kind, rest = Path(argv[0]), argv[1], argv[2:]
    start = time.perf_counter()
    if kind == "chartprobe":
        result = run_chartprobe(rest[1:] if rest[:1] == ["--"] else rest)
    elif kind == "qwen-build":
        new_tokens = int(rest[rest.index("--generate") + 1]) if "--generate" in rest else 0
        result = run_qwen(rest[0], rest[1], rest[2], new_tokens)
    elif kind == "llava-build":
        result = run_llava(rest[0])
    else:
        raise SystemExit(f"unknown phase kind {kind!r}")
    result.update(wall_s=time.perf_counter() - start, **_peak())
    record.write_text(json.dumps(result, indent=1, default=str))
    return int(result["rc"] or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
