"""Vega's runtime and worker processes: a fork after the first Vega call must not hang.

vl-convert's runtime lives on threads a forked child does not inherit; before the guard, a
style-shift build forked its pool in a process that had already drawn with Vega and the
workers waited for ever (CI hit its 90-minute limit). Each check here has a short timeout.
"""

from __future__ import annotations

import multiprocessing

import pytest

pytest.importorskip("vl_convert")

from chartprobe.dataset_builders.core.vega import runtime
from chartprobe.dataset_builders.release import pool as pool_mod
from chartprobe.dataset_builders.release.hub import build_release
from chartprobe.dataset_builders.release.preset import load_preset, preset_path


def _draw_in_child() -> str:
    try:
        runtime.vlc()
    except runtime.ForkedRuntime as exc:
        return f"refused: {exc}"
    return "drew"


def test_a_child_forked_after_the_runtime_started_is_refused_not_hung():
    runtime.vlc()
    assert runtime.started()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        answer = pool.apply_async(_draw_in_child).get(timeout=60)  # the old code hung right here
    assert answer.startswith("refused: vl-convert's runtime was started in process")
    assert "'spawn'" in answer


def test_a_child_spawned_after_the_runtime_started_draws():
    runtime.vlc()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply_async(_draw_in_child).get(timeout=120) == "drew"


def test_the_build_pool_uses_a_fork_server_once_this_process_has_drawn_with_vega():
    runtime.vlc()
    assert pool_mod._start_method() == "forkserver"


def test_a_style_shift_build_with_two_workers_finishes_after_vega_has_drawn_here(tmp_path):
    from dataclasses import replace

    runtime.vlc()
    small = load_preset(preset_path("probes", "small"))
    one = replace(small, configs={"style_shift_pie": small.configs["style_shift_pie"]})
    info = build_release("probes", tmp_path, one, num_proc=2)
    assert info.num_rows["style_shift_pie"]["test"] > 0
