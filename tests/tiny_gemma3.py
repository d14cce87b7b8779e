"""A tiny, randomly initialised Gemma 3 built offline: a model whose image string is not ``<image>``.

Gemma 3's processor expects ``<start_of_image>`` in the text (its tokenizer's ``boi_token``) and
expands each into ``<start_of_image>`` + ``image_seq_length`` x ``<image_soft_token>`` +
``<end_of_image>``; the model's config names ``<image_soft_token>`` as its image token. So
lm-eval's plain (no chat template) path, which puts the config's image token where chartprobe's
prompts say ``<image>``, feeds the model one soft token per image and fails with a shape mismatch;
the chat template (written here in Gemma 3's shape: turns, ``<start_of_image>`` per image part)
gives the right string. ``build_tiny_gemma3(out_dir)`` writes a real
``Gemma3ForConditionalGeneration`` (SigLIP tower, Gemma 3 text model) with the locally trained
tokenizer of ``tests/tiny_vlm.py``; it loads with ``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 28
PATCH_SIZE = 14
MM_TOKENS = 4  # soft tokens per image after Gemma 3's average pooling: (28 / 14)^2 = 4
BOI, EOI, SOFT = "<start_of_image>", "<end_of_image>", "<image_soft_token>"
SEED = 2718

# Gemma 3's turn format: <start_of_turn>role ... <end_of_turn>, images as <start_of_image>.
CHAT_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}"
    "{{ '<start_of_turn>' + ('model' if message['role'] == 'assistant' else message['role']) + '\n' }}"
    "{% if message['content'] is string %}{{ message['content'] | trim }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<start_of_image>' }}"
    "{% elif item['type'] == 'text' %}{{ item['text'] | trim }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{{ '<end_of_turn>\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import Gemma3Config, Gemma3TextConfig, SiglipVisionConfig

    vision = SiglipVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                num_attention_heads=2, image_size=IMAGE_SIZE, patch_size=PATCH_SIZE)
    text = Gemma3TextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                            num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                            max_position_embeddings=2048, sliding_window=64,
                            eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                            bos_token_id=None)
    return Gemma3Config(vision_config=vision, text_config=text, mm_tokens_per_image=MM_TOKENS,
                        boi_token_index=tokenizer.convert_tokens_to_ids(BOI),
                        eoi_token_index=tokenizer.convert_tokens_to_ids(EOI),
                        image_token_index=tokenizer.convert_tokens_to_ids(SOFT),
                        pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)


@family("gemma3", image_string=BOI)
def build_tiny_gemma3(out_dir: str | Path) -> Path:
    """Build the tiny Gemma 3 (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import Gemma3ForConditionalGeneration, Gemma3Processor
    from transformers.models.gemma3.image_processing_pil_gemma3 import Gemma3ImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [BOI, EOI, SOFT]})
    # Named, as Gemma 3's tokenizer config names them (saved with it, so AutoProcessor finds them).
    tokenizer._set_model_specific_special_tokens({"boi_token": BOI, "eoi_token": EOI, "image_token": SOFT})
    tokenizer.chat_template = CHAT_TEMPLATE  # saved last: it must not put the ChatML one back
    image_processor = Gemma3ImageProcessorPil(size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    processor = Gemma3Processor(image_processor=image_processor, tokenizer=tokenizer,
                                image_seq_length=MM_TOKENS, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = Gemma3ForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_gemma3(sys.argv[1] if len(sys.argv) > 1 else "tiny-gemma3"))
