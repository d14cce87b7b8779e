"""A tiny, randomly initialised SmolVLM built offline: Idefics3's small successor with a video path.

SmolVLM (HuggingFaceTB's SmolVLM/SmolVLM2) keeps Idefics3's layout -- SigLIP-style vision tower,
pixel-shuffle connector, Llama text model, ``<image>`` expanded by the processor into
``<fake_token_around_image><global-img>`` + ``image_seq_len`` x ``<image>`` +
``<fake_token_around_image>`` -- but its processor always carries a video sub-processor and needs
``num2words`` (frame counts are spelled out in video prompts) just to be constructed, and its chat
template is SmolVLM's own (``User:``/``Assistant:`` turns ending in ``<end_of_utterance>``).
``build_tiny_smolvlm(out_dir)`` writes a real ``SmolVLMForConditionalGeneration`` with the locally
trained tokenizer of ``tests/tiny_vlm.py`` plus SmolVLM's special tokens; no image splitting, so an
image is one global crop; it loads with ``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 32
PATCH_SIZE = 8
SCALE_FACTOR = 2
# <image> tokens per image after the pixel shuffle: (32 / 8)^2 patches / 2^2 = 4 (7 with the wrapping tokens).
IMAGE_SEQ_LEN = (IMAGE_SIZE // PATCH_SIZE) ** 2 // SCALE_FACTOR**2
IMAGE_TOKEN = "<image>"
IMAGE_STRING = IMAGE_TOKEN
EXTRA_TOKENS = ["<fake_token_around_image>", "<global-img>", "<end_of_utterance>", "<video>"]
SEED = 3141

# SmolVLM's turn format: <|im_start|>User:<image>text<end_of_utterance>\nAssistant: ...
CHAT_TEMPLATE = (
    "<|im_start|>{% for message in messages %}{{ message['role'] | capitalize }}"
    "{% if message['content'] is string %}{{ ': ' + message['content'] }}"
    "{% else %}{% if message['content'][0]['type'] == 'image' %}{{ ':' }}{% else %}{{ ': ' }}{% endif %}"
    "{% for line in message['content'] %}"
    "{% if line['type'] == 'text' %}{{ line['text'] }}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}"
    "{% elif line['type'] == 'video' %}{{ '<video>' }}{% endif %}"
    "{% endfor %}{% endif %}"
    "<end_of_utterance>\n{% endfor %}"
    "{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import LlamaConfig, SmolVLMConfig
    from transformers.models.smolvlm.configuration_smolvlm import SmolVLMVisionConfig

    vision = SmolVLMVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                 num_attention_heads=2, image_size=IMAGE_SIZE, patch_size=PATCH_SIZE)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                       eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=None, tie_word_embeddings=False)
    return SmolVLMConfig(vision_config=vision, text_config=text, scale_factor=SCALE_FACTOR,
                         image_token_id=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
                         pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)


@family("smolvlm", image_string=None)
def build_tiny_smolvlm(out_dir: str | Path) -> Path:
    """Build the tiny SmolVLM (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import SmolVLMForConditionalGeneration, SmolVLMProcessor
    from transformers.models.smolvlm.image_processing_pil_smolvlm import SmolVLMImageProcessorPil
    from transformers.models.smolvlm.video_processing_smolvlm import SmolVLMVideoProcessor

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": EXTRA_TOKENS})
    tokenizer.chat_template = CHAT_TEMPLATE
    size, longest = {"longest_edge": IMAGE_SIZE}, {"longest_edge": IMAGE_SIZE}
    # No splitting: one global image of IMAGE_SIZE px, so every image costs IMAGE_SEQ_LEN <image> tokens.
    image_processor = SmolVLMImageProcessorPil(do_image_splitting=False, size=size, max_image_size=longest)
    # The processor requires its video sub-processor (torchvision: scripts/torchvision_cpu.py makes it import)
    video_processor = SmolVLMVideoProcessor(size=size, max_image_size=longest)
    processor = SmolVLMProcessor(image_processor=image_processor, tokenizer=tokenizer,
                                 video_processor=video_processor, image_seq_len=IMAGE_SEQ_LEN,
                                 chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = SmolVLMForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_smolvlm(sys.argv[1] if len(sys.argv) > 1 else "tiny-smolvlm"))
