"""A tiny, randomly initialised InternVL (3 / 3.5, the native transformers port) built offline.

InternVL's chat template writes ``<IMG_CONTEXT>`` (then a newline) per image part, and its
processor expands each into ``<img>`` + ``image_seq_length`` x ``<IMG_CONTEXT>`` x tiles +
``</img>``: an image is cut into 448 px tiles (plus a thumbnail) and each tile's patch grid is
pixel-shuffled 2 x 2 before the MLP projector, so the count is per tile, not per image. The
processor's tokens are named in the tokenizer (``context_image_token``, ``start_image_token``,
``end_image_token``, ``video_token``), not in the processor. ``build_tiny_internvl(out_dir)``
writes a real ``InternVLForConditionalGeneration`` (InternViT tower, Qwen2 text model) with the
locally trained tokenizer of ``tests/tiny_vlm.py``, one 56 px tile per image (tiling off) so an
image is 4 tokens, and a chat template in InternVL's shape (ChatML turns); it loads with
``AutoProcessor`` + ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from tiny_vlm import build_tokenizer, save_tiny_model
from zoo import family

IMAGE_SIZE = 56
PATCH_SIZE = 14
MM_TOKENS = 4  # (56 / 14)^2 = 16 patches, pixel-shuffled by 0.5 -> 4 tokens per tile
START, END, CONTEXT, VIDEO = "<img>", "</img>", "<IMG_CONTEXT>", "<video>"
IMAGE_TOKEN = CONTEXT
IMAGE_STRING = CONTEXT  # what the chat template writes per image (before its newline)
SEED = 1414

# InternVL's turn format (ChatML), each image part as <IMG_CONTEXT> and a newline.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<IMG_CONTEXT>\n' }}"
    "{% elif item['type'] == 'video' %}{{ '<video>\n' }}"
    "{% elif item['type'] == 'text' %}{{ item['text'] }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{{ '<|im_end|>\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def _model_config(tokenizer):
    from transformers import InternVLConfig, InternVLVisionConfig, Qwen2Config

    vision = InternVLVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                                  image_size=IMAGE_SIZE, patch_size=PATCH_SIZE)
    text = Qwen2Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                       eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=None, tie_word_embeddings=False)
    return InternVLConfig(vision_config=vision, text_config=text, image_seq_length=MM_TOKENS,
                          image_token_id=tokenizer.convert_tokens_to_ids(CONTEXT), downsample_ratio=0.5,
                          vision_feature_select_strategy="default", vision_feature_layer=-1,
                          tie_word_embeddings=False)


@family("internvl", image_string=None)  # its template writes the config's image token
def build_tiny_internvl(out_dir: str | Path) -> Path:
    """Build the tiny InternVL (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    import torch
    from transformers import InternVLForConditionalGeneration, InternVLProcessor
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil
    from transformers.models.internvl.video_processing_internvl import InternVLVideoProcessor

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [START, END, CONTEXT, VIDEO]})
    tokenizer._set_model_specific_special_tokens({"start_image_token": START, "end_image_token": END,
                                                  "context_image_token": CONTEXT, "video_token": VIDEO,
                                                  "image_token": CONTEXT})  # not tiny_vlm's <image>
    tokenizer.chat_template = CHAT_TEMPLATE
    size = {"height": IMAGE_SIZE, "width": IMAGE_SIZE}
    # One tile per image: the processor's own default turns cropping on, max_patches=1 keeps it at one.
    image_processor = GotOcr2ImageProcessorPil(size=size, crop_to_patches=False, min_patches=1, max_patches=1)
    video_processor = InternVLVideoProcessor(size=size)
    processor = InternVLProcessor(image_processor=image_processor, tokenizer=tokenizer, video_processor=video_processor,
                                  image_seq_length=MM_TOKENS, chat_template=CHAT_TEMPLATE)
    torch.manual_seed(SEED)
    model = InternVLForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_internvl(sys.argv[1] if len(sys.argv) > 1 else "tiny-internvl"))
