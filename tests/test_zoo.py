"""Every family of the model zoo (``tests/zoo.py``): the image string chartprobe picks, image features for
every image of a two-image item on both of lm-eval's paths, and LoRA on the language model only.

The end-to-end runs (lm-eval, training) are in ``test_zoo_eval.py`` and ``test_zoo_train.py``.
"""

from __future__ import annotations

import inspect

import pytest
from chartprobe.eval_tasks.harness.image_string import PLACEHOLDER, image_string_argv
from chartprobe.training.config import TrainConfig
from zoo import LEFT_OUT, load_zoo

ZOO = load_zoo()
FAMILIES = sorted(ZOO)
PAPERS_NEED = {"qwen2_vl", "qwen2_5_vl", "qwen3_vl", "internvl", "gemma3", "llava_onevision", "llava_next",
               "idefics3", "smolvlm", "mistral3", "mllama", "glm4v"}
"""The architectures the model-zoo issue's first acceptance check lists (Llama-4 or Mllama: Mllama)."""
CPA = f"Chart A: {PLACEHOLDER} Chart B: {PLACEHOLDER}"  # where lm-eval's plain path puts a judge pair's images


def test_the_zoo_holds_every_family_the_papers_need_and_says_why_others_are_out():
    assert PAPERS_NEED <= set(ZOO), PAPERS_NEED - set(ZOO)
    assert all(reason for reason in LEFT_OUT.values()) and not set(LEFT_OUT) & set(ZOO)


def _images():
    from PIL import Image

    return [Image.new("RGB", (120, 90), (250, 250, 250)), Image.new("RGB", (60, 100), (20, 30, 40))]


def _plain_string(name: str, path) -> str:
    """The image string lm-eval's plain path writes for the family after ``chartprobe eval``'s choice."""
    argv = ["run", "--model", "hf-multimodal", "--model_args", f"pretrained={path}", "--tasks", "x"]
    added, _ = image_string_argv(argv)
    chosen = added[-1].removeprefix("image_string=") if added != argv else None
    assert chosen == ZOO[name].image_string  # chartprobe picks what the family's chat template writes
    if chosen is not None:
        return chosen
    from transformers import AutoConfig, AutoTokenizer

    config = AutoConfig.from_pretrained(path)  # lm-eval's default: the config's image token, decoded
    token_id = getattr(config, "image_token_id", None) or getattr(config, "image_token_index", None)
    return AutoTokenizer.from_pretrained(path).decode([token_id], skip_special_tokens=False)


MERGERS = {"get_placeholder_mask": "image_features", "inputs_merger": "image_hidden_states"}
"""Where transformers' VLMs check image tokens against image features (the method, its features argument):
the one check every family whose features enter the token sequence makes (Idefics3 has the second name)."""


def _features_seen(model, batch) -> list[tuple[int, int]]:
    """Run ``model`` on ``batch``; the (image tokens, image features) of each placeholder check it made."""
    import torch

    # the inner model holds the check (LLaVA, Qwen, ...), or the top one does (Llama 4's flat layout)
    holders = (getattr(model, "model", None), model)
    inner, method, argument = next((m, n, a) for m in holders if m is not None for n, a in MERGERS.items()
                                   if hasattr(m, n))
    original = getattr(inner, method)
    signature = inspect.signature(original)
    seen = []

    def counting(*args, **kwargs):
        bound = signature.bind(*args, **kwargs).arguments
        features, embeds = bound.get(argument), bound["inputs_embeds"]
        if features is not None:
            seen.append((int((bound["input_ids"] == model.config.image_token_id).sum()),
                         features.numel() // embeds.shape[-1]))
        return original(*args, **kwargs)

    setattr(inner, method, counting)
    try:
        with torch.no_grad():
            model(**batch)
    finally:
        delattr(inner, method)
    return seen


@pytest.fixture(scope="module")
def loaded(zoo_model):
    """``loaded(name)``: (folder, processor, model) of a zoo family, loaded once per module."""
    from transformers import AutoModelForImageTextToText, AutoProcessor

    cache = {}

    def get(name):
        if name not in cache:
            path = zoo_model(name)
            cache[name] = (path, AutoProcessor.from_pretrained(path),
                           AutoModelForImageTextToText.from_pretrained(path).eval())
        return cache[name]

    return get


@pytest.mark.parametrize("chat", [False, True], ids=["plain", "chat-template"])
@pytest.mark.parametrize("name", FAMILIES)
def test_every_image_of_a_pair_reaches_the_model(name, chat, loaded):
    """The two images of a judge pair, as each of lm-eval's paths writes the prompt: the model gets
    features for both, as many as the processor gives each image alone (or beside another image, for a
    family that shares one budget among a prompt's images)."""
    import torch

    path, processor, model = loaded(name)
    images = _images()
    if chat:
        parts = [{"type": "text", "text": "Chart A:"}, {"type": "image"}, {"type": "text", "text": "Chart B:"},
                 {"type": "image"}, {"type": "text", "text": "Which is better?"}]
        text = processor.apply_chat_template([{"role": "user", "content": parts}], add_generation_prompt=True)
        single = processor.apply_chat_template([{"role": "user", "content": [{"type": "image"}]}],
                                               add_generation_prompt=True)
    else:
        string = _plain_string(name, path)
        text, single = CPA.replace(PLACEHOLDER, string), string
    batch = processor(text=[text], images=[images], return_tensors="pt")
    for key, value in batch.items():  # as lm-eval does: Llama 4's processor returns bf16 pixels
        if value.is_floating_point():
            batch[key] = value.to(model.dtype)
    if ZOO[name].cross_attention:  # Mllama: one cross-attention slot per image, each attended from its token on
        mask = batch["cross_attention_mask"][0]
        assert mask.shape[1] == 2 and bool(mask[:, 0].any()) and bool(mask[:, 1].any())
        with torch.no_grad():
            model(**batch)
        return
    seen = _features_seen(model, batch)
    tokens = int((batch["input_ids"] == model.config.image_token_id).sum())
    assert seen == [(tokens, tokens)], (seen, tokens)  # the model's own check: a feature per image token
    if ZOO[name].shared_budget:  # each image as many as it gets beside another image: both counted
        twice = [_image_tokens(processor, model, text, [image, image]) for image in images]
        assert 2 * tokens == sum(twice) and min(twice) > 0, (tokens, twice)
    else:  # each image as many as it gets alone
        alone = [_image_tokens(processor, model, single, [image]) for image in images]
        assert tokens == sum(alone) and min(alone) > 0, (tokens, alone)


def _image_tokens(processor, model, text: str, images) -> int:
    batch = processor(text=[text], images=[images], return_tensors="pt")
    return int((batch["input_ids"] == model.config.image_token_id).sum())


@pytest.mark.parametrize("name", FAMILIES)
def test_lora_adapts_the_language_model_only(name, zoo_model):
    """The default targets adapt every projection of every language-model layer and nothing in the vision
    tower, where LoRA by name alone would reach it."""
    from chartprobe.training.lora import apply_lora, check_language_model_only, language_model_prefix
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForImageTextToText

    path = zoo_model(name)
    model = AutoModelForImageTextToText.from_pretrained(path)
    prefix = language_model_prefix(model)
    assert prefix.rsplit(".", 1)[-1] in ("language_model", "text_model")
    projections = {n for n, m in model.named_modules() if n.startswith(prefix + ".") and ".layers." in n
                   and type(m).__name__ == "Linear" and n.endswith("_proj")}
    peft_model, modules = apply_lora(TrainConfig(model=str(path)), model)
    assert set(modules) == projections  # fused ones too (GLM-4V's gate_up_proj)
    trainable = [n for n, p in peft_model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n and prefix + "." in n for n in trainable)
    vision = [p for n, p in peft_model.named_parameters() if "vision" in n or ".visual." in n]
    assert vision and not any(p.requires_grad for p in vision)
    naive = get_peft_model(AutoModelForImageTextToText.from_pretrained(path),
                           LoraConfig(r=4, target_modules=list(ZOO[name].vision_names)))
    assert any(prefix + "." not in n for n, p in naive.named_parameters() if p.requires_grad)
    with pytest.raises(RuntimeError, match="outside the language model"):
        check_language_model_only(naive, prefix)
