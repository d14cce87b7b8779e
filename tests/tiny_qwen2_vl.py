"""A tiny, randomly initialised Qwen2-VL built offline: the first Qwen family with dynamic resolution.

Qwen2-VL's processor expects ``<|vision_start|><|image_pad|><|vision_end|>`` per image in the text
and expands the ``<|image_pad|>`` into one token per merged patch, a number that depends on the
image's size (patches of 14 px, merged 2 x 2, the image resized to a multiple of 28 between
``min_pixels`` and ``max_pixels``); positions are 3-D (M-RoPE, sections in order: temporal, height,
width). Unlike Qwen2.5-VL, its vision tower attends over the whole image in every block (no
windows), uses LayerNorm and a QuickGELU MLP sized by ``mlp_ratio``, and its width (``embed_dim``)
is set apart from ``hidden_size``, the language model's width its merger projects to.
``build_tiny_qwen2_vl(out_dir)`` writes a real ``Qwen2VLForConditionalGeneration`` with the locally
trained tokenizer of ``tests/tiny_vlm.py`` plus Qwen's vision tokens, and a chat template in Qwen's
shape (ChatML turns, the vision string per image part); it loads with ``AutoProcessor`` +
``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from qwen_parts import IMAGE_STRING, MERGE, VISION_NAMES, build_qwen, vision_token_ids
from zoo import family

PATCH = 14
SEED = 2718


def _model_config(tokenizer):
    from transformers import Qwen2VLConfig
    from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLTextConfig, Qwen2VLVisionConfig

    # embed_dim: the tower's own width; hidden_size: what its merger outputs (the language model's width)
    vision = Qwen2VLVisionConfig(depth=2, embed_dim=32, hidden_size=64, mlp_ratio=2, num_heads=2,
                                 patch_size=PATCH, spatial_merge_size=MERGE, temporal_patch_size=2)
    # M-RoPE: temporal, height and width sections of the head's half-dimension (16 / 2 = 8)
    text = Qwen2VLTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128,
                             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                             max_position_embeddings=2048,
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                              "mrope_section": [2, 3, 3]},
                             bos_token_id=None, eos_token_id=tokenizer.eos_token_id,
                             pad_token_id=tokenizer.pad_token_id)
    ids = vision_token_ids(tokenizer)
    return Qwen2VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=False, **ids)


@family("qwen2_vl", image_string=IMAGE_STRING, vision_names=VISION_NAMES)
def build_tiny_qwen2_vl(out_dir: str | Path) -> Path:
    """Build the tiny Qwen2-VL (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    from transformers import Qwen2VLForConditionalGeneration, Qwen2VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    return build_qwen(out_dir, Qwen2VLForConditionalGeneration, Qwen2VLProcessor,
                      Qwen2VLImageProcessorPil, Qwen2VLVideoProcessor, _model_config, patch=PATCH, seed=SEED)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_qwen2_vl(sys.argv[1] if len(sys.argv) > 1 else "tiny-qwen2-vl"))
