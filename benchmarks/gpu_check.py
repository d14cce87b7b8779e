"""GPU check: a real-size VLM through chartprobe's eval and train paths, one command, one table.

    bash benchmarks/gpu_check.sh [--wheels .whl] [--smoke] [--hub DIR] [--tasks T] [--limit N]
                                 [--batch-size B] [--max-gen-toks N] [--train-steps N] [--report DIR]

Phases, each a separate process so its peak GPU memory is its own:

1. model: a randomly initialised Qwen2.5-VL at Qwen2.5-VL-7B's shape (8.29B parameters), created on the
   GPU in bf16 from a config, saved with a locally trained Qwen-style tokenizer and processor
   (``gpu_check_qwen.py``), reloaded and asked one two-image question;
2. data: ``chartprobe build all --preset small`` (in the background while the model builds), or a
   prebuilt ``--hub`` folder reused;
3. eval: ``chartprobe eval --model hf-multimodal ... --apply_chat_template --tasks chartprobe-all
   --limit N --log_samples`` (two images per judge document); documents/s and generated tokens/s are
   over the seconds spent inside ``generate`` (start-up and model loading are in "wall s");
4. train: ``chartprobe train --skills P+G --max-steps N`` (LoRA on the language model); samples/s and
   tokens/s over the trainer's own seconds;
5. vllm: whether ``import vllm`` works (it is not run).

``--smoke`` runs the same pipeline on CPU in well under two minutes: the tiny Qwen2.5-VL is built and
generates from two images (without torchvision its ``Qwen2_5_VLProcessor`` cannot be built, so the
eval/train pipeline then uses tests/tiny_vlm.py's tiny LLaVA). A global deadline (``--deadline``,
420 s; 150 s with ``--smoke``) stops a phase that runs over and still prints the table.
chartprobe is imported from this checkout (the package-dir mapping of pyproject.toml, as symlinks on
PYTHONPATH), never from an installed copy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from gpu_check_report import Row, environment, eval_row, model_row, render_table, train_row, write_report

UMBRELLA = "chartprobe-all"
# Until the umbrella group exists: one task or more of each benchmark, a two-image judge task included.
FALLBACK_TASKS = ("chartprobe_probes_bar_perception,chartprobe_cr_bar,chartprobe_families,chartprobe_legend,"
                  "chartprobe_judge_cpa,chartprobe_judge_crj_edit")
RELEASES = ("chartprobe-probes", "chartprobe-families", "chartprobe-legend", "chartprobe-judge")
PACKAGE_DIR = {"chartprobe": "chartprobe", "chartprobe.dataset_builders": "dataset_builders",
               "chartprobe.eval_tasks": "eval_tasks", "chartprobe.training": "training"}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true", default=os.environ.get("GPU_CHECK_SMOKE") == "1",
                   help="CPU, tiny models (also GPU_CHECK_SMOKE=1)")
    p.add_argument("--work", help="scratch folder (default: /dev/shm when it has room for the 7B, else $TMPDIR)")
    p.add_argument("--hub", help="reuse these prebuilt small releases instead of building them")
    p.add_argument("--tasks", default=os.environ.get("GPU_CHECK_TASKS", UMBRELLA))
    p.add_argument("--limit", type=int, help="documents per task (default 4; smoke 1)")
    p.add_argument("--batch-size", type=int, help="lm-eval batch size (default 8; smoke 4)")
    p.add_argument("--max-gen-toks", type=int, help="new tokens per document (default 32; smoke 8)")
    p.add_argument("--train-steps", type=int, help="LoRA optimizer steps (default 5; smoke 2)")
    p.add_argument("--train-data", choices=("probes", "legend"), default="probes",
                   help="what chartprobe train fits: probes (--skills P+G) or legend (--data legend)")
    p.add_argument("--num-proc", type=int, default=min(16, os.cpu_count() or 1), help="release build workers")
    p.add_argument("--deadline", type=float, help="seconds for the whole check (default 420; smoke 150)")
    p.add_argument("--report", help="also write gpu_check.md, gpu_check.json and the phase logs here")
    p.add_argument("--keep", action="store_true", help="keep the saved model and scratch files")
    args = p.parse_args(argv)
    for name in ("work", "hub", "report"):  # the phases run in the work folder
        if getattr(args, name):
            setattr(args, name, str(Path(getattr(args, name)).resolve()))
    for name, gpu, cpu in (("limit", 4, 1), ("batch_size", 8, 4), ("max_gen_toks", 32, 8), ("train_steps", 5, 2),
                           ("deadline", 420.0, 150.0)):
        if getattr(args, name) is None:
            setattr(args, name, cpu if args.smoke else gpu)
    return args


def package_root(tmp: Path) -> Path:
    """A folder whose ``chartprobe`` package is this checkout, laid out as pyproject's package-dir maps it."""
    pkg = tmp / "pkg" / "chartprobe"
    pkg.mkdir(parents=True)
    for item in (ROOT / PACKAGE_DIR["chartprobe"]).iterdir():
        if item.name != "__pycache__":
            (pkg / item.name).symlink_to(item)
    for name, folder in PACKAGE_DIR.items():
        if name != "chartprobe":
            (pkg / name.split(".", 1)[1]).symlink_to(ROOT / folder)
    return pkg.parent


def default_work(smoke: bool) -> Path:
    shm = Path("/dev/shm")
    if not smoke and shm.is_dir() and shutil.disk_usage(shm).free > 40 * 2**30:
        return Path(tempfile.mkdtemp(prefix="gpu_check.", dir=shm))
    return Path(tempfile.mkdtemp(prefix="gpu_check."))


class Runner:
    """Runs each phase as a subprocess under one deadline; logs to WORK/logs/<name>.log."""

    def __init__(self, work: Path, env: dict, deadline_s: float):
        self.work, self.env, self.end = work, env, time.monotonic() + deadline_s
        self.logs = work / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)

    def left(self) -> float:
        return self.end - time.monotonic()

    def start(self, name: str, cmd: list[str]) -> subprocess.Popen:
        print(f"[gpu_check] {name}: {' '.join(cmd)}", flush=True)
        # cwd is the work folder: from the repository root, `python -m chartprobe` would import the bare
        # chartprobe/ folder there (sys.path[0]) instead of the package laid out on PYTHONPATH.
        with open(self.logs / f"{name}.log", "w") as log:  # the child keeps its own copy of the descriptor
            return subprocess.Popen(cmd, cwd=self.work, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)

    def wait(self, name: str, proc: subprocess.Popen) -> tuple[int | None, str]:
        """Exit status (None when killed at the deadline) and the log's last lines."""
        try:
            rc = proc.wait(timeout=max(1.0, self.left()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)  # the phase and anything it started: its own session
            proc.wait()
            rc = None
        tail = (self.logs / f"{name}.log").read_text(errors="replace").splitlines()[-15:]
        return rc, "\n".join(tail)

    def phase(self, name: str, kind: str, *rest: str) -> tuple[dict, str]:
        """Run ``gpu_check_phase.py`` and return its record (``rc`` None when it ran past the deadline)."""
        record = self.work / f"{name}.json"
        cmd = [sys.executable, str(HERE / "gpu_check_phase.py"), str(record), kind, *rest]
        started = time.perf_counter()
        rc, tail = self.wait(name, self.start(name, cmd))
        data = json.loads(record.read_text()) if rc is not None and record.exists() else {}
        data.setdefault("wall_s", time.perf_counter() - started)
        data["rc"] = rc if rc is not None else "timeout"
        return data, tail


def _failed(row: Row, data: dict, tail: str) -> Row:
    row.note = f"FAILED (exit {data['rc']}): " + " | ".join(line.strip() for line in tail.splitlines()[-3:])
    print(f"[gpu_check] {row.phase} failed; last lines of its log:\n{tail}", file=sys.stderr, flush=True)
    return row


def releases_ready(hub: Path) -> bool:
    return all((hub / name / "README.md").is_file() for name in RELEASES)


def resolve_tasks(tasks: str, env: dict, cwd: Path) -> tuple[str, str]:
    """The umbrella group when this checkout defines it, else the explicit fallback list."""
    if tasks != UMBRELLA:
        return tasks, ""
    out = subprocess.run([sys.executable, "-m", "chartprobe", "tasks-path"], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=120, check=False)
    if out.returncode != 0:
        why = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return FALLBACK_TASKS, f"chartprobe tasks-path failed ({why}): explicit task list"
    for yaml in Path(out.stdout.strip()).glob("**/*.yaml"):
        if f"group: {UMBRELLA}" in yaml.read_text(errors="replace").splitlines():
            return tasks, ""
    return FALLBACK_TASKS, f"no `{UMBRELLA}` group in this checkout: explicit task list"


def vllm_row(env: dict) -> Row:
    try:
        out = subprocess.run([sys.executable, "-c", "import vllm; print(vllm.__version__)"], env=env,
                             capture_output=True, text=True, timeout=120, check=False)
        note = f"installed {out.stdout.strip()} (not run by this check)" if out.returncode == 0 else "not installed"
    except subprocess.TimeoutExpired:
        note = "import vllm did not finish in 120 s"
    return Row("vllm", "-", "-", None, note=note)


def model_phases(run: Runner, args, rows: list[Row]) -> tuple[Path | None, str]:
    """Build the Qwen2.5-VL (7B shape on the GPU; tiny on CPU) and the model the pipeline runs:
    that Qwen, or in smoke mode without torchvision the tiny LLaVA."""
    qwen = run.work / "qwen2_5_vl"
    size, device = ("tiny", "cpu") if args.smoke else ("7b", "cuda")
    data, tail = run.phase("model", "qwen-build", str(qwen), size, device, "--generate", "8")
    if data["rc"] != 0:
        rows.append(_failed(Row("model (Qwen2.5-VL build)", f"Qwen2.5-VL {size}", "-", data["wall_s"]), data, tail))
        return None, ""
    rows.append(model_row(data, f"model (Qwen2.5-VL {size}, random init)"))
    if data.get("processor"):  # the full Qwen2_5_VLProcessor was saved: the pipeline runs this model
        return qwen, data["shape"]
    llava = run.work / "tiny_llava"
    data, tail = run.phase("model-llava", "llava-build", str(llava))
    if data["rc"] != 0:
        rows.append(_failed(Row("model (tiny LLaVA)", "tiny LLaVA", "-", data["wall_s"]), data, tail))
        return None, ""
    return llava, data["shape"] + "; Qwen's processor needs torchvision"


def start_data(run: Runner, args) -> tuple[Path, subprocess.Popen | None]:
    hub = Path(args.hub) if args.hub else run.work / "hub"
    if releases_ready(hub):
        return hub, None
    cmd = [sys.executable, "-m", "chartprobe", "build", "all", "--preset", "small", "--out", str(hub),
           "--num-proc", str(args.num_proc), "--overwrite"]
    return hub, run.start("data", cmd)


def finish_data(run: Runner, hub: Path, proc: subprocess.Popen | None, started: float) -> Row:
    if proc is None:
        return Row("data (small releases)", "-", "reused", None, note=f"prebuilt {hub}")
    rc, tail = run.wait("data", proc)
    row = Row("data (small releases)", "-", "-", time.perf_counter() - started,
              note=f"chartprobe build all --preset small --num-proc {run.env['GPU_CHECK_NUM_PROC']}")
    if rc != 0:
        return _failed(row, {"rc": rc if rc is not None else "timeout"}, tail)
    rows = 0  # the build prints "<release>\t<N> rows\tsha256:..." per release
    for line in (run.logs / "data.log").read_text(errors="replace").splitlines():
        fields = line.split("\t")
        if len(fields) >= 2 and fields[1].endswith(" rows") and fields[1].split()[0].isdigit():
            rows += int(fields[1].split()[0])
    row.count = f"{rows} rows"
    return row


def eval_phase(run: Runner, args, model: Path, shape: str, tasks: str, note: str) -> Row:
    out = run.work / "eval"
    margs = f"pretrained={model},max_images=2" + ("" if args.smoke else ",dtype=bfloat16")
    # lm-eval passes its own --device to the model beside model_args: naming it in both is a TypeError
    device = ["--device", "cpu" if args.smoke else "cuda:0"]
    data, tail = run.phase("eval", "chartprobe", "--", "eval", "--model", "hf-multimodal", "--model_args", margs, *device,
                           "--apply_chat_template", "--tasks", tasks, "--limit", str(args.limit),
                           "--batch_size", str(args.batch_size), "--max-gen-toks", str(args.max_gen_toks),
                           "--output_path", str(out), "--log_samples")
    label = (f"{tasks if len(tasks) < 40 else str(len(tasks.split(','))) + ' task names'} --limit {args.limit} --batch_size {args.batch_size}"
             f", {args.max_gen_toks} new tokens max" + (f" ({note})" if note else ""))
    if data["rc"] != 0:
        return _failed(Row("eval (lm-eval hf-multimodal)", shape, "-", data["wall_s"]), data, tail)
    return eval_row(data, shape, out, label)


def train_phase(run: Runner, args, model: Path, shape: str) -> Row:
    out = run.work / "lora"
    batch, accum = (1, 1) if args.smoke else (2, 4)
    what = ["--data", "legend"] if args.train_data == "legend" else ["--skills", "P+G"]  # --skills is probes-only
    data, tail = run.phase("train", "chartprobe", "--", "train", "--model", str(model), *what,
                           "--max-steps", str(args.train_steps), "--logging-steps", "1", "--no-eval-at-end",
                           "--per-device-batch-size", str(batch), "--grad-accum", str(accum), "--out", str(out))
    if data["rc"] != 0:
        return _failed(Row("train (chartprobe train, LoRA)", shape, "-", data["wall_s"]), data, tail)
    return train_row(data, shape, out, batch * accum)


def phase_env(work: Path, pkg_root: Path, hub: Path, num_proc: int) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(pkg_root), env.get("PYTHONPATH", "")) if p)
    # USE_HUB_KERNELS=0: transformers >= 5.25 otherwise needs the `kernels` package in from_pretrained and
    # would fetch layer kernels from the Hub; the check measures plain PyTorch layers, offline.
    env.update(USE_HUB_KERNELS="0", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false", HF_HOME=str(work / "hf"), MPLCONFIGDIR=str(work / "mpl"),
               CHARTPROBE_DATA=str(hub), GPU_CHECK_NUM_PROC=str(num_proc), PYTHONUNBUFFERED="1")
    return env


def run_check(args, work: Path) -> list[Row]:
    rows: list[Row] = []
    hub = Path(args.hub) if args.hub else work / "hub"
    run = Runner(work, phase_env(work, package_root(work), hub, args.num_proc), args.deadline)
    started = time.perf_counter()
    hub, data_proc = start_data(run, args)  # CPU work beside the GPU model build
    model, shape = model_phases(run, args, rows)
    rows.append(finish_data(run, hub, data_proc, started))
    if model is not None and not rows[-1].note.startswith("FAILED"):
        tasks, note = resolve_tasks(args.tasks, run.env, work)
        for step in (lambda: eval_phase(run, args, model, shape, tasks, note),
                     lambda: train_phase(run, args, model, shape)):
            rows.append(step() if run.left() > 5 else Row("(skipped)", shape, "-", None, note="deadline reached"))
    rows.append(vllm_row(run.env))
    if not args.keep and model is not None and not args.smoke:
        shutil.rmtree(model, ignore_errors=True)  # 16 GiB, possibly in /dev/shm
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(args.work) if args.work else default_work(args.smoke)
    work.mkdir(parents=True, exist_ok=True)
    env = environment()
    print("[gpu_check] " + ", ".join(f"{k} {v}" for k, v in env.items()), flush=True)
    print(f"[gpu_check] work folder {work}; {'smoke (CPU, tiny models)' if args.smoke else 'GPU'}; "
          f"deadline {args.deadline:.0f} s", flush=True)
    start = time.perf_counter()
    rows = run_check(args, work)  # on an exception the work folder and its logs stay for a look
    table = render_table(rows)
    print(f"\n## gpu_check ({'smoke' if args.smoke else 'GPU'}, {time.perf_counter() - start:.0f} s)\n", flush=True)
    print(table, flush=True)
    if args.report:
        write_report(Path(args.report), table, env, rows, work / "logs")
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    bad = [r.phase for r in rows if r.note.startswith("FAILED") or r.phase == "(skipped)"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
