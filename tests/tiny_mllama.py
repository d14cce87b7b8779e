"""A tiny, randomly initialised Mllama (Llama 3.2 Vision) built offline: the cross-attention family.

Unlike LLaVA, Idefics3 and Gemma 3, Mllama does not put image features into the token sequence:
the text attends to them through cross-attention layers, steered by a ``cross_attention_mask``
the processor builds per text token. That mask must grow with ``input_ids`` whenever a collator
appends the completion, or training fails on a shape mismatch. ``build_tiny_mllama(out_dir)``
writes a real ``MllamaForConditionalGeneration`` (one tile of 28 px, one cross-attention layer)
with the locally trained tokenizer of ``tests/tiny_vlm.py`` plus Llama 3.2 Vision's ``<|image|>``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 28
PATCH_SIZE = 14
IMAGE_TOKEN = "<|image|>"
EXTRA_TOKENS = [IMAGE_TOKEN, "<|python_tag|>", "<|begin_of_text|>"]
SEED = 1618

# Llama 3.2 Vision's turn format, an image part written as <|image|>.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' }}"
    "{% if message['content'] is string %}{{ message['content'] | trim }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<|image|>' }}"
    "{% elif item['type'] == 'text' %}{{ item['text'] | trim }}{% endif %}"
    "{% endfor %}{% endif %}{{ '<|eot_id|>' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import MllamaConfig
    from transformers.models.mllama.configuration_mllama import MllamaTextConfig, MllamaVisionConfig

    vision = MllamaVisionConfig(hidden_size=32, num_hidden_layers=2, num_global_layers=1, attention_heads=2,
                                intermediate_size=64, vision_output_dim=64, image_size=IMAGE_SIZE,
                                patch_size=PATCH_SIZE, max_num_tiles=1, intermediate_layers_indices=[0],
                                supported_aspect_ratios=[[1, 1]])
    text = MllamaTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                            cross_attention_layers=[1], num_attention_heads=4, num_key_value_heads=2,
                            max_position_embeddings=2048, eos_token_id=tokenizer.eos_token_id,
                            pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.convert_tokens_to_ids("<|begin_of_text|>"),
                            tie_word_embeddings=False)
    return MllamaConfig(vision_config=vision, text_config=text,
                        image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN))


@family("mllama", image_string=None, cross_attention=True)  # the template writes the config's token
def build_tiny_mllama(out_dir: str | Path) -> Path:
    """Build the tiny Mllama (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import MllamaForConditionalGeneration, MllamaProcessor
    from transformers.models.mllama.image_processing_pil_mllama import MllamaImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": EXTRA_TOKENS})
    tokenizer.bos_token = "<|begin_of_text|>"
    tokenizer._set_model_specific_special_tokens({"image_token": IMAGE_TOKEN})  # what MllamaProcessor expands
    tokenizer.chat_template = CHAT_TEMPLATE
    image_processor = MllamaImageProcessorPil(size={"height": IMAGE_SIZE, "width": IMAGE_SIZE}, max_image_tiles=1)
    processor = MllamaProcessor(image_processor=image_processor, tokenizer=tokenizer, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = MllamaForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_mllama(sys.argv[1] if len(sys.argv) > 1 else "tiny-mllama"))
