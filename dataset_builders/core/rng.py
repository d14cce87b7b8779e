"""Local, order-independent random number generators.

Every random choice in chartprobe comes from ``rng_for(seed, *keys)``: a numpy
Generator seeded from a SeedSequence built from the release seed and a path of
keys (item id, component name, ...). Keys are turned into integers with a stable
digest (never Python's salted ``hash()``), so the stream an item sees does not
depend on which worker process builds it or in what order.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["rng_for", "stable_int"]


def stable_int(key: object) -> int:
    """Map an int or string key to a stable non-negative 64-bit integer.

    Ints are used as they are (if non-negative); everything else is hashed with
    BLAKE2b over its ``str`` form, which is identical across processes and runs.
    """
    if isinstance(key, bool):
        key = int(key)
    if isinstance(key, (int, np.integer)) and int(key) >= 0:
        return int(key)
    digest = hashlib.blake2b(f"{type(key).__name__}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def rng_for(seed: int, *keys: object) -> np.random.Generator:
    """Return a fresh Generator for ``(seed, *keys)``.

    >>> rng_for(0, "item-3", "data").integers(100) == rng_for(0, "item-3", "data").integers(100)
    True
    """
    entropy = [stable_int(seed)] + [stable_int(k) for k in keys]
    return np.random.default_rng(np.random.SeedSequence(entropy))
