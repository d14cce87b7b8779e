"""A tiny, randomly initialised LLaVA-NeXT built offline: tiled ("anyres") images and an unpadded grid.

LLaVA-NeXT keeps LLaVA's ``<image>`` string, but its processor expands each into a number of
tokens that depends on the image's size (a base tile plus a grid of crops, minus unpadding), so a
prompt and its image must reach the processor together. ``build_tiny_llava_next(out_dir)`` writes
a real ``LlavaNextForConditionalGeneration`` (CLIP tower, Llama text model, 28 px tiles on a 2x1
or 1x2 grid) with the locally trained tokenizer and ChatML template of ``tests/tiny_vlm.py``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import CHAT_TEMPLATE, IMAGE_TOKEN, build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 28
PATCH_SIZE = 14
GRID = [[28, 28], [28, 56], [56, 28]]
SEED = 3141


def _model_config(tokenizer):
    from transformers import CLIPVisionConfig, LlamaConfig, LlavaNextConfig

    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                              image_size=IMAGE_SIZE, patch_size=PATCH_SIZE, projection_dim=32)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                       eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=None, tie_word_embeddings=False)
    return LlavaNextConfig(vision_config=vision, text_config=text, image_grid_pinpoints=GRID,
                           image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
                           vision_feature_select_strategy="default", vision_feature_layer=-1)


@family("llava_next", image_string=None)
def build_tiny_llava_next(out_dir: str | Path) -> Path:
    """Build the tiny LLaVA-NeXT (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import LlavaNextForConditionalGeneration, LlavaNextProcessor
    from transformers.models.llava_next.image_processing_pil_llava_next import LlavaNextImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    image_processor = LlavaNextImageProcessorPil(size={"shortest_edge": IMAGE_SIZE},
                                                 crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE},
                                                 image_grid_pinpoints=GRID)
    processor = LlavaNextProcessor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH_SIZE,
                                   vision_feature_select_strategy="default", num_additional_image_tokens=1,
                                   chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = LlavaNextForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_llava_next(sys.argv[1] if len(sys.argv) > 1 else "tiny-llava-next"))
