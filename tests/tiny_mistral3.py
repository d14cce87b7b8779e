"""A tiny, randomly initialised Mistral 3 built offline: Pixtral's image rows in the token sequence.

Mistral Small 3.x (``Mistral3ForConditionalGeneration``) pairs a Pixtral vision tower (2-D RoPE over
patches, any aspect ratio, no fixed image size) with a Mistral text model; a learned patch merger
folds 2 x 2 patches into one token. ``PixtralProcessor`` expands each ``[IMG]`` in the text into
the image's token grid row by row: ``[IMG]`` per merged patch, ``[IMG_BREAK]`` after each row,
``[IMG_END]`` in place of the last break -- so the count depends on the image's aspect ratio, and
only the ``[IMG]`` tokens receive image features. ``build_tiny_mistral3(out_dir)`` writes a real
checkpoint with the locally trained tokenizer of ``tests/tiny_vlm.py`` plus Mistral's control
tokens and a chat template in Mistral's shape (``[INST]``...``[/INST]``, ``[IMG]`` per image part);
images are resized to a longest edge of 56 px (at most 2 x 2 tokens); it loads with
``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

PATCH = 14
MERGE = 2
LONGEST_EDGE = 56  # (56 / (14 * 2))^2: at most 4 [IMG] tokens, plus one [IMG_BREAK] and the [IMG_END]
IMAGE_TOKEN, BREAK, END = "[IMG]", "[IMG_BREAK]", "[IMG_END]"
IMAGE_STRING = IMAGE_TOKEN
CONTROL = ["[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]"]
SEED = 2357

# Mistral Small 3.1's turn format: [SYSTEM_PROMPT]..[/SYSTEM_PROMPT][INST]user[/INST]answer</s>
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'system' %}{{ '[SYSTEM_PROMPT]' }}{% elif message['role'] == 'user' %}"
    "{{ '[INST]' }}{% endif %}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for block in message['content'] %}"
    "{% if block['type'] == 'text' %}{{ block['text'] }}"
    "{% elif block['type'] in ['image', 'image_url'] %}{{ '[IMG]' }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{% if message['role'] == 'system' %}{{ '[/SYSTEM_PROMPT]' }}{% elif message['role'] == 'user' %}"
    "{{ '[/INST]' }}{% else %}{{ eos_token }}{% endif %}"
    "{% endfor %}"
)


def _model_config(tokenizer):
    from transformers import Mistral3Config, MistralConfig, PixtralVisionConfig

    vision = PixtralVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                                 image_size=LONGEST_EDGE, patch_size=PATCH)
    text = MistralConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=2048,
                         sliding_window=None, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id, bos_token_id=None, tie_word_embeddings=False)
    return Mistral3Config(vision_config=vision, text_config=text, spatial_merge_size=MERGE,
                          image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
                          vision_feature_layer=-1, tie_word_embeddings=False)


@family("mistral3", image_string=None)  # its template writes the config's image token
def build_tiny_mistral3(out_dir: str | Path) -> Path:
    """Build the tiny Mistral 3 (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Mistral3ForConditionalGeneration, PixtralProcessor
    from transformers.models.pixtral.image_processing_pil_pixtral import PixtralImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [IMAGE_TOKEN, BREAK, END, *CONTROL]})
    tokenizer._set_model_specific_special_tokens({"image_token": IMAGE_TOKEN})
    tokenizer.chat_template = CHAT_TEMPLATE
    image_processor = PixtralImageProcessorPil(size={"longest_edge": LONGEST_EDGE},
                                               patch_size={"height": PATCH, "width": PATCH})
    processor = PixtralProcessor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH,
                                 spatial_merge_size=MERGE, image_token=IMAGE_TOKEN, image_break_token=BREAK,
                                 image_end_token=END, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Mistral3ForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_mistral3(sys.argv[1] if len(sys.argv) > 1 else "tiny-mistral3"))
