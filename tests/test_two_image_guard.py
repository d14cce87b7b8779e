"""Two-image tasks (judge CPA/CRJ) on a model capped at one image are refused before any request."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.harness.image_guard import model_max_images, task_images
from chat_standin import recording_server

from chartprobe.cli import main


def test_task_images_come_from_the_yamls():
    images = task_images()
    assert images["chartprobe_judge_cpa"] == 2 and images["chartprobe_judge_crj_repro"] == 2
    assert images["chartprobe_smoke"] == 1
    assert images["chartprobe_judge"] == 2  # a tag/group holding two-image tasks


def test_model_caps():
    assert model_max_images("local-chat-completions", "model=m,base_url=x") == 1
    assert model_max_images("local-chat-completions", "model=m,max_images=2") == 2
    assert model_max_images("hf-multimodal", "pretrained=x") is None


@pytest.mark.parametrize("task", ["chartprobe_judge_cpa", "chartprobe_judge_crj_edit", "chartprobe_judge*"])
def test_one_image_model_refused_before_any_request(task, tmp_path, monkeypatch, capsys):
    # The guard runs before any row is read: a folder that passes the release-name check is enough.
    (tmp_path / "chartprobe-judge").mkdir()
    (tmp_path / "chartprobe-judge" / "README.md").write_text("not read\n")
    monkeypatch.setenv("CHARTPROBE_DATA", str(tmp_path))
    with recording_server(lambda body: "A") as server:
        code = main(["eval", "--model", "local-chat-completions", "--model_args",
                     f"model=stand-in,base_url={server.base_url}/chat/completions", "--tasks", task,
                     "--apply_chat_template", "--limit", "1"])
        assert code == 2
        assert server.requests == []  # refused before lm-eval started, let alone sent anything
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "max_images=2" in err[0] and err[0].startswith("chartprobe: error:")


def test_max_images_two_passes_the_guard():
    from chartprobe.eval_tasks.harness.image_guard import check_image_capacity

    check_image_capacity(["--model", "local-chat-completions", "--model_args", "model=m,max_images=2",
                          "--tasks", "chartprobe_judge_cpa"])  # no error
    check_image_capacity(["--model", "local-chat-completions", "--tasks", "chartprobe_smoke"])  # one image


def test_run_eval_guards_python_callers(capsys):
    from chartprobe.eval_tasks.harness.runner import run_eval

    assert run_eval(["--model", "local-chat-completions", "--model_args", "model=m,base_url=http://127.0.0.1:9/v1",
                     "--tasks", "chartprobe_judge_crj_repro"]) == 2
    assert "max_images=2" in capsys.readouterr().err
