"""What the tiny Qwen2-VL, Qwen2.5-VL and Qwen3-VL share: vision tokens, chat template, tokenizer, sizes.

The three processors expect ``<|vision_start|><|image_pad|><|vision_end|>`` per image in the text and
expand the ``<|image_pad|>`` into one token per merged patch, a number that depends on the image's
size (the image resized to a multiple of patch x merge px, between 2 x 2 and 4 x 4 merged tokens here).
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model

MERGE = 2
START, PAD, END, VIDEO = "<|vision_start|>", "<|image_pad|>", "<|vision_end|>", "<|video_pad|>"
IMAGE_STRING = START + PAD + END
VISION_NAMES = ("qkv", "q_proj")
"""LoRA by name alone reaches the vision tower's fused ``qkv`` (and a ``q_proj`` elsewhere)."""

# Qwen-VL's turn format (ChatML), each image part as the vision string.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<|vision_start|><|image_pad|><|vision_end|>' }}"
    "{% elif item['type'] == 'text' %}{{ item['text'] }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{{ '<|im_end|>\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def qwen_tokenizer():
    """The locally trained tokenizer of ``tests/tiny_vlm.py`` with Qwen's vision tokens, named, and the template."""
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [START, PAD, END, VIDEO]})
    tokenizer._set_model_specific_special_tokens({"image_token": PAD, "video_token": VIDEO,
                                                  "vision_bos_token": START, "vision_eos_token": END})
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def vision_token_ids(tokenizer) -> dict[str, int]:
    """The config fields naming the vision tokens' ids."""
    return {name: tokenizer.convert_tokens_to_ids(tok) for name, tok in
            (("image_token_id", PAD), ("video_token_id", VIDEO), ("vision_start_token_id", START),
             ("vision_end_token_id", END))}


def processor_sizes(patch: int, **extra) -> dict:
    """The image and video processors' shared arguments for patches of ``patch`` px: between 2 x 2 and
    4 x 4 merged tokens per image, so a chart image becomes a handful of tokens."""
    side = patch * MERGE
    size = {"shortest_edge": (2 * side) ** 2, "longest_edge": (4 * side) ** 2}
    return {"size": size, "patch_size": patch, "merge_size": MERGE, "temporal_patch_size": 2, **extra}


def build_qwen(out_dir, model_class, processor_class, image_processor_class, video_processor_class, make_config,
               *, patch: int, seed: int, **processor_extra) -> Path:
    """Build a tiny Qwen-VL of ``model_class`` from ``make_config(tokenizer)`` (seeded), with its processor's
    image and video sub-processors (the processor requires the video one: torchvision, made to import by
    ``scripts/torchvision_cpu.py``), and ``save_pretrained`` everything to ``out_dir``."""
    import torch

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = qwen_tokenizer()
    sizes = processor_sizes(patch, **processor_extra)
    processor = processor_class(image_processor=image_processor_class(**sizes), tokenizer=tokenizer,
                                video_processor=video_processor_class(**sizes), chat_template=CHAT_TEMPLATE)
    torch.manual_seed(seed)
    model = model_class(make_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)
