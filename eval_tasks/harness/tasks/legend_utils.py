"""lm-eval hooks of the LegendBench tasks (``chartprobe_legend*``): thin wrappers over the legend metrics.

Data: :func:`load_legend` reads a ``chartprobe-legend`` config through ``load_release`` and adds
the ``prompt`` column, the frozen ``prompts/legend.txt`` with the row's question filled in (the
question already ends with the visual-vocabulary hint) behind the image placeholder. The prompt
asks for a concise answer and for exactly "I don't know" when the chart lacks the evidence (T4).
:func:`prompt` refuses a file whose sha256 differs from :data:`PROMPT_SHA256`: a changed prompt
changes scores, so it comes with a new hash and a task version bump.

Metrics are cross-document (chains, base/variant pairs, abstention precision): each
``process_*`` hook returns the scored record under every metric name of its task, and each
aggregation computes one metric of ``chartprobe.eval_tasks.metrics.legend`` / ``legend_studies`` over the
whole list; an undefined metric is NaN so lm-eval's table still prints. The table shows readable
names (``value_extraction`` for the paper's VE, ..., :mod:`chartprobe.eval_tasks.metrics.names`);
the metric code and the summaries keep the paper's keys. Their stderr in lm-eval's
table is a bootstrap over base charts (``LegendSuite.unit_key``: every question, chain, group and
intervention of one chart shares its data; :mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`); a chart
drawn twice gets fresh ids (:data:`UNIT_IDS`) so its chains and groups count twice, not merge.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.harness.lm_eval_stderr import clustered
from chartprobe.eval_tasks.metrics import legend as lm
from chartprobe.eval_tasks.metrics import legend_studies as ls
from chartprobe.eval_tasks.metrics.bootstrap import relabel_fields
from chartprobe.eval_tasks.metrics.names import readable
from chartprobe.eval_tasks.rescoring.data import load_release
from chartprobe.eval_tasks.scoring.logged_once import share
from chartprobe.eval_tasks.suites.legend import LegendSuite

PROMPT_PATH = Path(__file__).parent / "prompts" / "legend.txt"
PROMPT_SHA256 = "d26a05fe1e1176932119ffe039ff6532fb752351e517d43f0e7947de5f16331c"


class PromptChangedError(RuntimeError):
    """``prompts/legend.txt`` does not match its recorded sha256."""


def prompt() -> str:
    """The frozen prompt template (``{QUESTION}`` placeholder), checked against its sha256."""
    data = PROMPT_PATH.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != PROMPT_SHA256:
        raise PromptChangedError(f"prompts/legend.txt has sha256 {digest}, recorded {PROMPT_SHA256}")
    return data.decode().strip()


@lazy_images
def load_legend(chartprobe_release: str = "legend", chartprobe_config: str = "snapshot", **metadata: Any):
    """The documents of one legend config: the release rows plus their ``prompt``."""
    import datasets

    template = prompt()
    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        # column reads only: no image is decoded (or re-encoded) to build the prompts
        prompts = [tok + template.replace("{QUESTION}", q) for tok, q in zip(ds["image_token"], ds["question"])]
        out[split] = ds.add_column("prompt", prompts)
    return datasets.DatasetDict(out)


def _process(study: str | None):
    names = [readable(n) for n in ls.metric_names(study)]  # the table names (metric_names.py)

    def process(doc: dict[str, Any], results: list[str]) -> dict[str, dict[str, Any]]:
        record = lm.score_record(doc, results[0])
        return share(record, names)  # logged once per line, not once per metric

    process.__name__ = f"process_{study or 'snapshot'}"
    process.__doc__ = f"Score one row; its record under every metric of the {study or 'snapshot'} task."
    return process


process_results = _process(None)
process_order = _process("order")
process_visibility = _process("visibility")
process_channel = _process("channel")
process_style = _process("style")


UNIT_IDS = ("id", "base_id", "group_id", "chain_id")
"""Record ids the metrics group by, renamed in a base chart's extra bootstrap draws."""
_by_chart = clustered(LegendSuite().unit_key, relabel_fields(*UNIT_IDS))


def _aggregation(name: str, fn):
    @_by_chart
    def aggregate(records: list[dict[str, Any]]) -> float:
        value = fn(records)
        return math.nan if value is None else float(value)

    aggregate.__name__ = name
    aggregate.__doc__ = f"LegendBench {name} over every document (NaN when undefined)."
    return aggregate


AGGREGATIONS = {readable(name): _aggregation(readable(name), fn) for name, fn in
                {**lm.PROFILE, **{k: v for study in ls.STUDY_METRICS.values() for k, v in study.items()}}.items()}
"""Table name (``metric_names.readable``) -> aggregation; `aggregation: !function legend_utils.<name>`
needs module attributes."""
globals().update(AGGREGATIONS)
