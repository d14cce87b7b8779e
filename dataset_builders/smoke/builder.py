"""``chartprobe-smoke``: a tiny bar-chart value-reading set that exercises the whole path.

Twenty vertical bar charts, one question each ("What is the value of X?"). It exists
to prove release -> ``load_dataset`` -> lm-eval -> scoring -> metrics end to end, fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ..core.charts import CHARTS
from ..core.charts._base import SampleConfig
from ..core.rng import rng_for
from ..release.dataset import (
    GENERATOR_VERSION,
    DatasetBuilder,
    base_features,
    dataset,
)
from ..release.preset import Preset
from ..release.schema import OneOf


@dataset("smoke")
class SmokeDataset(DatasetBuilder):
    """Bar charts with a single value-reading question each."""

    title = "chartprobe smoke test"
    description = ("Vertical bar charts, each with one question asking for the value of a named "
                   "bar. Answers are computed from the chart spec, never read from pixels.")
    license = "apache-2.0"
    # The params build_item reads, checked by preset.check_against_builder before a build.
    param_types: ClassVar[dict[str, dict[str, Any]]] = {"*": {"kind": OneOf(CHARTS.names)}}

    def features(self, config: str) -> Any:
        return base_features(chart_kind="string", target="string")

    def item_keys(self, preset: Preset, config: str, split: str) -> list[str]:
        n = preset.configs[config].splits[split]
        return [f"{self.name}-{config}-{split}-{i:05d}" for i in range(n)]

    def build_item(self, preset: Preset, config: str, split: str, key: str) -> Iterator[dict]:
        from ..core.render import (  # matplotlib only where images are made
            render,
            sample_spec,
        )

        kind = preset.params(config).get("kind", "bar")
        spec = sample_spec(kind, rng_for(preset.seed, key, "spec"),
                           SampleConfig(n_series=(1, 1), integer_values=True))
        series = spec.data.series[0]
        pick = int(rng_for(preset.seed, key, "question").integers(len(spec.data.categories)))
        category = spec.data.categories[pick]
        yield {
            "id": key,
            "image": {"bytes": render(spec).png, "path": None},
            "question": f"What is the value of {category}?",
            "answer": f"{series.values[pick]:g}",
            "answer_type": "number",
            "spec": spec.to_json(),
            "seed": preset.seed,
            "generator_version": GENERATOR_VERSION,
            "chart_kind": spec.kind,
            "target": category,
        }
