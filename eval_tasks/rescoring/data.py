"""Where the lm-eval tasks get their data: the Hub at a pinned revision, or local releases.

By default every task reads its dataset from the Hub repo and the pinned revision tag in
``HUB_REPOS``, so a score always names the exact data it was computed on.

The one switch: set ``CHARTPROBE_DATA`` to a folder holding release folders (what
``chartprobe build <name> --out <folder>`` writes) and every task reads
``$CHARTPROBE_DATA/chartprobe-<name>`` instead, offline.  Tests and unreleased datasets use
this; nothing else changes, the same YAML serves both.

lm-eval wiring: a task YAML says ``custom_dataset: !function utils.load_release`` and
``dataset_kwargs: {chartprobe_release: <name>, chartprobe_config: <config>}``.  lm-eval
0.4.13 calls ``custom_dataset(**metadata, **dataset_kwargs)`` where ``metadata`` also holds
every ``--model_args`` key, so ``load_release`` ignores unknown keyword arguments and our
own keys carry a ``chartprobe_`` prefix to never collide with them.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path
from typing import Any

ENV_VAR = "CHARTPROBE_DATA"

HUB_REPOS: dict[str, tuple[str, str]] = {
    # release name -> (Hub dataset repo, pinned revision tag); bump the tag with the task version.
    "smoke": ("chartprobe/chartprobe-smoke", "v0.1.0"),
    "probes": ("chartprobe/chartprobe-probes", "v0.1.0"),
    "families": ("chartprobe/chartprobe-families", "v0.1.0"),
    "judge": ("chartprobe/chartprobe-judge", "v0.1.0"),
    "legend": ("chartprobe/chartprobe-legend", "v0.1.0"),
}


class ReleaseNotFoundError(FileNotFoundError):
    """``CHARTPROBE_DATA`` is set but does not hold the release a task asked for."""


def release_folder_name(name: str) -> str:
    """The folder (and Hub repo) name of release ``name``: ``chartprobe-<name>``."""
    return f"chartprobe-{name}"


def resolve_release(name: str) -> dict[str, Any]:
    """Return the ``datasets.load_dataset`` arguments (``path`` and maybe ``revision``) for ``name``.

    With ``CHARTPROBE_DATA`` set, the path is the local release folder, which must exist
    (``ReleaseNotFoundError`` otherwise, naming the path); without it, the Hub repo and its
    pinned revision from ``HUB_REPOS`` (``KeyError`` for an unknown name).
    """
    root = os.environ.get(ENV_VAR)
    if root:
        folder = Path(root).expanduser() / release_folder_name(name)
        if not (folder / "README.md").is_file():
            raise ReleaseNotFoundError(
                f"{ENV_VAR}={root} but release '{name}' is not there: expected a release folder "
                f"with a README.md at {folder} (build it with `chartprobe build {name} --out {root}`)"
            )
        return {"path": str(folder)}
    if name not in HUB_REPOS:
        known = ", ".join(sorted(HUB_REPOS))
        raise KeyError(
            f"no Hub repo pinned for release '{name}' (known: {known}); set {ENV_VAR} to use a local build"
        )
    repo, revision = HUB_REPOS[name]
    return {"path": repo, "revision": revision}


IMAGE_TOKEN = "<image>"


def image_token_for(metadata: dict[str, Any]) -> str:
    """The image placeholder a prompt should carry for the model lm-eval is running.

    Local multimodal models (``hf-multimodal``, vLLM) need a literal ``<image>`` in the text;
    API models get the image as a message part, and a literal ``<image>`` left in the text
    makes LLaVA-style servers count one image too many. lm-eval merges ``--model_args`` into
    the task metadata, so an API model is recognised by its ``base_url``. An explicit
    ``--metadata '{"chartprobe_image_token": ""}'`` overrides the guess.
    """
    if "chartprobe_image_token" in metadata:
        return str(metadata["chartprobe_image_token"])
    return "" if metadata.get("base_url") else IMAGE_TOKEN


def truthy(value: Any) -> bool:
    """A ``--model_args`` / ``--metadata`` flag read as lm-eval writes it (``True``, ``1``, ``yes``, ``on``)."""
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def interleaves(metadata: dict[str, Any]) -> bool:
    """Whether ``--model_args`` asked the model to put images at their placeholders (``interleave=True``)."""
    return truthy(metadata.get("interleave", ""))


def released_image_token(metadata: dict[str, Any], task: str, where: str) -> str:
    """The placeholder a ``_paper`` task's released prompt carries at its images' places.

    ``<image>`` where the model interleaves (each image lands at its place, as the released code
    put it), else :func:`image_token_for`'s default, after one warning in lm-eval's log that the
    images come ``where`` the released code did not put them (lm-eval puts them first)."""
    if "chartprobe_image_token" in metadata or interleaves(metadata):
        return image_token_for(metadata) if "chartprobe_image_token" in metadata else IMAGE_TOKEN
    logging.getLogger("lm-eval").warning(
        "%s: the model does not interleave images with text (add interleave=True to --model_args), so %s",
        task, where)
    return image_token_for(metadata)


def local_cache(source: dict[str, Any], digest: str) -> dict[str, Any]:
    """``load_dataset`` arguments that make a local release's cached Arrow copy follow its content.

    ``datasets`` keys the cache of a local folder by its card's YAML (features, row and byte
    counts), not by the parquet files: a release rebuilt in place with rows of the same sizes (a
    new version string, a corrected answer of the same length) would be read back from the old
    build's cache. Keyed by the card's content hash instead; a card without one is re-read.
    """
    if "revision" in source:  # the Hub: the cache follows the pinned revision
        return {}
    if not digest:
        return {"download_mode": "force_redownload"}
    import datasets

    return {"cache_dir": str(Path(datasets.config.HF_DATASETS_CACHE) / "chartprobe-releases" / digest[:16])}


def load_config(source: dict[str, Any], config: str, digest: str):
    """``datasets.load_dataset(name=config, **source)`` (every split, a ``DatasetDict``), read once per
    process for each content hash.

    Each ``load_dataset`` of a release parses its card's YAML (pure-Python, 0.1-0.2 s for the probes
    card) before a row is read, and one lm-eval run loads a config once per task over it (probes:
    per skill), an in-process study once per evaluation. Rows are immutable Arrow tables, so the
    memo hands out the same datasets in a fresh dict; it is keyed by everything ``load_dataset`` is
    given, content hash and cache folder included, so a release rebuilt in place is read anew. A
    card without a hash is never memoized (``force_redownload`` every time, as before).
    """
    import datasets

    kwargs = {**source, **local_cache(source, digest)}
    if "download_mode" in kwargs:
        return datasets.load_dataset(name=config, **kwargs)
    return datasets.DatasetDict(_load_memo(config, tuple(sorted(kwargs.items()))))


@functools.lru_cache(maxsize=64)
def _load_memo(config: str, kwargs: tuple[tuple[str, Any], ...]):
    import datasets

    return datasets.load_dataset(name=config, **dict(kwargs))


def load_release(chartprobe_release: str, chartprobe_config: str = "default",
                 chartprobe_where: dict[str, Any] | None = None, **lm_eval_metadata: Any):
    """Load every split of ``chartprobe_config`` of release ``chartprobe_release`` as a ``DatasetDict``.

    This is the ``custom_dataset`` callable of the lm-eval tasks (see the module docstring
    for why it accepts extra keyword arguments). It adds an ``image_token`` column that the
    task prompts start with: ``<image>`` for local models, empty for API models
    (:func:`image_token_for`), so one task serves both kinds of model, and a ``release_hash``
    column (the card's content hash) so lm-eval's logged samples name their release. ``chartprobe_where``
    keeps only rows whose columns equal the given values (e.g. ``{skill: perception}``), so
    one config can feed one task per skill.
    """
    import datasets
    from chartprobe.dataset_builders.release.labels import as_text

    from .doc_order import dataset_order
    from .provenance import release_hash

    source = resolve_release(chartprobe_release)
    digest = release_hash(chartprobe_release, source)  # logged with every sample: it names its release
    dd = load_config(source, chartprobe_config, digest)
    token = image_token_for(lm_eval_metadata)
    where = dict(chartprobe_where or {})
    out = {}
    for split, ds in dd.items():
        ds = as_text(ds)  # ClassLabel columns as their names: prompts, filters and scores read names
        if where:  # input_columns: compare plain columns without decoding a single image
            cols = sorted(where)
            ds = ds.filter(lambda *vals, cols=cols: all(v == where[c] for c, v in zip(cols, vals)),
                           input_columns=cols)
        order = dataset_order(ds, chartprobe_release)  # templates take turns: any --limit covers them all
        out[split] = ds.add_column("image_token", [token] * len(ds)).add_column("release_hash", [digest] * len(ds))
        out[split] = out[split].select(order)  # last: an added column would copy the reordered images
    return datasets.DatasetDict(out)
