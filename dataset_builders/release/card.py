"""Dataset cards: the README.md that makes a release folder a Hub dataset.

The YAML header holds what ``datasets`` and the Hub read (``configs`` with
``data_files``, complete ``dataset_info`` with features and split sizes, license,
task categories) plus a ``chartprobe`` block with the provenance a user needs to
reproduce the release byte for byte: generator version, preset, seed, exact command
and content hash.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ..core.atomic import atomic_write_text
from .card_meta import card_data, check_card
from .labels import as_text

__all__ = ["content_bytes", "read_card_metadata", "write_card", "write_card_section"]


_SIZE_WINDOW = 1000
"""Rows per window when measuring a split (bounds the memory a selected split's copy takes)."""

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the same plain data, ~6x faster than the
pure-Python one on a 50 KB card header (``chartprobe score`` reads each card a few times per process)."""


def content_bytes(ds) -> int:
    """The Arrow data size of a split's rows (values and offsets), a function of the rows alone.

    ``ds.data.nbytes`` is not: it counts a validity bitmap per chunk (so the byte count
    followed how many ``--num-proc`` workers wrote the split) and the whole underlying table
    of a ``select``-ed split. This measure is additive over rows, so neither chunking nor
    the windows the rows are read in (honouring any indices mapping) can change it.
    """
    bits = 0
    for window in ds.with_format("arrow").iter(batch_size=_SIZE_WINDOW):
        for column in window.columns:
            bits += sum(_array_bits(chunk) for chunk in column.chunks)
    return (bits + 7) // 8


def _array_bits(arr) -> int:
    """Bits of an array's values and offsets (validity bitmaps left out: they are per chunk)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = arr.type
    if isinstance(t, pa.ExtensionType):
        return _array_bits(arr.storage)
    if pa.types.is_null(t) or len(arr) == 0:
        return 0
    if pa.types.is_struct(t):  # flatten() honours the slice offset (field() would not)
        return sum(_array_bits(child) for child in arr.flatten())
    if pa.types.is_list(t) or pa.types.is_large_list(t):  # flatten(): this slice's items only
        return (64 if pa.types.is_large_list(t) else 32) * len(arr) + _array_bits(arr.flatten())
    if pa.types.is_fixed_size_list(t):
        return _array_bits(arr.flatten())
    if pa.types.is_binary(t) or pa.types.is_string(t) or pa.types.is_large_binary(t) \
            or pa.types.is_large_string(t):
        width = 64 if (pa.types.is_large_binary(t) or pa.types.is_large_string(t)) else 32
        values = pc.sum(pc.binary_length(arr)).as_py() or 0
        return width * len(arr) + 8 * values
    try:
        return t.bit_width * len(arr)  # fixed-width values: ints, floats, bools, dates, times
    except ValueError:  # any other layout: its buffers, as arrow counts them
        return 8 * arr.nbytes


def _dataset_info(config: str, splits: dict[str, Any], files: dict[str, list[str]]) -> dict:
    first = next(iter(splits.values()))
    split_rows = []
    for split, ds in splits.items():
        split_rows.append({"name": split, "num_bytes": content_bytes(ds), "num_examples": len(ds)})
    size = sum(r["num_bytes"] for r in split_rows)
    return {"config_name": config, "features": first.features._to_yaml_list(),
            "splits": split_rows, "dataset_size": size}


def default_of(builder, built: Mapping[str, Any]) -> str:
    """The config a release marks ``default: true``, so ``load_dataset(repo)`` needs no config name:
    the builder's headline config, else ``all``, else the first config built."""
    for name in (builder.default_config, "all"):
        if name and name in built:
            return name
    return next(iter(built))


def write_card(folder: Path, builder, preset, built: dict[str, dict[str, Any]],
               files: dict[str, dict[str, list[str]]], digest: str, *, command: str,
               generator_version: str) -> Path:
    """Write ``folder/README.md`` for a built release and return its path."""
    configs = []
    default = default_of(builder, built)
    for config, splits in built.items():
        data_files = [{"split": s, "path": f"{config}/{s}-*.parquet"} for s in splits]
        entry = {"config_name": config, "data_files": data_files}
        if config == default:
            entry["default"] = True
        configs.append(entry)
    provenance = {"dataset": builder.name, "generator_version": generator_version, "preset": preset.preset,
                  "seed": preset.seed, "command": command, "content_hash": digest,
                  "recipe": json.loads(preset.to_json())}
    rows = sum(len(ds) for splits in built.values() for ds in splits.values())
    tags = ["chartprobe", "charts", "diagnostic", builder.name, *builder.source_tags(preset)]
    data = card_data(builder, configs, [_dataset_info(c, s, files[c]) for c, s in built.items()], rows,
                     tags, provenance, license=builder.card_license(preset))
    body = _body(builder, preset, built, digest, command, generator_version)
    texts = {c: {s: as_text(ds) for s, ds in splits.items()} for c, splits in built.items()}  # names, not label ids
    extra = "\n\n".join(filter(None, (builder.card_inputs(preset).strip(), builder.card_extra(texts).strip())))
    text = f"---\n{data.to_yaml()}\n---\n\n{body}" + (f"\n{extra.strip()}\n" if extra else "")
    check_card(text)  # what the Hub and `datasets` would refuse is a bug here, not a surprise after push
    path = folder / "README.md"
    atomic_write_text(path, text)
    return path


def _body(builder, preset, built, digest, command, generator_version) -> str:
    rows = "\n".join(f"| `{c}` | `{s}` | {len(ds)} |" for c, splits in built.items()
                     for s, ds in splits.items())
    first_config = default_of(builder, built)
    cite = f"\n## Citation\n\n```bibtex\n{builder.citation.strip()}\n```\n" if builder.citation else ""
    paper = f"\nBased on: {builder.paper}\n" if builder.paper else ""
    return f"""# {builder.title or builder.repo_name}

{builder.description}
{paper}
Every row carries its chart `spec` as JSON: the image and the answer are functions of it,
so any row can be re-rendered, re-answered and re-intervened with
[chartprobe](https://github.com/chartprobe/chartprobe).

## Contents

| config | split | rows |
|---|---|---|
{rows}

## Usage

```python
from datasets import load_dataset
ds = load_dataset("chartprobe/{builder.repo_name}", revision="v{generator_version}")  # the default config, `{first_config}`
ds = load_dataset("chartprobe/{builder.repo_name}", "{first_config}", revision="v{generator_version}")  # any config by name
```

## How it was generated

- generator version: `{generator_version}`
- preset: `{preset.preset}`, seed `{preset.seed}`
- command: `{command}`
- content hash (SHA-256 over rows, images by their bytes): `{digest}`
{cite}"""


def read_card_metadata(release: str | Path) -> dict[str, Any]:
    """Return the YAML header of a release's README.md as a dict."""
    text = (Path(release) / "README.md").read_text()
    if not text.startswith("---\n"):
        raise ValueError(f"{release}/README.md has no YAML header")
    header = text[4:text.index("\n---\n", 4)]
    return yaml.load(header, Loader=_SAFE_LOADER)


def write_card_section(release: str | Path, title: str, body: str) -> Path:
    """Insert or replace the ``## {title}`` section of a release's README.md.

    The section runs to the next ``## `` heading (or the end); re-running replaces it in
    place, so derived sections (e.g. the validity table of ``chartprobe validate
    --write-card``) never pile up. A new section goes before ``## Citation`` when there is
    one, else at the end. Rows and the content hash are untouched: only the card changes,
    atomically (a full disk or an interrupt leaves the previous card as it was).
    """
    path = Path(release) / "README.md"
    text = path.read_text()
    heading = f"## {title}"
    section = f"{heading}\n\n{body.strip()}\n\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == heading), None)
    if start is None:
        at = next((i for i, line in enumerate(lines) if line.rstrip() == "## Citation"), len(lines))
        if at == len(lines) and lines and not text.endswith("\n\n"):
            section = "\n" + section
        lines.insert(at, section)
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = [section]
    atomic_write_text(path, "".join(lines).rstrip("\n") + "\n")
    return path
