"""The released Chartographer benchmark as ``chartprobe-families`` rows (``chartprobe build families --released DIR``).

Chartographer (arXiv:2605.27311) releases its counterfactual chart-question families as the Hub
dataset ``1fanj/Chartographer`` (JSON rows; CC BY-SA 4.0 where the source terms permit, A.1) and the
pipeline that exported them as github compling-wat/Chartographer (Apache-2.0). Everything below is
read as that pipeline writes and reads it, at commit 1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083:
``src/pipeline/datasets/export_chart_question_families.py`` writes ``<split>.jsonl`` (one row per
family member, fields in :mod:`.released_rows`), ``images/<variant>/<chart_id>.png``,
``chart_data/<variant>/<chart_id>.json`` and ``datasets.json`` into one export folder per source
split; ``src/common/datasets.py`` ``load_examples`` reads the rows back with ``load_dataset("json")``
(or ``load_dataset("1fanj/Chartographer")[split]``, ``examples/datasets.example.json``);
``src/pipeline/prediction/evaluate_predictions.py`` scores each row against its ``answer`` with an LLM
judge (``COMPARE_ANSWER``: question, target, extracted ``<answer>``) and reports accuracy only: OA,
RA, VA, RVC and CVA are the paper's formulas over those labels (§3.4, A.8), which
``eval_tasks/metrics/families.py`` computes. A local copy (``huggingface-cli download
1fanj/Chartographer --repo-type dataset --local-dir DIR``) is read as::

    DIR/**/<split>.jsonl          # rows (no .jsonl anywhere: **/*.json holding one JSON list each)
    DIR/**/images/<variant>/...   # the images they name, relative to the row file's folder (or DIR)
    DIR/originals/<source_dataset_split>/<source_row_index>.png   # restored originals (released_images)
    DIR/README.md                 # optional: the released card (its ``license`` is recorded)
    DIR/.cache/huggingface/download/<file>.metadata               # optional: line 1 = the Hub commit

Folders named ``chart_data``, ``images``, ``originals`` and hidden ones hold no rows; ``datasets.json``
is the export's dataset config, not rows. :func:`released_params` reads and checks every row and
every image once, before anything is built; any problem is one
:class:`~.released_rows.ReleasedFamiliesError` line naming the file and line. It returns the params
every config carries (the folder and one SHA-256 over every file read), so the card's recipe names
the exact data; :func:`load_released` re-reads the folder in build processes (cached) and refuses
one that changed since. Every family is imported, in released order, into the configs of
:func:`released_preset`: ``all``, one per source benchmark present (``chartqa``, ``charxiv``,
``chartmuseum``: Table 1's columns) and ``resolution`` (each reconstruction at 100/75/50%, A.7's
ablation, here for all three benchmarks); the synthetic source groups do not exist here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..release.imported import (
    ReleasedFile,
    ReleasedLoader,
    declared_license,
    files_digest,
    files_revisions,
    hub_revision,
)
from .reconstruct.manifest import Manifest, ManifestError, read_manifest
from .released_images import embed, find_image, read_checked
from .released_rows import (
    BENCHMARKS,
    Benchmark,
    ReleasedFamiliesError,
    ReleasedMember,
    check_family,
    family_rows,
    member_of,
    original_only,
)

__all__ = ["OUR_SPLIT", "RELEASED", "ReleasedFamiliesError", "ReleasedFile", "ReleasedSet", "load_released",
           "read_released", "released_from_params", "released_params", "released_preset"]

RELEASED = {"name": "Chartographer", "dataset": "1fanj/Chartographer",
            "dataset_url": "https://huggingface.co/datasets/1fanj/Chartographer",
            "code": "https://github.com/compling-wat/Chartographer",
            "commit": "1f02025c21a7d9d0f4807b1c742b2d1ecbe6e083", "license": "cc-by-sa-4.0"}
"""Where the data and the code that defines its fields come from (recorded in the release card)."""
OUR_SPLIT = "test"
ENDS = ("all", "resolution")
"""The configs every ``--released`` build has besides one per benchmark (first and last)."""
MAX_ROWS_FILE_BYTES = 256 << 20
SKIP_PARTS = ("chart_data", "images", "originals")
NOT_ROWS = ("datasets.json", "chartprobe-reconstruction.json")


@dataclass(frozen=True, eq=False)
class ReleasedSet:
    """Every released family, checked; images stay on disk (path and hash per member)."""

    root: str
    files: tuple[ReleasedFile, ...]
    families: Mapping[str, tuple[ReleasedMember, ...]]
    """family id -> its members in our order; families in released order."""
    skipped: tuple[str, ...]
    """Question ids with an original row only (not families: :func:`~.released_rows.original_only`)."""
    license: str | None
    manifest: Manifest | None = None
    """A ``chartprobe reconstruct`` export's manifest (its source declared as one more benchmark)."""

    @property
    def declared(self) -> dict[str, Benchmark]:
        """The benchmark a reconstruction manifest declares (empty for the paper's own data)."""
        if self.manifest is None:
            return {}
        b = self.manifest.benchmark
        return {b["key"]: Benchmark(b["key"], b["name"], b["hub"], b["license"], b["rights"], b["families"])}

    @property
    def digest(self) -> str:
        """SHA-256 over every file read (path and content hash of each; the manifest's too)."""
        extra = () if self.manifest is None else (ReleasedFile(Path(self.manifest.path).name, self.manifest.sha256,
                                                               None, None),)
        return files_digest((*self.files, *extra))

    @property
    def revisions(self) -> tuple[str, ...]:
        """The Hub commits the files were downloaded at (empty when none was recorded)."""
        return files_revisions(self.files)

    @property
    def benchmarks(self) -> tuple[str, ...]:
        """The source benchmarks present, in the paper's order (ChartQA, CharXiv, ChartMuseum)."""
        present = {ms[0].benchmark for ms in self.families.values()}
        return tuple(b for b in (*BENCHMARKS, *self.declared) if b in present)

    @property
    def configs(self) -> tuple[str, ...]:
        return (ENDS[0], *self.benchmarks, ENDS[1])

    def keys(self, config: str, split: str) -> list[str]:
        """The family ids ``config``/``split`` holds (``all``/``resolution``: every family)."""
        if config not in self.configs:
            known = ", ".join(self.configs)
            what = ("has no families of that benchmark" if config in BENCHMARKS
                    else "is not a config of the released families")
            raise ReleasedFamiliesError(f"config {config!r} {what}; a --released build holds {known} (leave "
                                        "--preset out: the released recipe names exactly those)")
        if split != OUR_SPLIT:
            raise ReleasedFamiliesError(f"the released families are imported as split {OUR_SPLIT!r}; the preset's "
                                        f"split {split!r} cannot be filled from them")
        if config in ENDS:
            return list(self.families)
        return [fid for fid, ms in self.families.items() if ms[0].benchmark == config]

    def build_rows(self, config: str, key: str, generator_version: str) -> list[dict[str, Any]]:
        """Our rows of family ``key`` in ``config``, images embedded (:func:`~.released_images.embed`)."""
        from .images import RESOLUTION_SCALES, degrade

        members = list(self.families[key])
        rows = family_rows(members, generator_version)
        for row, m in zip(rows, members, strict=True):
            row["image"] = {"bytes": self.image_bytes(m), "path": None}
        if config != ENDS[1]:
            return rows
        recon = next(r for r in rows if r["role"] == "reconstruction")  # what derive.rescaled makes of it
        return [{**recon, "id": f"{key}-reconstruction-{int(s * 100)}", "scale": s,
                 "degradation": "" if s == 1.0 else f"bicubic:{s:g}",
                 "image": {"bytes": degrade(recon["image"]["bytes"], "" if s == 1.0 else f"bicubic:{s:g}"),
                           "path": None}} for s in RESOLUTION_SCALES]

    def image_bytes(self, m: ReleasedMember) -> bytes:
        """The member's image as embedded, refused when the file changed since it was read."""
        data = (Path(self.root) / m.image).read_bytes()
        if hashlib.sha256(data).hexdigest() != m.image_sha256:
            raise ReleasedFamiliesError(f"{Path(self.root) / m.image}: changed since the build started; rebuild")
        return embed(data)[0]


def _row_files(root: Path) -> list[Path]:
    """The ``.jsonl`` row files (the export's), else ``.json`` ones; never under SKIP_PARTS or hidden."""
    def found(suffix: str) -> list[Path]:
        return [p for p in sorted(root.rglob(f"*{suffix}"))
                if p.is_file() and p.suffix == suffix and p.name not in NOT_ROWS
                and not any(part.startswith(".") or part in SKIP_PARTS for part in p.relative_to(root).parts[:-1])
                and not p.name.startswith(".")]

    files = found(".jsonl") or found(".json")
    if not files:
        raise ReleasedFamiliesError(f"{root}: no released rows (expected <split>.jsonl files as "
                                    "export_chart_question_families.py writes them)")
    return files


def _records(path: Path) -> tuple[list[tuple[str, Any]], str]:
    """((where, parsed row) of every line, sha256) of a row file: JSON lines, or one JSON list."""
    if path.stat().st_size > MAX_ROWS_FILE_BYTES:
        raise ReleasedFamiliesError(f"{path}: larger than {MAX_ROWS_FILE_BYTES} bytes")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReleasedFamiliesError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if path.suffix == ".json":
        try:
            rows = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise ReleasedFamiliesError(f"{path}: invalid JSON ({getattr(exc, 'msg', 'nested too deeply')})") from None
        if not isinstance(rows, list):
            raise ReleasedFamiliesError(f"{path}: expected a JSON list of rows, got {type(rows).__name__}")
        return [(f"{path}: row {i}", r) for i, r in enumerate(rows)], hashlib.sha256(data).hexdigest()
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                out.append((f"{path}:{n}", json.loads(line)))
            except (json.JSONDecodeError, RecursionError) as exc:
                raise ReleasedFamiliesError(f"{path}:{n}: invalid JSON ({getattr(exc, 'msg', 'nested too deeply')})") \
                    from None
    return out, hashlib.sha256(data).hexdigest()


def _read_rows(root: Path, files: list[ReleasedFile], declared: Mapping[str, Benchmark]
               ) -> dict[str, list[tuple[ReleasedMember, str, Path]]]:
    """Every released member with its released image path and row file, grouped by family in
    released order (images not looked up yet)."""
    grouped: dict[str, list[tuple[ReleasedMember, str, Path]]] = {}
    for path in _row_files(root):
        records, digest = _records(path)
        if not records:
            raise ReleasedFamiliesError(f"{path}: holds no rows")
        for where, raw in records:
            member, image = member_of(raw, where, declared)
            grouped.setdefault(member.family_id, []).append((member, image, path))
        rel = path.relative_to(root).as_posix()
        files.append(ReleasedFile(rel, digest, len(records), hub_revision(root, rel)))
    return grouped


def _with_images(root: Path, found: list[tuple[ReleasedMember, str, Path]], files: list[ReleasedFile],
                 images: dict[str, str]) -> list[ReleasedMember]:
    """The members with their images found, checked and hashed (each file read once: ``images``)."""
    out = []
    for member, image, path in found:
        original = (member.source_split, member.source_row_index) if member.role == "original" else None
        rel = find_image(root, path, image, member.where, original=original)
        if rel not in images:
            images[rel] = read_checked(root, rel, member.where)[1]
            files.append(ReleasedFile(rel, images[rel], None, hub_revision(root, rel)))
        out.append(replace(member, image=rel, image_sha256=images[rel]))
    return out


def read_released(root: str | Path) -> ReleasedSet:
    """Read and check every released row and image under ``root``; one ReleasedFamiliesError line if any fails."""
    root = Path(root).expanduser()
    if not root.is_dir():
        raise ReleasedFamiliesError(f"--released {root}: no such folder (a local copy of the Hub dataset "
                                    f"{RELEASED['dataset']}: huggingface-cli download {RELEASED['dataset']} "
                                    "--repo-type dataset --local-dir DIR)")
    files: list[ReleasedFile] = []
    try:
        manifest = read_manifest(root)
    except ManifestError as exc:
        raise ReleasedFamiliesError(str(exc)) from None
    declared = ReleasedSet(str(root), (), {}, (), None, manifest).declared
    grouped = _read_rows(root, files, declared)
    skipped = tuple(fid for fid, found in grouped.items() if original_only([m for m, _, _ in found]))
    images: dict[str, str] = {}
    families = {}
    for fid, found in grouped.items():
        if fid in skipped:
            continue
        released_at = {id(m): (image, path) for m, image, path in found}
        ordered = check_family([m for m, _, _ in found])  # roles first: a broken family before its images
        families[fid] = tuple(_with_images(root, [(m, *released_at[id(m)]) for m in ordered], files, images))
    if not families:
        raise ReleasedFamiliesError(f"{root}: no complete family (original, reconstruction and seed variants)")
    return ReleasedSet(str(root.resolve()), tuple(files), families, skipped, declared_license(root), manifest)


LOADER: ReleasedLoader[ReleasedSet] = ReleasedLoader(read_released, ReleasedFamiliesError)
"""Reads a released folder once per process (:class:`~..release.imported.ReleasedLoader`)."""


def load_released(root: str | Path, sha256: str | None = None) -> ReleasedSet:
    """The released set under ``root`` (read once per process); refused if it is not ``sha256``."""
    return LOADER.load(root, sha256)


def released_params(root: str | Path) -> dict[str, str]:
    """Read and check ``root`` now (fresh); the params naming it for every config."""
    return LOADER.params(root)


def released_from_params(params: Mapping[str, Any]) -> ReleasedSet | None:
    """The released set a config's params name (``released``/``released_sha256``), or None (synthetic)."""
    return LOADER.from_params(params)


def released_preset(params: Mapping[str, Any]) -> Any:
    """The recipe of a ``--released`` build: every config the release fills, each family once per config.

    Made in code (a bundled YAML could not name configs that only exist for a given release); the
    counts are the released families', recorded in the card like a preset's.
    """
    from ..release.recipe import ConfigPreset, Preset

    found = released_from_params(params)
    counts = {c: len(found.keys(c, OUR_SPLIT)) for c in found.configs}
    return Preset(dataset="families", preset="released", seed=0, shard_size=8,
                  configs={c: ConfigPreset(splits={OUR_SPLIT: n}, params=dict(params)) for c, n in counts.items()})
