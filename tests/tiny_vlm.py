"""A tiny, randomly initialised LLaVA model built entirely offline for tests.

``build_tiny_vlm(out_dir)`` writes a real ``LlavaForConditionalGeneration`` checkpoint
(~200k parameters, < 1 MB) with a locally trained byte-level BPE tokenizer, a PIL CLIP
image processor and a ChatML chat template.  It loads with ``AutoProcessor`` +
``AutoModelForImageTextToText`` (no remote code), so every consumer -- lm-eval
``hf-multimodal``, ``transformers serve``, TRL/PEFT training -- exercises the same code
path it would with a Hub VLM.  Everything is seeded: two builds give identical weights.
"""

from __future__ import annotations

from pathlib import Path

from zoo import family

IMAGE_TOKEN = "<image>"
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<pad>", IMAGE_TOKEN]
VOCAB_SIZE = 512
IMAGE_SIZE = 28
PATCH_SIZE = 14
SEED = 1234

# ChatML. Message content may be a string or a list of typed parts (the OpenAI/processor
# format); image parts become the image token so the processor can expand it.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' or part['type'] == 'image_url' %}{{ '<image>' }}"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}"
    "{{ '<|im_end|>\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def _training_corpus() -> list[str]:
    """Deterministic text resembling chart questions and answers, for BPE training."""
    labels = ["Canada", "France", "Brazil", "Japan", "Kenya", "India", "Peru", "Chile"]
    lines = []
    for i, label in enumerate(labels * 8):
        value = (i * 37) % 101
        lines.append(f"What is the value of {label}? Answer with the value only. {value}")
        lines.append(f"Which bar is the highest? {label}. The answer is {value}.5")
        lines.append(f"user assistant system chart legend axis title {i} {value}%")
    return lines


def build_tokenizer():
    """Train a ~512-token byte-level BPE and wrap it as a ``PreTrainedTokenizerFast``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(_training_corpus(), trainer=trainer)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core,
        eos_token="<|im_end|>",
        pad_token="<pad>",
        bos_token=None,
        unk_token=None,
        extra_special_tokens={"image_token": IMAGE_TOKEN},
        model_max_length=2048,
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


def _model_config(tokenizer):
    from transformers import CLIPVisionConfig, LlamaConfig, LlavaConfig

    vision = CLIPVisionConfig(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        image_size=IMAGE_SIZE,
        patch_size=PATCH_SIZE,
        projection_dim=32,
    )
    text = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
        tie_word_embeddings=False,
    )
    return LlavaConfig(
        vision_config=vision,
        text_config=text,
        image_token_id=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
        vision_feature_select_strategy="default",
        vision_feature_layer=-1,
    )


@family("llava", image_string=None)
def build_tiny_vlm(out_dir: str | Path) -> Path:
    """Build the tiny LLaVA (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``.

    Returns ``out_dir`` as a ``Path``.  Deterministic: the same seed gives the same weights.
    """
    import torch
    from transformers import LlavaForConditionalGeneration, LlavaProcessor
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    image_processor = CLIPImageProcessorPil(
        size={"shortest_edge": IMAGE_SIZE},
        crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE},
    )
    processor = LlavaProcessor(
        image_processor=image_processor,
        tokenizer=tokenizer,
        patch_size=PATCH_SIZE,
        vision_feature_select_strategy="default",
        num_additional_image_tokens=1,  # CLIP's CLS token, dropped by the "default" strategy
        chat_template=CHAT_TEMPLATE,
    )
    torch.manual_seed(SEED)
    model = LlavaForConditionalGeneration(_model_config(tokenizer)).eval()
    return save_tiny_model(model, processor, tokenizer, out)


def save_tiny_model(model, processor, tokenizer, out: Path) -> Path:
    """Greedy generation ending at the tokenizer's EOS, then model + processor + tokenizer saved."""
    gen = model.generation_config
    gen.eos_token_id = tokenizer.eos_token_id
    gen.pad_token_id = tokenizer.pad_token_id
    gen.bos_token_id = None
    gen.do_sample = False
    model.save_pretrained(out)
    processor.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_vlm(sys.argv[1] if len(sys.argv) > 1 else "tiny-vlm"))
