"""Validity of a release: reference and shortcut agents, ``chartprobe validate``, the seed check."""
