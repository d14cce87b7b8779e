"""The model's own image string on lm-eval's plain ``hf-multimodal`` path, found before lm-eval starts.

chartprobe's prompts mark each image with lm-eval's placeholder ``<image>``. Without
``--apply_chat_template``, lm-eval's ``hf-multimodal`` replaces it with the string of the config's
image token id, which is what the processor expands only for some families (LLaVA, Idefics3).
Gemma 3's processor expands ``<start_of_image>`` (its config names ``<image_soft_token>``) and
refuses the prompt ("Found total 0 <start_of_image> tokens and 4 images"); Qwen2-VL's needs
``<|vision_start|><|image_pad|><|vision_end|>`` (its config names ``<|image_pad|>``, and the
position ids then disagree with the image features). The string the model was trained with is
the one its chat template writes for an image part, so :func:`image_string_argv` renders that
template around one image and, where the result is neither ``<image>`` nor the config's image token
(what lm-eval writes by default: Mistral-3's ``[IMG]``, InternVL's ``<IMG_CONTEXT>``), adds
``--model_args image_string=<that>`` (lm-eval merges repeated ``--model_args``), saying so in one
stderr line. A template that writes something ``--model_args`` cannot carry is refused in one line
naming ``--apply_chat_template``. Nothing is changed under ``--apply_chat_template`` (the processor's
template then places the images), with an ``image_string`` or ``image_token_id`` of the user's, for
another ``--model``, or when no chat template can be read.
"""

from __future__ import annotations

import json
from pathlib import Path

from chartprobe.errors import UsageError

from .image_guard import _values

__all__ = ["PLACEHOLDER", "chat_template_of", "image_string_argv", "template_image_string"]

PLACEHOLDER = "<image>"
"""lm-eval's ``DEFAULT_IMAGE_PLACEHOLDER``: where chartprobe's prompts put an image."""
_BEFORE, _AFTER = "chartprobe-text-before-image", "chartprobe-text-after-image"
_TEMPLATE_FILES = ("chat_template.jinja", "chat_template.json", "processor_config.json", "tokenizer_config.json")
"""Where ``save_pretrained`` leaves a chat template (transformers 5 writes the first)."""
_NOT_CARRIED = (",", "\n", " ", '"')
"""Characters a ``key=value`` item of ``--model_args`` cannot hold (lm-eval splits on commas)."""


def template_image_string(template: str) -> str | None:
    """What ``template`` writes for one image part between two text parts (stripped), or None."""
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str) -> None:
        raise TemplateError(message)

    # The environment transformers renders chat templates in (trim and lstrip blocks, loop controls).
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.globals["raise_exception"] = raise_exception
    env.filters["tojson"] = lambda value, **_: json.dumps(value, ensure_ascii=False)
    message = {"role": "user", "content": [{"type": "text", "text": _BEFORE}, {"type": "image"},
                                           {"type": "text", "text": _AFTER}]}
    try:
        text = env.from_string(template).render(messages=[message], add_generation_prompt=False,
                                                bos_token="", eos_token="")
    except Exception:  # noqa: BLE001  (a template that cannot render one image part tells us nothing)
        return None
    start, end = text.find(_BEFORE), text.find(_AFTER)
    if start < 0 or end < 0 or end <= start:
        return None
    found = text[start + len(_BEFORE):end].strip()
    return found or None


def _template_in(read) -> str | None:
    """The chat template from the first of :data:`_TEMPLATE_FILES` that ``read(name)`` returns."""
    for name in _TEMPLATE_FILES:
        text = read(name)
        if text is None:
            continue
        if name.endswith(".jinja"):
            return text
        try:
            found = json.loads(text).get("chat_template")
        except (ValueError, AttributeError):
            continue
        if isinstance(found, list):  # named templates: the default one
            found = next((t.get("template") for t in found if t.get("name") == "default"), None)
        if isinstance(found, str) and found:
            return found
    return None


def _reader(pretrained: str, revision: str | None = None):
    """``read(name)``: a file of a model folder or Hub id as text (the Hub cache, or fetched), or None."""
    folder = Path(pretrained).expanduser()
    if folder.is_dir():
        return lambda name: (folder / name).read_text() if (folder / name).is_file() else None

    def from_hub(name: str) -> str | None:
        from huggingface_hub import hf_hub_download

        try:
            return Path(hf_hub_download(pretrained, name, revision=revision)).read_text()
        except Exception:  # noqa: BLE001  (absent file, offline, gated: lm-eval reports what matters)
            return None

    return from_hub


def chat_template_of(pretrained: str, revision: str | None = None) -> str | None:
    """The chat template of a model folder or Hub id (a few KB, read from the Hub cache or fetched), or None."""
    return _template_in(_reader(pretrained, revision))


def config_image_string(read) -> str | None:
    """What lm-eval's plain path writes where a prompt says ``<image>``: the text of the config's image
    token (``image_token_id`` or ``image_token_index``) in ``tokenizer.json``; None if either is unknown."""
    try:
        config = json.loads(read("config.json") or "{}")
        token_id = config.get("image_token_id") or config.get("image_token_index")
        if token_id is None:
            return None
        added = json.loads(read("tokenizer.json") or "{}").get("added_tokens") or []
    except (ValueError, AttributeError):
        return None
    return next((t.get("content") for t in added if isinstance(t, dict) and t.get("id") == token_id), None)


def _model_args(value: str) -> dict[str, str]:
    """A ``--model_args`` value as lm-eval reads it: ``k=v,k2=v2`` items or one JSON object (a malformed
    one reads as empty here; lm-eval reports it)."""
    if value.lstrip().startswith("{"):
        try:
            return {k: str(v) for k, v in json.loads(value).items()}
        except (ValueError, AttributeError):
            return {}
    return {key.strip(): val.strip() for key, eq, val in (item.partition("=") for item in value.split(",")) if eq}


def image_string_argv(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` with the model's image string added to ``--model_args`` where lm-eval's default is wrong,
    and the one line that says so (None when nothing was added)."""
    if "--config" in argv or "-C" in argv or any(a.startswith("--apply_chat_template") for a in argv):
        return argv, None
    values = _values(argv)
    if values.get("--model") != "hf-multimodal":
        return argv, None
    args = _model_args(values.get("--model_args") or "")
    pretrained = args.get("pretrained")
    if not pretrained or "image_string" in args or "image_token_id" in args:
        return argv, None
    read = _reader(pretrained, args.get("revision"))
    template = _template_in(read)
    found = template_image_string(template) if template else None
    if found is None or found == PLACEHOLDER or found == config_image_string(read):
        return argv, None  # lm-eval's default (the config's image token) is already what the template writes
    if any(c in found for c in _NOT_CARRIED):
        raise UsageError(f"eval: {pretrained}'s chat template writes an image as {found!r}, which --model_args "
                         "cannot carry as image_string: add --apply_chat_template")
    note = (f"chartprobe: added image_string={found} to --model_args ({pretrained}'s chat template writes an image "
            f"so; lm-eval would put its config's image token where the prompts say {PLACEHOLDER}); "
            "pass --apply_chat_template to use the chat template instead")
    return [*argv, "--model_args", f"image_string={found}"], note
