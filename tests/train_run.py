"""``chartprobe train`` as the top-level CLI runs it, and an adapter reloaded to generate: shared by the
training tests (``test_training_*.py``, ``test_zoo_train.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from chartprobe.training import cli


def train_cli(argv: list[str]) -> int:
    """``chartprobe train ARGV`` as the top-level CLI runs it: parse with add_parser, call run."""
    parser = argparse.ArgumentParser(prog="chartprobe")
    cli.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["train", *argv])
    return args.func(args)


def reload_and_generate(model_dir: Path, adapter: Path, image) -> str:
    """Load ``model_dir`` with the LoRA ``adapter`` and generate a few tokens about ``image`` through the
    processor's chat template; the decoded new text (at least one token, asserted)."""
    from peft import PeftModel
    from transformers import AutoModelForImageTextToText, AutoProcessor

    processor = AutoProcessor.from_pretrained(model_dir)
    model = PeftModel.from_pretrained(AutoModelForImageTextToText.from_pretrained(model_dir), adapter).eval()
    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "How many bars?"}]}]
    text = processor.apply_chat_template(messages, add_generation_prompt=True)
    inputs = processor(images=[[image]], text=[text], return_tensors="pt")
    out = model.generate(**inputs, max_new_tokens=4, do_sample=False)
    assert out.shape[1] > inputs["input_ids"].shape[1]
    return processor.batch_decode(out[:, inputs["input_ids"].shape[1]:])[0]


def first_image(releases: Path):
    """The first validation image of the ``bar`` config of the probes release under ``releases``."""
    import datasets

    return datasets.load_dataset(str(releases / "chartprobe-probes"), "bar", split="validation")[0]["image"]
