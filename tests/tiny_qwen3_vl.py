"""A tiny, randomly initialised Qwen3-VL built offline: Qwen's newest family, with DeepStack.

Qwen3-VL's processor expects ``<|vision_start|><|image_pad|><|vision_end|>`` per image in the text
and expands the ``<|image_pad|>`` into one token per merged patch, as Qwen2/2.5-VL do, but with
patches of 16 px (the image resized to a multiple of 32 between ``min_pixels`` and ``max_pixels``)
and pixels normalised to [-1, 1]. Its vision tower adds learned absolute position embeddings
(a square grid of ``num_position_embeddings``, resampled to each image's grid) to 2-D RoPE; its
DeepStack mergers project the features of the ``deepstack_visual_indexes`` vision blocks and add
them, at the image tokens, to the output of the first language-model layers. The language model
is Qwen3's (explicit ``head_dim``, norms on q and k) with interleaved M-RoPE; a video's frames are
each written with a ``<t seconds>`` timestamp (its video sub-processor, Qwen3-VL's own).
``build_tiny_qwen3_vl(out_dir)`` writes a real ``Qwen3VLForConditionalGeneration`` with the locally
trained tokenizer of ``tests/tiny_vlm.py`` plus Qwen's vision tokens, and a chat template in Qwen's
shape (ChatML turns, the vision string per image part); it loads with ``AutoProcessor`` +
``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from qwen_parts import IMAGE_STRING, MERGE, VISION_NAMES, build_qwen, vision_token_ids
from zoo import family

PATCH = 16
SEED = 3141


def _model_config(tokenizer):
    from transformers import Qwen3VLConfig
    from transformers.models.qwen3_vl.configuration_qwen3_vl import Qwen3VLTextConfig, Qwen3VLVisionConfig

    # DeepStack: block 0's features go to the first language-model layer (the last block's to the embeddings)
    vision = Qwen3VLVisionConfig(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=PATCH,
                                 spatial_merge_size=MERGE, temporal_patch_size=2, out_hidden_size=64,
                                 num_position_embeddings=64, deepstack_visual_indexes=[0])
    # Interleaved M-RoPE over the head's half-dimension (16 / 2 = 8): height and width every third slot
    text = Qwen3VLTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128,
                             num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                             max_position_embeddings=2048,
                             rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                              "mrope_section": [4, 2, 2], "mrope_interleaved": True},
                             pad_token_id=tokenizer.pad_token_id)
    ids = vision_token_ids(tokenizer)
    return Qwen3VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=False, **ids)


@family("qwen3_vl", image_string=IMAGE_STRING, vision_names=VISION_NAMES)
def build_tiny_qwen3_vl(out_dir: str | Path) -> Path:
    """Build the tiny Qwen3-VL (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    from transformers import Qwen3VLForConditionalGeneration, Qwen3VLProcessor

    # Qwen3-VL reuses Qwen2-VL's image processor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen3_vl.video_processing_qwen3_vl import Qwen3VLVideoProcessor

    return build_qwen(out_dir, Qwen3VLForConditionalGeneration, Qwen3VLProcessor,
                      Qwen2VLImageProcessorPil, Qwen3VLVideoProcessor, _model_config, patch=PATCH, seed=SEED,
                      image_mean=[0.5] * 3, image_std=[0.5] * 3)  # pixels to [-1, 1]


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_qwen3_vl(sys.argv[1] if len(sys.argv) > 1 else "tiny-qwen3-vl"))
