"""Make the registry's torchvision wheel work next to the CPU torch (``scripts/install.sh`` runs it).

Qwen2/2.5/3-VL, InternVL, LLaVA-OneVision, GLM-4V and other processors with a video sub-processor,
and Mistral-3 / Llama-4 processors, need torchvision to be constructed at all. The CPU torch
(``torch==2.13.0+cpu``) has no CPU torchvision wheel on the package registries; the registry's
``torchvision==0.28.0`` is built against CUDA, so neither of its C++ extensions loads (``_C.so``:
nms, roi_align, ...; ``image.so``: JPEG/PNG decoding), both needing ``libtorch_cuda``. Two things
then break, and this script fixes both in the installed package, one function each:

1. the import itself: ``_meta_registrations.py`` registers fake kernels for the ``_C`` ops with
   ``torch.library.register_fake``, which raises "operator torchvision::nms does not exist". They
   are registered only when the ops loaded (as its own ``register_meta`` helper already does for
   the rest); nothing a chart processor calls uses those ops (they detect objects).
2. decoding: with torchvision present, transformers' image processors decode URLs and base64
   images with ``torchvision.io.decode_image`` (``transformers serve``: every API-path request),
   which needs ``image.so``. Without it, ``decode_image`` now decodes with Pillow into the same
   ``uint8`` tensor (channels first, the requested mode, EXIF orientation when asked).

Idempotent: a file already fixed is left alone, and nothing changes where torchvision's
extensions load (a matching CPU or CUDA build). Exits non-zero with one line when the import or
a decode still fails afterwards.

    python scripts/torchvision_cpu.py            # the current interpreter's torchvision
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MARK = "# chartprobe (scripts/torchvision_cpu.py)"

META_HELPER = f'''{MARK}: fake kernels only where the C++ ops loaded
def _register_fake_if_ops(qualname):
    if torchvision.extension._has_ops():
        return torch.library.register_fake(qualname)
    return lambda fn: fn


def register_meta(op_name'''

DECODE_HELPER = f'''{MARK}: Pillow decodes when the image extension did not load
def _decode_with_pil(input, mode, apply_exif_orientation):
    import io

    import numpy as np
    from PIL import Image, ImageOps

    data = input.numpy().tobytes() if isinstance(input, torch.Tensor) else open(str(input), "rb").read()
    image = Image.open(io.BytesIO(data))
    if apply_exif_orientation:
        image = ImageOps.exif_transpose(image)
    if isinstance(mode, str):
        mode = ImageReadMode[mode.upper()]
    target = {{ImageReadMode.GRAY: "L", ImageReadMode.GRAY_ALPHA: "LA", ImageReadMode.RGB: "RGB",
              ImageReadMode.RGB_ALPHA: "RGBA"}}.get(mode)
    if target is None and image.mode not in ("L", "LA", "RGB", "RGBA"):
        target = "RGBA" if "A" in image.getbands() else "RGB"
    array = np.asarray(image.convert(target) if target else image)
    tensor = torch.from_numpy(array.copy())
    return tensor.unsqueeze(0) if tensor.ndim == 2 else tensor.permute(2, 0, 1).contiguous()


def decode_image('''

DECODE_GUARD = '''    _log_api_usage_once(decode_image)
    if not _has_image_ops():
        return _decode_with_pil(input, mode, apply_exif_orientation)
    _assert_has_image_ops()'''

CHECK = ("import io, torch, torchvision, torchvision.transforms.v2.functional\n"
         "from PIL import Image\n"
         "from torchvision.io import decode_image\n"
         "buf = io.BytesIO(); Image.new('RGB', (3, 2), (200, 10, 30)).save(buf, format='PNG')\n"
         "t = decode_image(torch.frombuffer(bytearray(buf.getvalue()), dtype=torch.uint8), mode='RGB')\n"
         "assert tuple(t.shape) == (3, 2, 3) and t[:, 0, 0].tolist() == [200, 10, 30], t\n")


def _works() -> tuple[bool, str]:
    """Whether torchvision imports and decodes a PNG in a fresh interpreter, and the last line of its error."""
    run = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=False)
    lines = run.stderr.strip().splitlines()
    return run.returncode == 0, lines[-1] if lines else ""


def _package() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("torchvision_cpu: torchvision is not installed (pip install --no-deps torchvision==0.28.0)")
    return Path(next(iter(spec.submodule_search_locations)))


def _fix_meta(root: Path) -> str:
    path = root / "_meta_registrations.py"
    text = path.read_text(encoding="utf-8")
    if MARK in text:
        return ""
    if "def register_meta(op_name" not in text or "@torch.library.register_fake(" not in text:
        raise SystemExit(f"torchvision_cpu: {path} is not the file this fix knows (torchvision 0.28)")
    text = text.replace("@torch.library.register_fake(", "@_register_fake_if_ops(")
    path.write_text(text.replace("def register_meta(op_name", META_HELPER, 1), encoding="utf-8")
    return "fake kernels of the unloaded C++ ops skipped"


def _fix_decode(root: Path) -> str:
    path = root / "io" / "image.py"
    text = path.read_text(encoding="utf-8")
    if MARK in text:
        return ""
    old = "    _log_api_usage_once(decode_image)\n    _assert_has_image_ops()"
    if old not in text or "\ndef decode_image(" not in text:
        raise SystemExit(f"torchvision_cpu: {path} is not the file this fix knows (torchvision 0.28)")
    text = text.replace(old, DECODE_GUARD, 1).replace("\ndef decode_image(", "\n" + DECODE_HELPER, 1)
    path.write_text(text, encoding="utf-8")
    return "decode_image falls back to Pillow"


def main() -> int:
    ok, error = _works()
    if ok:
        print("torchvision_cpu: torchvision imports and decodes; nothing to do")
        return 0
    root = _package()
    done = [what for what in (_fix_meta(root), _fix_decode(root)) if what]
    ok, error = _works()
    if not ok:
        print(f"torchvision_cpu: torchvision still fails after the fix: {error}", file=sys.stderr)
        return 1
    print(f"torchvision_cpu: {'; '.join(done) or 'already fixed'} ({root}); torchvision imports and decodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
