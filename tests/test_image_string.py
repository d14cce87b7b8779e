"""The model's own image string on lm-eval's plain hf-multimodal path (``eval_tasks/harness/image_string.py``).

A tiny random Gemma 3 (``tests/tiny_gemma3.py``) is the architecture that shows it: its processor
expands ``<start_of_image>``, while lm-eval's plain path writes its config's ``<image_soft_token>``.
"""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.harness.image_string import (
    chat_template_of,
    config_image_string,
    image_string_argv,
    template_image_string,
)
from qwen_parts import IMAGE_STRING as QWEN_STRING
from qwen_parts import MERGE, PAD
from tiny_gemma3 import BOI, MM_TOKENS, SOFT
from tiny_gemma3 import CHAT_TEMPLATE as GEMMA3_TEMPLATE
from tiny_vlm import CHAT_TEMPLATE as CHATML_TEMPLATE

from chartprobe.errors import UsageError

# Qwen2-VL's shape: a per-conversation image counter, an optional "Picture N:" and the wrapped pad token.
QWEN_SHAPED = (
    "{% set image_count = namespace(value=0) %}{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content %}{% set image_count.value = image_count.value + 1 %}"
    "{% if add_vision_id %}Picture {{ image_count.value }}: {% endif %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
)
RAISING = "{{ raise_exception('only text turns') }}"
TEXT_ONLY = "{% for m in messages %}{{ m['content'] if m['content'] is string else '' }}{% endfor %}"


@pytest.mark.parametrize(("template", "expected"), [
    (CHATML_TEMPLATE, "<image>"), (GEMMA3_TEMPLATE, BOI),
    (QWEN_SHAPED, "<|vision_start|><|image_pad|><|vision_end|>"), (RAISING, None), (TEXT_ONLY, None)],
    ids=["llava-chatml", "gemma3", "qwen2-vl-shaped", "raises", "text-only"])
def test_the_image_string_is_what_the_template_writes_for_an_image(template, expected):
    assert template_image_string(template) == expected


def _argv(model: str, *extra: str) -> list[str]:
    return ["run", "--model", "hf-multimodal", "--model_args", f"pretrained={model},max_images=2",
            "--tasks", "chartprobe_judge_cpa", *extra]


def test_the_gemma3_string_is_added_and_said(tiny_gemma3):
    assert chat_template_of(str(tiny_gemma3)) == GEMMA3_TEMPLATE  # read back from the saved folder
    argv, note = image_string_argv(_argv(str(tiny_gemma3)))
    assert argv[-2:] == ["--model_args", f"image_string={BOI}"]
    assert note and "--apply_chat_template" in note and BOI in note


@pytest.mark.parametrize("extra", [("--apply_chat_template",), ("--model_args", "image_string=<x>"),
                                   ("--model_args", "image_token_id=7")])
def test_nothing_is_added_when_the_user_decided(tiny_gemma3, extra):
    argv = _argv(str(tiny_gemma3), *extra)
    assert image_string_argv(argv) == (argv, None)


def test_nothing_is_added_for_llava_or_another_model(tiny_vlm, tiny_gemma3):
    llava = _argv(str(tiny_vlm))
    assert image_string_argv(llava) == (llava, None)  # its template writes <image>: lm-eval's default is right
    other = ["run", "--model", "hf", "--model_args", f"pretrained={tiny_gemma3}", "--tasks", "x"]
    assert image_string_argv(other) == (other, None)


@pytest.mark.parametrize(("name", "token"), [("mistral3", "[IMG]"), ("internvl", "<IMG_CONTEXT>"),
                                             ("mllama", "<|image|>")])
def test_nothing_is_added_where_the_template_writes_the_config_s_own_token(name, token, zoo_model):
    """lm-eval's default is the config's image token: where the chat template writes that token, it is right."""
    path = zoo_model(name)
    assert template_image_string(chat_template_of(str(path))) == token
    assert config_image_string(lambda f: (path / f).read_text() if (path / f).is_file() else None) == token
    argv = _argv(str(path))
    assert image_string_argv(argv) == (argv, None)


def test_a_string_model_args_cannot_carry_is_refused_naming_the_flag(tmp_path):
    (tmp_path / "chat_template.jinja").write_text(QWEN_SHAPED.replace("{% if add_vision_id %}", "{% if true %}"))
    with pytest.raises(UsageError, match="add --apply_chat_template"):
        image_string_argv(_argv(str(tmp_path)))


def test_the_added_string_gives_every_image_its_features(tiny_gemma3):
    """The two-image CPA prompt under each string: the processor's image-token count is what the model needs."""
    from PIL import Image
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(tiny_gemma3)
    images = [Image.new("RGB", (40, 30), "white"), Image.new("RGB", (30, 40), "black")]
    prompt = "Which chart is better? <image><image> Answer A or B."
    with pytest.raises(ValueError, match="0 <start_of_image> tokens and 2 images"):  # lm-eval's plain default
        processor(text=[prompt.replace("<image>", SOFT)], images=[images], return_tensors="pt")
    ids = processor(text=[prompt.replace("<image>", BOI)], images=[images], return_tensors="pt")["input_ids"][0]
    soft = processor.tokenizer.convert_tokens_to_ids(SOFT)
    assert int((ids == soft).sum()) == 2 * MM_TOKENS  # both images, each in full, in order
    assert int((ids == processor.tokenizer.convert_tokens_to_ids(BOI)).sum()) == 2


def test_qwen_gets_features_for_every_image_of_a_pair(tiny_qwen2_5_vl):
    """Qwen2.5-VL's vision string for both images of a CPA pair: one <|image_pad|> per merged patch of each
    image, as the processor's grid says, and what chartprobe eval adds without the chat template."""
    from PIL import Image
    from transformers import AutoProcessor

    argv, note = image_string_argv(_argv(str(tiny_qwen2_5_vl)))
    assert f"image_string={QWEN_STRING}" in " ".join(argv) and note
    processor = AutoProcessor.from_pretrained(tiny_qwen2_5_vl)
    images = [Image.new("RGB", (120, 90), "white"), Image.new("RGB", (60, 100), "black")]
    prompt = "Which chart is better? <image><image> Answer A or B.".replace("<image>", QWEN_STRING)
    batch = processor(text=[prompt], images=[images], return_tensors="pt")
    expected = int(batch["image_grid_thw"].prod(dim=1).sum()) // MERGE ** 2
    assert int((batch["input_ids"][0] == processor.tokenizer.convert_tokens_to_ids(PAD)).sum()) == expected > 2
