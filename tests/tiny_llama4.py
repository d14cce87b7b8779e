"""A tiny, randomly initialised Llama 4 built offline: a mixture-of-experts text model, pixel-shuffled tiles.

Llama 4 (``Llama4ForConditionalGeneration``) pairs a vision tower over fixed-size tiles (2-D RoPE, a
pixel shuffle that folds 2 x 2 patches into one token) with a text model whose layers alternate a dense
MLP and a mixture of experts (a router, routed experts as fused parameters, a shared expert), and whose
RoPE layers attend in chunks while NoPE layers attend to everything. ``Llama4Processor`` expands each
``<|image|>`` into ``<|image_start|>`` + ``<|image|>`` + ``<|patch|>`` per token + ``<|image_end|>``
(tiles and their separators first when an image spans several); the config's image token is
``<|patch|>``, so only those receive image features. Its image processor returns **bfloat16** pixel
values whatever the model's dtype. ``build_tiny_llama4(out_dir)`` writes a real checkpoint with the
locally trained tokenizer of ``tests/tiny_vlm.py`` plus Llama 4's control tokens and a chat template in
Llama 4's shape (``<|header_start|>role<|header_end|>``...``<|eot|>``); one 28 px tile per image (no
tiling) gives 4 tokens, one of them ``<|patch|>``; it loads with ``AutoProcessor`` +
``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

TILE, PATCH = 28, 14  # (28 / 14)^2 patches, pixel-shuffled by 0.5: one <|patch|> per image
IMAGE_STRING, PATCH_TOKEN, EOT = "<|image|>", "<|patch|>", "<|eot|>"
CONTROL = ["<|image_start|>", "<|image_end|>", "<|tile_x_separator|>", "<|tile_y_separator|>",
           "<|header_start|>", "<|header_end|>"]
SEED = 1997

# Llama 4's turn format: <|header_start|>role<|header_end|>\n\n ... <|eot|>, images as <|image|>.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|header_start|>' + message['role'] + '<|header_end|>\n\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] in ['image', 'image_url'] %}{{ '<|image|>' }}"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{{ '<|eot|>' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|header_start|>assistant<|header_end|>\n\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import Llama4Config, Llama4TextConfig, Llama4VisionConfig

    ids = tokenizer.convert_tokens_to_ids
    # intermediate_size is what the pixel shuffle yields (32 / 0.5^2); the projector widths must agree.
    vision = Llama4VisionConfig(hidden_size=32, intermediate_size=128, num_hidden_layers=2, num_attention_heads=2,
                                image_size=TILE, patch_size=PATCH, pixel_shuffle_ratio=0.5, projector_input_dim=64,
                                projector_output_dim=64, vision_output_dim=64,
                                rope_parameters={"rope_type": "default", "rope_theta": 10000.0})
    # Layer 0: RoPE, chunked attention, dense MLP; layer 1: NoPE, full attention, 2 experts + shared one.
    text = Llama4TextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=64,
                            intermediate_size_mlp=128, num_hidden_layers=2, num_attention_heads=4,
                            num_key_value_heads=2, head_dim=16, num_local_experts=2, num_experts_per_tok=1,
                            interleave_moe_layer_step=2, no_rope_layers=[1, 0], attention_chunk_size=1024,
                            max_position_embeddings=2048, eos_token_id=ids(EOT),
                            pad_token_id=tokenizer.pad_token_id, bos_token_id=None)
    return Llama4Config(vision_config=vision, text_config=text, boi_token_index=ids("<|image_start|>"),
                        eoi_token_index=ids("<|image_end|>"), image_token_index=ids(PATCH_TOKEN))


@family("llama4", image_string=IMAGE_STRING)
def build_tiny_llama4(out_dir: str | Path) -> Path:
    """Build the tiny Llama 4 (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Llama4ForConditionalGeneration, Llama4ImageProcessor, Llama4Processor

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"eos_token": EOT,
                                  "additional_special_tokens": [IMAGE_STRING, PATCH_TOKEN, *CONTROL]})
    tokenizer._set_model_specific_special_tokens({"image_token": IMAGE_STRING})
    tokenizer.chat_template = CHAT_TEMPLATE
    # No PIL variant in transformers: the torchvision one, which normalizes in bfloat16.
    image_processor = Llama4ImageProcessor(size={"height": TILE, "width": TILE}, max_patches=1)
    processor = Llama4Processor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH,
                                pixel_shuffle_ratio=0.5, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Llama4ForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_llama4(sys.argv[1] if len(sys.argv) > 1 else "tiny-llama4"))
