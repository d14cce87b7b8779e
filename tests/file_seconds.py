"""Seconds each heavy test file took (setups included) in one full run on the 2-core CI box, for the order
the files are handed to pytest-xdist's workers: heaviest first (``conftest.pytest_collection_modifyitems``).

Files are dealt to workers in collection order, one whole file at a time (``--dist loadfile``; with
``--no-loadscope-reorder``: since 3.8 pytest-xdist otherwise re-sorts files by their number of tests,
which dealt the shard builds out at 443 s and the seed check at 828 s of a 1,064 s run); alphabetical
order left the model-zoo files to the end, one worker running them while the others sat idle. Longest
first keeps every worker busy to the end. Only the order depends on these numbers, never a result: a stale
or missing entry (files under 10 s are left out) costs balance, not correctness. Refresh from a run's
``--durations=0`` output when the heavy files change (a run of 2026-12-07, 4,053 tests; the zoo eval,
the studies, legend_visible and training_sft since cut by the warm interpreter and shared releases).
"""

FILE_SECONDS: dict[str, float] = {
    "test_zoo_eval.py": 90,
    "test_training_bottleneck.py": 120,
    "test_shards.py": 117,
    "test_generation_budget.py": 121,
    "test_harness.py": 121,
    "test_reconstruct_api.py": 102,
    "test_seed_check.py": 87,
    "test_shortcut_agents.py": 80,
    "test_zoo_train.py": 77,
    "test_reconstruct_pipeline.py": 77,
    "test_legend_visible.py": 12,
    "test_figure_margins.py": 61,
    "test_space.py": 53,
    "test_reconstruct_protocol.py": 50,
    "test_space_models12.py": 47,
    "test_training_sft.py": 25,
    "test_cli_signals.py": 33,
    "test_reconstruct_sandbox.py": 33,
    "test_lmms_eval.py": 33,
    "test_validate.py": 32,
    "test_gpu_check.py": 30,
    "test_docs.py": 29,
    "test_vega.py": 27,
    "test_render_rows.py": 24,
    "test_legend_tables.py": 24,
    "test_task_groups.py": 24,
    "test_build_pool.py": 23,
    "test_legend_shortcuts.py": 22,
    "test_rescore.py": 20,
    "test_readability.py": 19,
    "test_sandbox_breaches.py": 19,
    "test_space_runs.py": 18,
    "test_llm_judge.py": 18,
    "test_legend_harness.py": 17,
    "test_legend_colorbar.py": 16,
    "test_report_plots.py": 16,
    "test_cli.py": 15,
    "test_doc_order.py": 15,
    "test_provenance.py": 14,
    "test_lm_eval_stderr.py": 14,
    "test_report.py": 13,
    "test_voting.py": 13,
    "test_probes_ood.py": 13,
    "test_families_harness.py": 12,
    "test_validity_rows.py": 12,
    "test_probes.py": 12,
    "test_scoring.py": 12,
    "test_space_hygiene.py": 11,
    "test_vlmevalkit.py": 11,
    "test_install.py": 11,
    "test_hub.py": 11,
    "test_zero_shot_tasks.py": 11,
}
