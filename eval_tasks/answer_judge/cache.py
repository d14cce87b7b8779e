"""The judge's content cache: one reply per (prompt, model, decoding), on disk, shared by runs.

A judge at temperature 0 is asked the same filled prompt again whenever a model gives the same
answer to the same question, and every time ``chartprobe score --judge`` reruns; the cache keeps
what the server replied so a rerun makes no call and scores byte-identically. The key is the
sha256 of the filled prompt, the requested model and the decoding parameters (:func:`cache_key`);
the base URL and the API key are not part of it, so the same model behind another endpoint (a
proxy, a mirror) shares the replies. The raw reply is stored, never the parsed verdict, so a
better reply parser applies to cached replies as well.

Storage is one SQLite file (``judge.sqlite``) under the cache folder: safe for the threads of
one process (one connection behind a lock) and for ``--num-proc`` worker processes (SQLite's
file locking). Default folder ``~/.cache/chartprobe/judge``; ``CHARTPROBE_JUDGE_CACHE`` or
``--judge-cache`` move it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CACHE_ENV", "CachedReply", "JudgeCache", "cache_key", "default_cache_dir"]

CACHE_ENV = "CHARTPROBE_JUDGE_CACHE"
"""Environment variable naming the cache folder (``--judge-cache`` wins over it)."""
FILE_NAME = "judge.sqlite"


def default_cache_dir() -> Path:
    """``$CHARTPROBE_JUDGE_CACHE``, else ``~/.cache/chartprobe/judge``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "chartprobe" / "judge").expanduser()


def cache_key(prompt: str, model: str, decoding: Mapping[str, Any]) -> str:
    """sha256 over the filled prompt, the requested model and the decoding parameters."""
    doc = {"prompt": prompt, "model": model, "decoding": dict(decoding)}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedReply:
    """What the server answered to one prompt."""

    reply: str
    """The assistant message's text, as the server sent it."""
    server_model: str
    """The model name the server reported in its response."""


class JudgeCache:
    """The replies stored under one folder (created on first use)."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder).expanduser() / FILE_NAME
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
            db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
                       "reply TEXT NOT NULL, server_model TEXT NOT NULL)")
            db.commit()
            self._db = db
        return self._db

    def get(self, key: str) -> CachedReply | None:
        """The reply stored under ``key``, or None (a lookup never creates the cache folder, so a
        ``score --judge`` whose judge never answered leaves no new folder behind)."""
        with self._lock:
            if self._db is None and not self.path.is_file():
                return None
            row = self._conn().execute("SELECT reply, server_model FROM replies WHERE key = ?", (key,)).fetchone()
        return CachedReply(*row) if row else None

    def put(self, key: str, model: str, reply: CachedReply) -> None:
        """Store ``reply`` under ``key`` (a second writer of the same key keeps the first reply)."""
        with self._lock:
            db = self._conn()
            db.execute("INSERT OR IGNORE INTO replies VALUES (?, ?, ?, ?)", (key, model, reply.reply,
                                                                             reply.server_model))
            db.commit()

    def __len__(self) -> int:
        with self._lock:
            if self._db is None and not self.path.is_file():
                return 0
            return int(self._conn().execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        """Close the connection (reopened on the next use)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
