"""Provenance: which release a score was computed on, and which run produced the predictions.

A release is named by its dataset card's ``chartprobe:`` block (written by ``chartprobe build``):
generator version, preset, seed and the content hash over every row. :class:`ReleaseProvenance`
adds where it was read (a local folder, or a Hub repo at a revision). Two scores are on the same
release exactly when their content hashes agree; a release whose card has no hash (an old build,
an unreachable Hub card) is known by its path and revision instead.

The run side comes from lm-eval's ``results_<date>.json`` (model, model and generation arguments,
lm-eval version), which ``chartprobe eval`` completes with a ``chartprobe_provenance`` block
(``runner.stamp_lm_eval_results``) and ``chartprobe score`` reads back next to the samples files
(:func:`lm_eval_run`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from .predictions import PredictionsError

__all__ = ["PROVENANCE_HEADER", "PROVENANCE_KEY", "ReleaseProvenance", "check_same_releases", "lm_eval_results_for", "lm_eval_run",
           "provenance_markdown", "provenance_rows", "read_lm_eval_run", "release_hash",
           "release_provenance", "software"]

PROVENANCE_KEY = "chartprobe_provenance"
"""The block ``chartprobe eval`` adds to lm-eval's results JSON."""

_RUN_CONFIG_KEYS = ("model", "model_args", "gen_kwargs", "limit", "batch_size", "random_seed")
"""What of lm-eval's ``config`` block changes a score (the rest is hardware and caching)."""


@dataclass(frozen=True)
class ReleaseProvenance:
    """One release as a score names it."""

    release: str
    """Dataset registry name (also the suite name): ``families``, ``probes``..."""
    path: str
    """Local release folder, or the Hub dataset repo."""
    revision: str | None = None
    """Hub revision (tag) the data was read at; None for a local folder."""
    preset: str | None = None
    """Build preset (``small``, ``full``...) from the card."""
    seed: int | None = None
    """Build seed from the card."""
    generator_version: str | None = None
    """chartprobe version that generated the release."""
    content_hash: str | None = None
    """SHA-256 over the release's rows (images by their bytes), from the card."""

    @property
    def identity(self) -> str | None:
        """What two scores must share to be on the same release (None: unknown)."""
        if self.content_hash:
            return str(self.content_hash)
        return f"{self.path}@{self.revision}" if self.revision else None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "source": "hub" if self.revision else "local"}

    @classmethod
    def from_json(cls, release: str, doc: Mapping[str, Any]) -> ReleaseProvenance:
        """Tolerant reader: older results files recorded only ``path`` and ``content_hash``."""
        known = {f.name for f in fields(cls)}
        return cls(**{"path": "?", **{k: v for k, v in doc.items() if k in known}, "release": release})

    def short(self) -> str:
        """``<path>[@revision] <hash[:12]>`` for one-line messages."""
        where = f"{self.path}@{self.revision}" if self.revision else self.path
        return f"{where} (content hash {str(self.content_hash or '?')[:12]})"


def _from_card(release: str, meta: Mapping[str, Any], path: str, revision: str | None) -> ReleaseProvenance:
    block = meta.get("chartprobe") if isinstance(meta, Mapping) else None
    block = block if isinstance(block, Mapping) else {}
    return ReleaseProvenance(release=release, path=path, revision=revision, preset=block.get("preset"),
                             seed=block.get("seed"), generator_version=block.get("generator_version"),
                             content_hash=block.get("content_hash"))


def _card(path: str, revision: str | None) -> dict[str, Any]:
    """The card header of a local release folder (read each time: a rebuild rewrites it) or a Hub
    repo ({} when the Hub card is unreachable)."""
    from chartprobe.dataset_builders.release.card import read_card_metadata

    if revision is None or Path(path).is_dir():
        return read_card_metadata(path) or {}
    return _hub_card(path, revision)


@functools.lru_cache(maxsize=64)
def _hub_card(path: str, revision: str) -> dict[str, Any]:
    from chartprobe.dataset_builders.release.card import read_card_metadata

    try:  # load_dataset fetched this README already: the cache answers offline
        from huggingface_hub import hf_hub_download

        card = hf_hub_download(path, "README.md", repo_type="dataset", revision=revision)
        return read_card_metadata(Path(card).parent) or {}
    except Exception:  # noqa: BLE001 - offline, gated, or no card: the revision still names the data
        return {}


def release_provenance(release: str, where: Mapping[str, Any]) -> ReleaseProvenance:
    """Provenance of ``release`` read from ``where`` (``load_dataset`` arguments: ``path``, ``revision``)."""
    path, revision = str(where["path"]), where.get("revision")
    return _from_card(release, _card(path, revision), path, revision)


def release_hash(release: str, where: Mapping[str, Any]) -> str:
    """The content hash every document of ``release`` carries (``release_hash`` column; "" if unknown)."""
    return str(release_provenance(release, where).content_hash or "")


def software() -> dict[str, str | None]:
    """Versions of chartprobe and lm-eval in this environment (None where not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str | None] = {}
    for key, dist in (("chartprobe_version", "chartprobe"), ("lm_eval_version", "lm_eval")):
        try:
            out[key] = version(dist)
        except PackageNotFoundError:
            out[key] = None
    return out


def lm_eval_run(results: Mapping[str, Any], path: str | Path | None = None) -> dict[str, Any]:
    """The run fields of an lm-eval results document: model, its and the generation arguments, versions."""
    config = results.get("config") if isinstance(results.get("config"), Mapping) else {}
    run: dict[str, Any] = {k: config.get(k) for k in _RUN_CONFIG_KEYS if k in config}
    for key in ("lm_eval_version", "transformers_version", "date", "model_name", "chat_template_sha"):
        if results.get(key) is not None:
            run[key] = results[key]
    if isinstance(results.get(PROVENANCE_KEY), Mapping):
        run["releases"] = results[PROVENANCE_KEY].get("releases")
    if path is not None:
        run["results_file"] = str(path)
    return run


def lm_eval_results_for(samples: str | Path) -> Path | None:
    """The lm-eval results file of the run that wrote ``samples`` (same folder, same date), else the
    folder's newest one; None when there is none (agents' predictions, copied samples)."""
    samples = Path(samples)
    date = samples.stem.rpartition("_")[2]
    same = samples.parent / f"results_{date}.json"
    if same.is_file():
        return same
    found = sorted(samples.parent.glob("results_*.json"))
    return found[-1] if found else None


def read_lm_eval_run(samples: str | Path) -> dict[str, Any] | None:
    """The run fields (:func:`lm_eval_run`) of the results file next to ``samples``, if there is one."""
    from .predictions import read_json

    path = lm_eval_results_for(samples)
    if path is None:
        return None
    try:
        doc = read_json(path)
    except PredictionsError as exc:  # the samples still score; the run is then unknown, and says why
        return {"results_file": str(path), "unreadable": str(exc)}
    return lm_eval_run(doc, path) if isinstance(doc, dict) else {"results_file": str(path), "unreadable": "not an object"}


def check_same_releases(per_model: Mapping[str, Mapping[str, Iterable[ReleaseProvenance]]],
                        allow_mixed: bool = False) -> dict[str, list[str]]:
    """Suites whose models (or one model's merged files) were scored on different releases.

    ``per_model`` maps model -> suite -> the releases its records came from. Returns suite ->
    the distinct release identities, for the suites that mix them; raises a one-line
    :class:`PredictionsError` naming the first such suite unless ``allow_mixed``. Releases of
    unknown identity (no content hash, no revision) are not counted as different.
    """
    seen: dict[str, dict[str, tuple[str, ReleaseProvenance]]] = {}
    for model, by_suite in sorted(per_model.items()):
        for suite, releases in by_suite.items():
            for rel in releases:
                if rel.identity is not None:
                    seen.setdefault(suite, {}).setdefault(rel.identity, (model, rel))
    mixed = {s: sorted(ids) for s, ids in sorted(seen.items()) if len(ids) > 1}
    if mixed and not allow_mixed:
        suite = next(iter(mixed))
        (m1, r1), (m2, r2) = list(seen[suite].values())[:2]
        raise PredictionsError(f"suite {suite}: {m1} was scored on {r1.short()} but {m2} on {r2.short()}; "
                               "scores on different releases are not comparable (pass --allow-mixed-releases "
                               "to report them side by side anyway)")
    return mixed


PROVENANCE_HEADER = ["model", "suite", "release (path@revision)", "preset", "generator", "content hash", "lm-eval",
                     "model args", "gen kwargs"]
"""Columns of :func:`provenance_rows` (report.md's provenance section and the Space's)."""


def provenance_rows(prov: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
    """One row per model, suite and release it was scored on (:data:`PROVENANCE_HEADER` columns);
    ``prov`` is model -> ``{"releases": {suite: [ReleaseProvenance]}, "runs": [lm-eval run, ...]}``."""
    rows = []
    for model, entry in sorted(prov.items()):
        runs = entry.get("runs") or []
        args = "; ".join(sorted({str(r.get("model_args")) for r in runs if r.get("model_args")})) or None
        gen = "; ".join(sorted({json.dumps(r.get("gen_kwargs"), sort_keys=True) for r in runs
                                if r.get("gen_kwargs")})) or None
        lm_eval = ", ".join(sorted({str(r["lm_eval_version"]) for r in runs if r.get("lm_eval_version")})) or None
        for suite, releases in sorted(entry.get("releases", {}).items()):
            for rel in releases:
                where = f"{rel.path}@{rel.revision}" if rel.revision else rel.path
                digest = str(rel.content_hash)[:12] if rel.content_hash else None
                rows.append([model, suite, where, rel.preset, rel.generator_version, digest, lm_eval, args, gen])
    return rows


def provenance_markdown(prov: Mapping[str, Mapping[str, Any]], mixed: Mapping[str, list[str]],
                        table: Any) -> list[str]:
    """The report.md provenance section: :func:`provenance_rows` under a note on mixed releases."""
    parts = ["## Provenance", ""]
    for suite, ids in mixed.items():
        parts += [(f"**Mixed releases:** models of suite `{suite}` were scored on {len(ids)} different releases "
                   f"({', '.join(i[:12] for i in ids)}); their numbers are not comparable."), ""]
    return parts + [table(PROVENANCE_HEADER, provenance_rows(prov)), ""]
