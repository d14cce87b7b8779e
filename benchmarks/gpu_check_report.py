"""The figures and the markdown table of gpu_check: rows from the phase records, lm-eval samples and
TRL's train log."""

from __future__ import annotations

import json
import platform
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

COLUMNS = ("phase", "model shape", "docs or steps", "wall s", "docs/s", "tokens/s", "peak GPU GiB", "notes")
VERSIONS = ("torch", "torchvision", "transformers", "tokenizers", "huggingface_hub", "accelerate", "datasets",
            "lm_eval", "trl", "peft", "pyarrow")


@dataclass
class Row:
    phase: str
    shape: str
    count: str
    wall_s: float | None
    rate: float | None = None
    tokens_per_s: float | None = None
    peak_gib: float | None = None
    note: str = ""


def environment() -> dict:
    """Python and the versions of the stack as this process's path sees it (carried wheels first)."""
    env = {"python": platform.python_version(), "machine": platform.machine()}
    for name in VERSIONS:
        try:
            env[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            env[name] = "not installed"
    return env


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def render_table(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        cells = (r.phase, r.shape, r.count, _num(r.wall_s, 1), _num(r.rate), _num(r.tokens_per_s, 1),
                 _num(r.peak_gib), r.note.replace("|", "/"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sample_count(output_path: Path) -> int:
    """Documents lm-eval scored: lines of every samples_*.jsonl under --output_path."""
    total = 0
    for path in output_path.glob("**/samples_*.jsonl"):
        with open(path, "rb") as f:
            total += sum(1 for line in f if line.strip())
    return total


def eval_row(data: dict, shape: str, output_path: Path, label: str) -> Row:
    """docs/s and tokens/s over the seconds inside generate; the end-to-end rate goes in the notes."""
    docs = sample_count(output_path)
    gen_s = data.get("generate_s") or 0.0
    tokens = data.get("generated_tokens", 0)
    note = (f"{label}; {data.get('rows', 0)} rows in {data.get('calls', 0)} generate calls, {gen_s:.1f} s "
            f"generating, {tokens} new + {data.get('prompt_tokens', 0)} prompt tokens; end to end "
            f"{docs / data['wall_s']:.2f} docs/s")
    return Row("eval (lm-eval hf-multimodal)", shape, f"{docs} docs", data["wall_s"],
               docs / gen_s if gen_s else None, tokens / gen_s if gen_s else None, data.get("peak_gib"), note)


def train_row(data: dict, shape: str, out: Path, samples_per_step: int) -> Row:
    """samples/s (in the docs/s column) and tokens/s over the trainer's own seconds (train_log.json)."""
    log = json.loads((out / "train_log.json").read_text())
    steps, seconds = log["steps"], log["train_seconds"]
    tokens = max((h.get("num_tokens", 0) for h in log.get("log_history", [])), default=0)
    samples = steps * samples_per_step
    note = (f"{samples} samples ({samples_per_step}/step), {seconds:.1f} s in the trainer, {log['precision']}, "
            f"LoRA on {len(log.get('trainable_modules', []))} modules, "
            f"{log.get('trainable_params', 0) / 1e6:.1f}M trainable; {tokens:.0f} tokens; "
            f"{steps / seconds:.3f} steps/s; docs/s column = samples/s")
    return Row("train (chartprobe train, LoRA)", shape, f"{steps} steps", data["wall_s"],
               samples / seconds if seconds else None, tokens / seconds if seconds and tokens else None,
               data.get("peak_gib"), note)


def model_row(data: dict, phase: str) -> Row:
    gen = data.get("generate") or {}
    gen_s = gen.get("generate_s")
    where = data.get("gpu") or data.get("device")
    note = (f"init {data.get('init_s', 0):.1f} s on {where}, save {data.get('save_s', 0):.1f} s "
            f"({data.get('bytes', 0) / 2**30:.2f} GiB): {data.get('saved', '')}")
    if gen:
        note += (f"; 1 doc with 2 images ({gen['image_tokens']} image tokens, {gen['prompt_tokens']} prompt "
                 f"tokens) -> {gen['generated_tokens']} new tokens")
    return Row(phase, data.get("shape", "-"), "1 doc" if gen else "-", data["wall_s"], 1 / gen_s if gen_s else None,
               gen["generated_tokens"] / gen_s if gen_s else None, data.get("peak_gib"), note)


def write_report(folder: Path, table: str, env: dict, rows: list[Row], logs: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gpu_check.md").write_text(table + "\n")
    report = {"environment": env, "rows": [asdict(r) for r in rows]}
    (folder / "gpu_check.json").write_text(json.dumps(report, indent=1))
    for log in logs.glob("*.log"):
        (folder / log.name).write_text(log.read_text(errors="replace")[-200_000:])
