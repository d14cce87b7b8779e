"""``chartprobe push``: upload a release folder to the Hub and tag the commit.

Uses ``huggingface_hub`` (create_repo, create_commit, create_tag). The token comes from
``HF_TOKEN`` or the cached login, is handed to ``HfApi`` only, and is never printed or
logged; the dry-run plan says only whether a token is available.

Before any upload (and in ``--dry-run``) the folder is verified (``verify.py``): only the
files a build writes, every parquet readable, the content hash recomputed equal to the
card's. The commit then names exactly those files, so nothing that appears in the folder
later can ride along.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .card import read_card_metadata
from .verify import VerifyError, verify_release

__all__ = ["PushError", "PushPlan", "plan_push", "push_release"]

_TAG = re.compile(r"^v\d+\.\d+\.\d+([.-][0-9A-Za-z.]+)?$")
_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")


class PushError(RuntimeError):
    """The release or the arguments are not fit to push, or the Hub refused."""


@dataclass(frozen=True)
class PushPlan:
    """Everything ``push`` will do, for ``--dry-run`` and for logging."""

    release: Path
    repo_id: str
    tag: str
    files: tuple[str, ...]
    total_bytes: int
    commit_message: str
    private: bool

    def describe(self) -> str:
        """Human-readable plan (never includes a token)."""
        lines = [f"create dataset repo {self.repo_id} (exist_ok, private={self.private})",
                 f"upload {len(self.files)} files ({self.total_bytes / 1e6:.1f} MB) from {self.release}:"]
        lines += [f"  {f}" for f in self.files]
        lines += [f"commit message: {self.commit_message}", f"tag the commit {self.tag}"]
        return "\n".join(lines)


def plan_push(release: str | Path, repo_id: str, tag: str, *, private: bool = False) -> PushPlan:
    """Check the release and arguments and return the plan; raise PushError on bad input."""
    folder = Path(release)
    if not (folder / "README.md").is_file():
        raise PushError(f"{folder} is not a release folder (no README.md dataset card)")
    try:
        card = read_card_metadata(folder)
    except (ValueError, OSError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PushError(f"{folder}/README.md: {first}") from None
    if not isinstance(card, dict):
        raise PushError(f"{folder}/README.md: the YAML header must be a mapping, got {type(card).__name__}")
    meta = card.get("chartprobe") or {}
    if not meta.get("content_hash"):
        raise PushError(f"{folder}/README.md has no chartprobe provenance block; rebuild the release")
    if not _REPO.match(repo_id):
        raise PushError(f"--repo must look like ORG/NAME, got {repo_id!r}")
    if not _TAG.match(tag):
        raise PushError(f"--tag must look like vX.Y.Z, got {tag!r}")
    try:
        files = tuple(verify_release(folder, card, (folder / "README.md").read_text()))
    except VerifyError as exc:
        raise PushError(str(exc)) from None
    total = sum((folder / f).stat().st_size for f in files)
    message = (f"chartprobe {meta.get('dataset')} {tag} (generator {meta.get('generator_version')}, "
               f"content {str(meta['content_hash'])[:12]})")
    return PushPlan(folder, repo_id, tag, files, total, message, private)


def push_release(plan: PushPlan, *, endpoint: str | None = None) -> str:
    """Execute a plan; return the URL of the tagged commit."""
    from huggingface_hub import CommitOperationAdd, HfApi
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    api = HfApi(endpoint=endpoint)
    try:
        api.create_repo(plan.repo_id, repo_type="dataset", private=plan.private, exist_ok=True)
        # The verified files by name (not upload_folder): a file added since the plan stays home.
        adds = [CommitOperationAdd(path_in_repo=f, path_or_fileobj=str(plan.release / f)) for f in plan.files]
        commit = api.create_commit(plan.repo_id, operations=adds, repo_type="dataset",
                                   commit_message=plan.commit_message)
        api.create_tag(plan.repo_id, tag=plan.tag, repo_type="dataset", revision=commit.oid,
                       tag_message=plan.commit_message)
    except OfflineModeIsEnabled:
        raise PushError("HF_HUB_OFFLINE is set: cannot reach the Hub") from None
    except HfHubHTTPError as exc:
        raise PushError(f"the Hub refused the push: {str(exc).splitlines()[0]}") from None
    except Exception as exc:  # noqa: BLE001 - transport error classes differ across hub/httpx versions
        first = (str(exc).splitlines() or [""])[0][:200]
        raise PushError(f"cannot reach the Hub: {type(exc).__name__}: {first}") from None
    return f"{commit.commit_url} (tag {plan.tag})"
