"""Floating inputs in the model's dtype: some processors return pixels in another one.

Llama 4's image processor returns bfloat16 pixel values whatever the model's dtype, so an fp32 model
(training on CPU) fails in its first layer ("expected scalar type Float but found BFloat16"). lm-eval
casts pixel values to the model's dtype itself; TRL's vision collator does not. :func:`cast_inputs`
wraps the trainer's collator so every floating tensor of a batch (pixel values, any mask in floats)
reaches the model in its dtype; integer tensors (ids, labels, grids) are left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def cast_floats(batch: Any, dtype: Any) -> Any:
    """``batch`` (a mapping of tensors) with every floating tensor not already in ``dtype`` cast to it."""
    for key, value in batch.items():
        if getattr(value, "is_floating_point", None) and value.is_floating_point() and value.dtype != dtype:
            batch[key] = value.to(dtype)
    return batch


def cast_inputs(trainer: Any, dtype: Any) -> None:
    """Wrap ``trainer``'s collator so its batches' floating tensors are in ``dtype``."""
    collate: Callable[[list], Any] = trainer.data_collator

    def collate_in_dtype(examples: list) -> Any:
        return cast_floats(collate(examples), dtype)

    trainer.data_collator = collate_in_dtype
