"""``chartprobe serve`` (``eval_tasks/harness/serve_cli.py``): the stock server's two failures on lm-eval's
requests, fixed in the command's process. The served end to end runs are in ``test_harness.py``."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.fixture(autouse=True)
def _restored(monkeypatch):
    """Whatever the patch wraps is put back after each test (monkeypatch remembers the originals)."""
    from transformers.cli.serving.chat_completion import ChatCompletionHandler
    from transformers.cli.serving.completion import CompletionHandler
    from transformers.generation.stopping_criteria import StopStringCriteria

    monkeypatch.setattr(StopStringCriteria, "__init__", StopStringCriteria.__init__)
    for handler in (ChatCompletionHandler, CompletionHandler):
        for name in ("_build_generation_config", "_build_generation_kwargs"):
            if hasattr(handler, name):
                monkeypatch.setattr(handler, name, getattr(handler, name))


def test_stop_strings_work_with_a_processor_once_patched(tiny_gemma3):
    """lm-eval sends ``stop``; the server hands generate() the processor, which has no vocab of its own."""
    from chartprobe.eval_tasks.harness.serve_cli import patch_transformers_serve
    from transformers import AutoProcessor
    from transformers.generation.stopping_criteria import StopStringCriteria

    processor = AutoProcessor.from_pretrained(tiny_gemma3)
    with pytest.raises(AttributeError, match="get_vocab"):
        StopStringCriteria(processor, ["\n\n"])
    patch_transformers_serve()
    patch_transformers_serve()  # idempotent: the second call must not wrap the wrapper
    assert StopStringCriteria(processor, ["\n\n"]).stop_strings == ("\n\n",)


def test_an_empty_stop_list_is_dropped_before_generation():
    from chartprobe.eval_tasks.harness.serve_cli import patch_transformers_serve
    from transformers.cli.serving.chat_completion import ChatCompletionHandler

    name = next(n for n in ("_build_generation_config", "_build_generation_kwargs")
                if hasattr(ChatCompletionHandler, n))
    seen = []
    setattr(ChatCompletionHandler, name, lambda self, body, *a, **k: seen.append(body))  # restored by _restored
    patch_transformers_serve()
    getattr(ChatCompletionHandler, name)(None, {"stop": [], "max_tokens": 4})
    getattr(ChatCompletionHandler, name)(None, {"stop": ["x"]})
    assert seen == [{"max_tokens": 4}, {"stop": ["x"]}]


def test_a_missing_model_folder_is_one_line_and_exit_2(tmp_path):
    run = subprocess.run([sys.executable, "-m", "chartprobe.cli", "serve", str(tmp_path / "nope")],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 2
    line = f"chartprobe: error: serve: {tmp_path / 'nope'}: no model folder there (no config.json)"
    assert run.stderr.strip().splitlines() == [line]
