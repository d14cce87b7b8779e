"""A tiny, randomly initialised Idefics3 model built offline: the second test architecture.

``build_tiny_idefics3(out_dir)`` writes a real ``Idefics3ForConditionalGeneration``
checkpoint (SigLIP-style vision tower + pixel-shuffle connector + Llama text model) with the
same locally trained tokenizer as ``tests/tiny_vlm.py`` plus the Idefics3 special tokens.
It matters for training tests because, unlike LLaVA's CLIP tower, the Idefics3 vision
encoder names its attention layers ``q_proj``/``k_proj``/``v_proj``/``out_proj`` like the
language model does: a LoRA target list of short names would silently adapt the vision
tower too. Loads with ``AutoProcessor`` + ``AutoModelForImageTextToText``; seeded.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import CHAT_TEMPLATE, build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 32
PATCH_SIZE = 8
SCALE_FACTOR = 2
# Tokens per image after the pixel shuffle: (32 / 8)^2 patches / 2^2 = 4.
IMAGE_SEQ_LEN = (IMAGE_SIZE // PATCH_SIZE) ** 2 // SCALE_FACTOR**2
# Idefics3Processor wraps every image in these; adding them up front keeps them single tokens.
EXTRA_TOKENS = ["<fake_token_around_image>", "<end_of_utterance>", "<global-img>"]
SEED = 4321


def _model_config(tokenizer):
    from transformers import Idefics3Config, Idefics3VisionConfig, LlamaConfig

    vision = Idefics3VisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                  num_attention_heads=2, image_size=IMAGE_SIZE, patch_size=PATCH_SIZE)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                       eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=None, tie_word_embeddings=False)
    return Idefics3Config(vision_config=vision, text_config=text, scale_factor=SCALE_FACTOR,
                          image_token_id=tokenizer.convert_tokens_to_ids("<image>"),
                          pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)


@family("idefics3", image_string=None)
def build_tiny_idefics3(out_dir: str | Path) -> Path:
    """Build the tiny Idefics3 (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Idefics3ForConditionalGeneration, Idefics3Processor
    from transformers.models.idefics3.image_processing_pil_idefics3 import Idefics3ImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": EXTRA_TOKENS})
    # No splitting: one global image of IMAGE_SIZE px, so every image costs IMAGE_SEQ_LEN tokens.
    image_processor = Idefics3ImageProcessorPil(
        do_image_splitting=False, size={"longest_edge": IMAGE_SIZE},
        max_image_size={"longest_edge": IMAGE_SIZE})
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer,
                                  image_seq_len=IMAGE_SEQ_LEN, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Idefics3ForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_idefics3(sys.argv[1] if len(sys.argv) > 1 else "tiny-idefics3"))
