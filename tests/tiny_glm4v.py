"""A tiny, randomly initialised GLM-4.1V built offline: Qwen-like vision with GLM's own text model.

GLM-4.1V/4.5V's processor expects ``<|begin_of_image|><|image|><|end_of_image|>`` per image and
expands ``<|image|>`` into one token per 2 x 2 merged patch of 14 px (the image resized to multiples
of 28 between a min and max pixel count, counted over 2 frames); positions are 3-D (M-RoPE over
half the head: ``partial_rotary_factor`` 0.5), read from ``mm_token_type_ids``. Unlike Qwen, the
text model fuses the MLP's gate and up projections into one ``gate_up_proj`` layer, while the
vision tower and its merger keep ``gate_proj``/``up_proj``/``down_proj``: a LoRA target list of
short MLP names adapts the vision tower and misses the text MLP. ``build_tiny_glm4v(out_dir)``
writes a real ``Glm4vForConditionalGeneration`` with the locally trained tokenizer of
``tests/tiny_vlm.py`` plus GLM's tokens and a chat template in GLM's shape (``[gMASK]<sop>``,
``<|user|>``/``<|assistant|>`` turns); it loads with ``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

PATCH = 14
MERGE = 2
# smart_resize counts 2 frames: between 2 x 2 and 3 x 3 merged tokens' worth of pixels per image.
MIN_PIXELS = 2 * 56 * 56
MAX_PIXELS = 2 * 84 * 84
BEGIN, IMAGE_TOKEN, END = "<|begin_of_image|>", "<|image|>", "<|end_of_image|>"
VIDEO_TOKENS = ["<|begin_of_video|>", "<|video|>", "<|end_of_video|>"]
TURN_TOKENS = ["[gMASK]", "<sop>", "<|system|>", "<|user|>", "<|assistant|>"]
IMAGE_STRING = BEGIN + IMAGE_TOKEN + END
SEED = 1729

# GLM-4.1V's turn format: [gMASK]<sop><|user|>\n...<|assistant|>\n, each image part as the image string.
CHAT_TEMPLATE = (
    "[gMASK]<sop>{% for message in messages %}"
    "{{ '<|' + message['role'] + '|>\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<|begin_of_image|><|image|><|end_of_image|>' }}"
    "{% elif item['type'] == 'video' %}{{ '<|begin_of_video|><|video|><|end_of_video|>' }}"
    "{% elif item['type'] == 'text' %}{{ item['text'] }}{% endif %}"
    "{% endfor %}{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import Glm4vConfig
    from transformers.models.glm4v.configuration_glm4v import Glm4vTextConfig, Glm4vVisionConfig

    vision = Glm4vVisionConfig(depth=2, hidden_size=32, intermediate_size=128, num_heads=2, patch_size=PATCH,
                               image_size=56, spatial_merge_size=MERGE, temporal_patch_size=2, out_hidden_size=64)
    # M-RoPE on half the head (32 / 2 = 16 dims, 8 frequencies): temporal, height and width sections
    text = Glm4vTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                           num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                           rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                            "partial_rotary_factor": 0.5, "mrope_section": [2, 3, 3]},
                           eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    ids = {name: tokenizer.convert_tokens_to_ids(tok) for name, tok in
           (("image_token_id", IMAGE_TOKEN), ("image_start_token_id", BEGIN), ("image_end_token_id", END),
            ("video_start_token_id", VIDEO_TOKENS[0]), ("video_token_id", VIDEO_TOKENS[1]),
            ("video_end_token_id", VIDEO_TOKENS[2]))}
    return Glm4vConfig(text_config=text, vision_config=vision, tie_word_embeddings=False, **ids)


@family("glm4v", image_string=IMAGE_STRING, vision_names=("gate_proj", "up_proj", "down_proj"))
def build_tiny_glm4v(out_dir: str | Path) -> Path:
    """Build the tiny GLM-4.1V (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Glm4vForConditionalGeneration, Glm4vProcessor
    from transformers.models.glm4v.image_processing_pil_glm4v import Glm4vImageProcessorPil
    from transformers.models.glm4v.video_processing_glm4v import Glm4vVideoProcessor

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [BEGIN, IMAGE_TOKEN, END, *VIDEO_TOKENS,
                                                                *TURN_TOKENS]})
    tokenizer._set_model_specific_special_tokens({"image_token": IMAGE_TOKEN, "video_token": VIDEO_TOKENS[1]})
    tokenizer.chat_template = CHAT_TEMPLATE
    size = {"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS}
    image_processor = Glm4vImageProcessorPil(size=size, patch_size=PATCH, merge_size=MERGE, temporal_patch_size=2)
    # The processor requires its video sub-processor (torchvision: scripts/torchvision_cpu.py makes it import)
    video_processor = Glm4vVideoProcessor(size=size, patch_size=PATCH, merge_size=MERGE, temporal_patch_size=2)
    processor = Glm4vProcessor(image_processor=image_processor, tokenizer=tokenizer,
                               video_processor=video_processor, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Glm4vForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_glm4v(sys.argv[1] if len(sys.argv) > 1 else "tiny-glm4v"))
