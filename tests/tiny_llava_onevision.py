"""A tiny, randomly initialised LLaVA-OneVision built offline: anyres for one image, base tile for several.

LLaVA-OneVision keeps LLaVA's ``<image>`` string, but how many tokens its processor expands each
into depends on the prompt: a sample with one image gets the base tile plus an unpadded grid of
crops with a newline per row (LLaVA-NeXT's anyres, capped by ``anyres_max_9``), while a sample
with several images gets only each image's base tile plus one newline. Its SigLIP tower has no
CLS token ("full" feature strategy), and its chat template writes all of a turn's images first,
then its text (so images are never interleaved with text). ``build_tiny_llava_onevision(out_dir)``
writes a real ``LlavaOnevisionForConditionalGeneration`` (SigLIP tower, Qwen2 text model, 28 px
tiles on a 1x1, 2x1 or 1x2 grid) with the locally trained tokenizer of ``tests/tiny_vlm.py``; it
loads with ``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 28
PATCH_SIZE = 14
GRID = [[28, 28], [28, 56], [56, 28]]
IMAGE_TOKEN = IMAGE_STRING = "<image>"
VIDEO_TOKEN = "<video>"
SEED = 2236

# LLaVA-OneVision's turn format: ChatML, a space after the role, a turn's images first, then its text.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + ' ' }}"
    "{% if message['content'] is string %}{{ '\n' + message['content'] }}"
    "{% else %}"
    "{% for item in message['content'] | selectattr('type', 'equalto', 'image') %}{{ '<image>' }}{% endfor %}"
    "{% for item in message['content'] | selectattr('type', 'equalto', 'video') %}{{ '<video>' }}{% endfor %}"
    "{% for item in message['content'] | selectattr('type', 'equalto', 'text') %}{{ '\n' + item['text'] }}"
    "{% endfor %}{% endif %}"
    "{{ '<|im_end|>\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import LlavaOnevisionConfig, Qwen2Config, SiglipVisionConfig

    vision = SiglipVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                                image_size=IMAGE_SIZE, patch_size=PATCH_SIZE, vision_use_head=False)
    text = Qwen2Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                       eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=None, tie_word_embeddings=False)
    return LlavaOnevisionConfig(vision_config=vision, text_config=text, image_grid_pinpoints=GRID,
                                image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
                                video_token_index=tokenizer.convert_tokens_to_ids(VIDEO_TOKEN),
                                vision_feature_select_strategy="full", vision_feature_layer=-1,
                                vision_aspect_ratio="anyres_max_9", tie_word_embeddings=False)


@family("llava_onevision", image_string=None, shared_budget=True)
def build_tiny_llava_onevision(out_dir: str | Path) -> Path:
    """Build the tiny LLaVA-OneVision (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import LlavaOnevisionForConditionalGeneration, LlavaOnevisionProcessor
    from transformers.models.llava_onevision.image_processing_pil_llava_onevision import (
        LlavaOnevisionImageProcessorPil,
    )
    from transformers.models.llava_onevision.video_processing_llava_onevision import (
        LlavaOnevisionVideoProcessor,
    )

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()  # already has <image>
    tokenizer.add_special_tokens({"additional_special_tokens": [VIDEO_TOKEN]})
    tokenizer._set_model_specific_special_tokens({"image_token": IMAGE_TOKEN, "video_token": VIDEO_TOKEN})
    tokenizer.chat_template = CHAT_TEMPLATE
    size = {"height": IMAGE_SIZE, "width": IMAGE_SIZE}
    image_processor = LlavaOnevisionImageProcessorPil(size=size, image_grid_pinpoints=GRID)
    video_processor = LlavaOnevisionVideoProcessor(size=size)
    processor = LlavaOnevisionProcessor(image_processor=image_processor, tokenizer=tokenizer,
                                        video_processor=video_processor, num_image_tokens=(IMAGE_SIZE // PATCH_SIZE) ** 2,
                                        vision_feature_select_strategy="full", vision_aspect_ratio="anyres_max_9",
                                        chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = LlavaOnevisionForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_llava_onevision(sys.argv[1] if len(sys.argv) > 1 else "tiny-llava-onevision"))
