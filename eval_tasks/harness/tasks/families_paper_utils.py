"""lm-eval hooks of ``chartprobe_families_paper``: the Chartographer families asked and read as released.

Same documents and family metrics as ``chartprobe_families`` (:mod:`families_utils`), with the
released evaluation protocol (``compling-wat/Chartographer`` at 1f02025c,
``src/pipeline/prediction/generate_predictions.py``, ``src/common/answers.py``,
``src/pipeline/prediction/evaluate_predictions.py``):

- the released QA prompt byte for byte (``CHARTMUSEUM_PROMPTS["QA"]``, its stray leading quote and
  trailing spaces kept, frozen with its sha256 in :mod:`chartprobe.eval_tasks.scoring.paper_prompts`),
  ``[QUESTION]`` replaced by the question, in one user turn with the image *after* the text (the
  released clients append it to the last user message): pass ``interleave=True`` in
  ``--model_args`` (``hf-multimodal`` and ``chartprobe-chat-completions`` alike: the loader reads it
  there, and without it lm-eval puts the image first and the log says so);
- the released extraction (:func:`~chartprobe.eval_tasks.metrics.families.paper_extract`): the first
  ``<answer>`` block, the whole response when there is none;
- judged by the released ``COMPARE_ANSWER`` prompt when ``CHARTPROBE_JUDGE_BASE_URL`` / ``_MODEL``
  (/ ``_API_KEY``) are set, as the paper scored; without a judge the typed scorer reads the released
  extraction, and every record says ``judge: typed``;
- decoding in the YAML: 1,024 new tokens (the released ``--max_new_tokens`` default).
"""

from __future__ import annotations

from typing import Any

from chartprobe.eval_tasks.answer_judge.equivalence import judge_from_env
from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.harness.tasks.families_utils import METRICS
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.rescoring.data import load_release, released_image_token
from chartprobe.eval_tasks.scoring.logged_once import share
from chartprobe.eval_tasks.scoring.paper_prompts import layout, render
from chartprobe.eval_tasks.scoring.voting import majority_record, responses

LAYOUT_FILE, LAYOUT = "chartographer_layout", "qa"


@lazy_images
def load_families_paper(chartprobe_release: str = "families", chartprobe_config: str = "all", **metadata: Any):
    """The family rows (as ``families_utils.load_release``) with the released prompt in ``prompt``."""
    import datasets

    lay = layout(LAYOUT_FILE, LAYOUT)
    token = released_image_token(metadata, "chartprobe_families_paper",
                                 "the image comes before the released prompt (released: after it)")
    out = {}
    for split, ds in load_release(chartprobe_release, chartprobe_config, **metadata).items():
        out[split] = ds.map(lambda question: {"prompt": render(lay, {"question": question}, token)["prompt"]},
                            input_columns=["question"])
    return datasets.DatasetDict(out)


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, tuple]:
    """One row scored on the released extraction (the judge's verdict on it when one is configured)."""
    judge = judge_from_env()
    scored = [fm.score_family_record(doc, r, judge, released=True) for r in responses(results)]
    item = fm.to_item(scored[0] if len(scored) == 1 else majority_record(scored))
    return share(item, METRICS)
