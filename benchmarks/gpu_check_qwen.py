"""A randomly initialised Qwen2.5-VL, at Qwen2.5-VL-7B's real shape or tiny, built offline for gpu_check.

No download: the model comes from ``Qwen2_5_VLConfig`` with the dimensions of
``Qwen/Qwen2.5-VL-7B-Instruct``'s config.json (the text defaults of ``Qwen2_5_VLTextConfig`` are the
72B's, so every dimension is spelled out), the tokenizer is a byte-level BPE trained here on chart-like
text with Qwen's special tokens and chat template (tests/tiny_vlm.py's approach), and the image
processor is ``Qwen2VLImageProcessor`` from defaults with ``max_pixels`` kept modest so a chart is a few
hundred visual tokens. The full ``Qwen2_5_VLProcessor`` needs torchvision (its video sub-processor);
without it only the model, the tokenizer and the PIL image processor are saved, and
:func:`generate_check` exercises them directly (two images, real preprocessing, greedy generation).

    python benchmarks/gpu_check_qwen.py OUT_DIR [--size 7b|tiny] [--device cuda|cpu] [--generate N]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

SEED = 1234
VOCAB = 1024
MIN_PIXELS = 4 * 28 * 28
MAX_PIXELS = 256 * 28 * 28  # <= 256 merged visual tokens per image
SPECIAL_TOKENS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
    "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
]
# Qwen2-VL / Qwen2.5-VL's own chat template: image parts become <|vision_start|><|image_pad|><|vision_end|>.
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}"
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}"
    "{% if add_vision_id %}Picture {{ image_count.value }}: "
    "{% endif %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}"
    "{% set video_count.value = video_count.value + 1 %}"
    "{% if add_vision_id %}Video {{ video_count.value }}: {% endif %}"
    "<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Qwen/Qwen2.5-VL-7B-Instruct's config.json (vocab 152064 although the tokenizer here is small: the
# embedding and LM head cost what they cost in the real model; ids the tokenizer lacks decode to "").
SHAPES = {
    "7b": {
        "text": {"vocab_size": 152064, "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
                 "num_attention_heads": 28, "num_key_value_heads": 4, "max_position_embeddings": 128000,
                 "max_window_layers": 28, "rms_norm_eps": 1e-6,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]}},
        "vision": {"depth": 32, "hidden_size": 1280, "intermediate_size": 3420, "num_heads": 16,
                   "out_hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                   "window_size": 112, "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2},
    },
    "tiny": {
        "text": {"vocab_size": None, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
                 "num_attention_heads": 4, "num_key_value_heads": 2, "max_position_embeddings": 4096,
                 "max_window_layers": 2, "rms_norm_eps": 1e-6,
                 "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3]}},
        "vision": {"depth": 2, "hidden_size": 32, "intermediate_size": 64, "num_heads": 2, "out_hidden_size": 64,
                   "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2, "window_size": 112,
                   "fullatt_block_indexes": [1], "tokens_per_second": 2},
    },
}


def _corpus() -> list[str]:
    """Deterministic chart-question text for BPE training (what the benchmarks' prompts look like)."""
    labels = ["Canada", "France", "Brazil", "Japan", "Kenya", "India", "Peru", "Chile", "Q1", "Q2", "2019"]
    lines = []
    for i, label in enumerate(labels * 12):
        value = (i * 37) % 101
        lines += [f"What is the value of {label}? Answer with the value only. {value}",
                  f"Which bar is the highest? {label}. The answer is {value}.5 <answer>{label}</answer>",
                  f"Final Answer: {value}% legend axis title series chart pie line scatter {i}",
                  "Chart A or Chart B: which one is better? Accept or reject the reproduction."]
    return lines


def build_tokenizer():
    """A byte-level BPE with Qwen's special tokens and chat template (eos <|im_end|>, pad <|endoftext|>)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    core.train_from_iterator(_corpus(), trainer=trainers.BpeTrainer(
        vocab_size=VOCAB, special_tokens=SPECIAL_TOKENS, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>", bos_token=None,
        unk_token=None, model_max_length=32768,
        extra_special_tokens={"image_token": "<|image_pad|>", "video_token": "<|video_pad|>"})
    tok.chat_template = CHAT_TEMPLATE
    return tok


def model_config(tokenizer, size: str):
    from transformers import Qwen2_5_VLConfig

    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    text = dict(SHAPES[size]["text"], eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
                bos_token_id=None)
    text["vocab_size"] = text["vocab_size"] or len(tokenizer)
    return Qwen2_5_VLConfig(text_config=text, vision_config=dict(SHAPES[size]["vision"]),
                            image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
                            vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
                            tie_word_embeddings=False)


def image_processor(torchvision: bool):
    """Qwen2VLImageProcessor from defaults (the PIL one without torchvision), max_pixels kept modest."""
    size = {"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS}
    if torchvision:
        from transformers import Qwen2VLImageProcessor

        return Qwen2VLImageProcessor(size=size)
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    return Qwen2VLImageProcessorPil(size=size)


def has_torchvision() -> bool:
    try:
        import torchvision  # noqa: F401
    except (ImportError, RuntimeError, OSError):  # or a CUDA build beside a CPU torch (torchvision::nms missing)
        return False
    return True


def _save_processor(out: Path, tok, torchvision: bool) -> str:
    if not torchvision:
        image_processor(False).save_pretrained(out)
        return "model + tokenizer + PIL image processor (no Qwen2_5_VLProcessor: it needs torchvision)"
    from transformers import Qwen2_5_VLProcessor, Qwen2VLVideoProcessor

    processor = Qwen2_5_VLProcessor(image_processor=image_processor(True), tokenizer=tok,
                                    video_processor=Qwen2VLVideoProcessor(), chat_template=CHAT_TEMPLATE)
    processor.save_pretrained(out)
    return "model + Qwen2_5_VLProcessor"


def build(out: str | Path, size: str = "7b", device: str = "cuda", new_tokens: int = 0) -> dict:
    """Build, initialise on ``device`` (bf16 on CUDA, fp32 on CPU) and save; return what was built.

    With ``new_tokens``, also generate from two chart images (:func:`generate_check`): on CPU from the
    model reloaded from ``out`` (the save/load round trip), on CUDA from the model in memory (reloading
    16 GiB would only time the disk; lm-eval and training load the saved folder anyway).
    """
    import torch
    from transformers import Qwen2_5_VLForConditionalGeneration

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer()
    cuda = device.startswith("cuda")
    dtype = torch.bfloat16 if cuda else torch.float32
    torch.manual_seed(SEED)
    start = time.perf_counter()
    with torch.device(device):  # weights are created where they will run: no 16 GiB trip through host memory
        model = Qwen2_5_VLForConditionalGeneration._from_config(model_config(tok, size), dtype=dtype).eval()
    if cuda:
        torch.cuda.synchronize()
    init_s = time.perf_counter() - start
    gen = model.generation_config
    gen.eos_token_id, gen.pad_token_id, gen.bos_token_id, gen.do_sample = tok.eos_token_id, tok.pad_token_id, None, False
    params = sum(p.numel() for p in model.parameters())
    start = time.perf_counter()
    model.save_pretrained(out)
    tok.save_pretrained(out)
    torchvision = has_torchvision()
    saved = _save_processor(out, tok, torchvision)
    name = str(dtype).removeprefix("torch.")
    info = {"processor": torchvision, "size": size, "params": params, "dtype": name, "device": device,
            "init_s": round(init_s, 2), "save_s": round(time.perf_counter() - start, 2), "saved": saved,
            "bytes": sum(f.stat().st_size for f in out.iterdir() if f.is_file()),
            "shape": shape_label(size, params, name)}
    (out / "gpu_check_model.json").write_text(json.dumps(info, indent=1))
    if new_tokens:
        if not cuda:
            model, tok = reload(out)
        info["generate"] = generate_check(model, tok, new_tokens, device)
    return info


def shape_label(size: str, params: int, dtype: str) -> str:
    t, v = SHAPES[size]["text"], SHAPES[size]["vision"]
    name = "Qwen2.5-VL-7B shape" if size == "7b" else "Qwen2.5-VL tiny"
    count = f"{params / 1e9:.2f}B" if params >= 1e8 else f"{params / 1e6:.2f}M"
    return (f"{name} ({count}, {dtype}; LM {t['num_hidden_layers']}x{t['hidden_size']}, "
            f"ViT {v['depth']}x{v['hidden_size']})")


def _chart(seed: int):
    """A small bar chart drawn with PIL (no chartprobe import): the check needs pixels, not answers."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (320, 240), "white")
    draw = ImageDraw.Draw(img)
    colors = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")
    for i, h in enumerate((60 + 37 * seed) % 150 + 30 * k for k in range(4)):
        draw.rectangle([30 + 70 * i, 220 - h, 80 + 70 * i, 220], fill=colors[i])
    return img


def reload(model_dir: str | Path):
    from transformers import AutoModelForImageTextToText, AutoTokenizer

    return AutoModelForImageTextToText.from_pretrained(model_dir).eval(), AutoTokenizer.from_pretrained(model_dir)


def generate_check(model, tok, new_tokens: int = 8, device: str = "cpu") -> dict:
    """Two chart images through the Qwen chat template, then exactly ``new_tokens`` greedy tokens.

    The image-pad run of each image is expanded to its merged patch count (what Qwen2_5_VLProcessor does),
    so the model sees exactly as many image tokens as the vision tower returns features.
    """
    import torch

    proc = image_processor(has_torchvision())
    pix = proc(images=[_chart(0), _chart(1)], return_tensors="pt")
    content = [{"type": "image"}, {"type": "image"}, {"type": "text", "text": "Which chart is better, A or B?"}]
    text = tok.apply_chat_template([{"role": "user", "content": content}], tokenize=False,
                                   add_generation_prompt=True)
    for thw in pix["image_grid_thw"]:
        text = text.replace("<|image_pad|>", "<|placeholder|>" * int(thw.prod() // proc.merge_size**2), 1)
    enc = tok(text.replace("<|placeholder|>", "<|image_pad|>"), return_tensors="pt")
    image_tokens = int((enc["input_ids"] == model.config.image_token_id).sum())
    model = model.to(device)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    sync()
    start = time.perf_counter()
    with torch.no_grad():
        out = model.generate(**enc.to(device), pixel_values=pix["pixel_values"].to(device),
                             image_grid_thw=pix["image_grid_thw"].to(device), max_new_tokens=new_tokens,
                             min_new_tokens=new_tokens, do_sample=False)
    sync()
    seconds = time.perf_counter() - start
    return {"docs": 1, "images": 2, "image_tokens": image_tokens, "prompt_tokens": int(enc["input_ids"].shape[1]),
            "generated_tokens": int(out.shape[1] - enc["input_ids"].shape[1]), "generate_s": seconds}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--size", choices=sorted(SHAPES), default="7b")
    p.add_argument("--device", default="cuda")
    p.add_argument("--generate", type=int, default=0, metavar="N", help="then generate N tokens from two charts")
    args = p.parse_args(argv)
    print(json.dumps(build(args.out, args.size, args.device, args.generate), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
