"""The release layer: rows -> a versioned Hugging Face Hub dataset folder.

``dataset`` (the ``DatasetBuilder`` contract, the ``DATASETS`` registry, the base columns and
``GENERATOR_VERSION``), ``hub`` (``build_release``: shards, temp folder + rename, content hash),
``card`` (dataset cards), ``preset`` (release presets) and ``push`` (upload + tag).
Imports only the core; benchmark packages register their builders here.
"""
