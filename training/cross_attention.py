"""Cross-attention VLMs (Mllama, Llama 3.2 Vision) under TRL's vision collator.

LLaVA-style models put image features into the token sequence; Mllama's text attends to them
through cross-attention layers, steered by a ``cross_attention_mask`` of shape (batch, tokens,
images, tiles) that its processor builds for the text it is given. TRL's
``DataCollatorForVisionLanguageModeling`` processes the prompt (with the images) and the
completion separately, concatenates the ``input_ids``, flushes them left and truncates, but
leaves that mask at the prompt's length and left-padded alignment, so the first step fails with
"The size of tensor a (257) must match the size of tensor b (236)". :func:`keep_in_step` wraps the
trainer's collator to rebuild the mask from the final ``input_ids`` with the processor's own
functions (each image attends from its ``<|image|>`` token on, over its valid tiles), exactly as
the processor would have for the whole prompt + completion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["KEY", "keep_in_step", "needs_rebuild", "rebuild_mask"]

KEY = "cross_attention_mask"


def needs_rebuild(processor: Any) -> bool:
    """Whether ``processor`` feeds its model a cross-attention mask (the Mllama family)."""
    return KEY in (getattr(processor, "model_input_names", None) or ())


def rebuild_mask(batch: Any, image_token_id: int, max_tiles: int) -> Any:
    """``batch`` with its cross-attention mask rebuilt for its final ``input_ids``."""
    import torch
    from transformers.models.mllama.processing_mllama import (
        convert_sparse_cross_attention_mask_to_dense,
        get_cross_attention_token_mask,
    )

    if KEY not in batch:
        return batch
    ids = batch["input_ids"]
    sparse = [get_cross_attention_token_mask(row.tolist(), image_token_id) for row in ids]
    valid_tiles = batch["aspect_ratio_mask"].sum(-1).tolist()  # (batch, images): tiles each image has
    num_tiles = [tiles[:len(spans)] for tiles, spans in zip(valid_tiles, sparse, strict=True)]
    dense = convert_sparse_cross_attention_mask_to_dense(sparse, num_tiles=num_tiles, max_num_tiles=max_tiles,
                                                         length=ids.shape[1])
    batch[KEY] = torch.as_tensor(dense, dtype=batch[KEY].dtype)
    return batch


def keep_in_step(trainer: Any, processor: Any) -> bool:
    """Wrap ``trainer``'s collator so a cross-attention mask follows the completion; True if it was wrapped."""
    if not needs_rebuild(processor):
        return False
    collate: Callable[[list], Any] = trainer.data_collator
    token, tiles = processor.image_token_id, processor.image_processor.max_image_tiles

    def collate_in_step(examples: list) -> Any:
        return rebuild_mask(collate(examples), token, tiles)

    trainer.data_collator = collate_in_step
    return True
