"""A tiny, randomly initialised Qwen2.5-VL built offline: the papers' most used open model family.

Qwen2.5-VL's processor expects ``<|vision_start|><|image_pad|><|vision_end|>`` per image in the
text and expands the ``<|image_pad|>`` into one token per merged patch, a number that depends on
the image's size (patches of 14 px, merged 2 x 2, the image resized to a multiple of 28 between
``min_pixels`` and ``max_pixels``); positions are 3-D (M-RoPE), the vision tower windowed.
``build_tiny_qwen2_5_vl(out_dir)`` writes a real ``Qwen2_5_VLForConditionalGeneration`` with the
locally trained tokenizer of ``tests/tiny_vlm.py`` plus Qwen's vision tokens, and a chat template
in Qwen's shape (ChatML turns, the vision string per image part); it loads with ``AutoProcessor``
+ ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model

PATCH = 14
MERGE = 2
MIN_PIXELS = 28 * 28 * 4  # at least 2 x 2 merged tokens
MAX_PIXELS = 56 * 56 * 4  # at most 4 x 4: a chart image becomes a handful of tokens
START, PAD, END, VIDEO = "<|vision_start|>", "<|image_pad|>", "<|vision_end|>", "<|video_pad|>"
IMAGE_STRING = START + PAD + END
SEED = 1618

# Qwen2.5-VL's turn format (ChatML), each image part as the vision string.
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


def _model_config(tokenizer):
    from transformers import Qwen2_5_VLConfig
    from transformers.models.qwen2_5_vl.configuration_qwen2_5_vl import (
        Qwen2_5_VLTextConfig,
        Qwen2_5_VLVisionConfig,
    )

    vision = Qwen2_5_VLVisionConfig(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=PATCH,
                                    spatial_merge_size=MERGE, temporal_patch_size=2, window_size=56,
                                    out_hidden_size=64, fullatt_block_indexes=[1])
    # M-RoPE: temporal, height and width sections of the head's half-dimension (16 / 2 = 8)
    text = Qwen2_5_VLTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                                rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                                 "mrope_section": [2, 3, 3]},
                                bos_token_id=None, eos_token_id=tokenizer.eos_token_id,
                                pad_token_id=tokenizer.pad_token_id)
    ids = {name: tokenizer.convert_tokens_to_ids(tok) for name, tok in
           (("image_token_id", PAD), ("video_token_id", VIDEO), ("vision_start_token_id", START),
            ("vision_end_token_id", END))}
    return Qwen2_5_VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=False, **ids)


def build_tiny_qwen2_5_vl(out_dir: str | Path) -> Path:
    """Build the tiny Qwen2.5-VL (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [START, PAD, END, VIDEO]})
    tokenizer._set_model_specific_special_tokens({"image_token": PAD, "video_token": VIDEO,
                                                  "vision_bos_token": START, "vision_eos_token": END})
    tokenizer.chat_template = CHAT_TEMPLATE
    size = {"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS}
    image_processor = Qwen2VLImageProcessorPil(size=size, patch_size=PATCH, merge_size=MERGE, temporal_patch_size=2)
    # The processor requires its video sub-processor (torchvision: scripts/torchvision_cpu.py makes it import)
    video_processor = Qwen2VLVideoProcessor(size=size, patch_size=PATCH, merge_size=MERGE, temporal_patch_size=2)
    processor = Qwen2_5_VLProcessor(image_processor=image_processor, tokenizer=tokenizer,
                                    video_processor=video_processor, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Qwen2_5_VLForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_qwen2_5_vl(sys.argv[1] if len(sys.argv) > 1 else "tiny-qwen2.5-vl"))
