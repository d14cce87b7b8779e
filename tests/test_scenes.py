"""The shape-scene domain: spec round trip and validation, sampling, rendering, and every
``S-*`` template's items re-derived from their recorded programs."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import math
import subprocess
import sys

import pytest
from chartprobe.dataset_builders.core.programs import Program, format_answer, run
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.scenes import (
    SceneObject,
    SceneSpec,
    SceneView,
    render_scene,
    sample_scene,
)
from chartprobe.dataset_builders.core.scenes.render import scene_boxes
from chartprobe.dataset_builders.core.scenes.spec import COLORS, EXTENT, SCENE_VERSION
from chartprobe.dataset_builders.core.spec import SpecError
from chartprobe.dataset_builders.probes.templates import TEMPLATES
from chartprobe.dataset_builders.probes.templates._base import SKILL_CODES
from chartprobe.eval_tasks.scoring.typed import score_answer
from PIL import Image

SHAPE_TEMPLATES = [name for name, cls in TEMPLATES.items() if cls.domain == "shapes"]
N_SCENES = 40


def obj(shape="circle", color="red", size="small", fill="solid", x=0.5, y=0.5) -> SceneObject:
    return SceneObject(shape, color, size, fill, x, y)


def scene(*objects: SceneObject) -> SceneSpec:
    return SceneSpec(objects=tuple(objects)).validate()


@pytest.fixture(scope="module")
def sampled() -> list[tuple[SceneSpec, SceneView]]:
    """Sampled scenes with views built from their *rendered* boxes (as a release does)."""
    out = []
    for seed in range(N_SCENES):
        spec = sample_scene(rng_for(seed, "scene"))
        out.append((spec, SceneView(spec, render_scene(spec).boxes)))
    return out


# -- spec --------------------------------------------------------------------------------------

def test_spec_round_trip():
    spec = sample_scene(rng_for(7, "scene"))
    d = spec.to_dict()
    assert d["version"] == SCENE_VERSION and d["kind"] == "shapes"
    assert SceneSpec.from_json(spec.to_json()) == spec
    assert SceneSpec.from_dict(d) == spec
    assert SceneSpec.from_json(spec.to_json()).to_json() == spec.to_json()


@pytest.mark.parametrize(("change", "field"), [
    (lambda s: s.replace(objects=(s.objects[0], dataclasses.replace(s.objects[1], color="pink"))),
     "scene.objects[1].color"),
    (lambda s: s.replace(objects=(dataclasses.replace(s.objects[0], shape="hexagon"),)),
     "scene.objects[0].shape"),
    (lambda s: s.replace(objects=(dataclasses.replace(s.objects[0], fill="metal"),)),
     "scene.objects[0].fill"),
    (lambda s: s.replace(objects=(dataclasses.replace(s.objects[0], x=1.5),)), "scene.objects[0].x"),
    (lambda s: s.replace(objects=(dataclasses.replace(s.objects[0], y=0.0),)), "scene.objects[0].y"),
    (lambda s: s.replace(objects=(s.objects[0], dataclasses.replace(s.objects[1], x=0.22))),
     "scene.objects[1]"),
    (lambda s: s.replace(objects=()), "scene.objects"),
    (lambda s: s.replace(width=10), "scene.width"),
    (lambda s: s.replace(background="grey"), "scene.background"),
    (lambda s: s.replace(kind="bar"), "scene.kind"),
])
def test_validate_names_the_field(change, field):
    good = scene(obj(x=0.2, y=0.5), obj(color="blue", x=0.7, y=0.5))
    with pytest.raises(SpecError) as info:
        change(good).validate()
    assert info.value.field == field
    assert str(info.value).startswith(field + ":")


def test_from_dict_errors_name_the_field():
    d = scene(obj()).to_dict()
    with pytest.raises(SpecError, match=r"^scene\.version:"):
        SceneSpec.from_dict({**d, "version": "chartprobe.scene/0"})
    bad = {**d, "objects": [{**d["objects"][0], "weight": 3}]}
    with pytest.raises(SpecError, match=r"^scene\.objects\[0\]\.weight: unknown field"):
        SceneSpec.from_dict(bad)
    bad = {**d, "objects": [{k: v for k, v in d["objects"][0].items() if k != "x"}]}
    with pytest.raises(SpecError, match=r"^scene\.objects\[0\]\.x: missing"):
        SceneSpec.from_dict(bad)
    with pytest.raises(SpecError, match=r"^scene: invalid JSON"):
        SceneSpec.from_json("{")


# -- sampling ----------------------------------------------------------------------------------

def test_sample_scene_is_reproducible_and_non_overlapping():
    assert sample_scene(rng_for(3, "scene")) == sample_scene(rng_for(3, "scene"))
    assert sample_scene(rng_for(3, "scene")) != sample_scene(rng_for(4, "scene"))
    sizes = set()
    for seed in range(60):
        spec = sample_scene(rng_for(seed, "dense"), n_objects=(3, 10))
        sizes.add(len(spec.objects))
        assert 3 <= len(spec.objects) <= 10
        for i, a in enumerate(spec.objects):
            for b in spec.objects[:i]:
                (ax, ay), (bx, by) = spec.center_px(a), spec.center_px(b)
                assert math.hypot(ax - bx, ay - by) >= EXTENT * (spec.radius_px(a) + spec.radius_px(b))
    assert {3, 10} <= sizes  # both ends of the range occur
    full = sample_scene(rng_for(0, "full"), n_objects=(10, 10))
    assert len(full.objects) == 10


# -- rendering ---------------------------------------------------------------------------------

_SUBPROCESS = """
import hashlib
from chartprobe.dataset_builders.core.rng import rng_for
from chartprobe.dataset_builders.core.scenes import render_scene, sample_scene
print(hashlib.sha256(render_scene(sample_scene(rng_for(11, "scene"))).png).hexdigest())
"""


def test_render_is_deterministic_across_processes():
    spec = sample_scene(rng_for(11, "scene"))
    png = render_scene(spec).png
    assert render_scene(SceneSpec.from_json(spec.to_json())).png == png
    out = subprocess.run([sys.executable, "-c", _SUBPROCESS], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == hashlib.sha256(png).hexdigest()


def test_render_png_boxes_and_pixels(sampled):
    for spec, _ in sampled[:10]:
        rendered = render_scene(spec)
        img = Image.open(io.BytesIO(rendered.png))
        assert img.mode == "RGB" and img.size == (spec.width, spec.height) == (rendered.width, rendered.height)
        assert set(rendered.boxes) == {f"object/{i}" for i in range(len(spec.objects))}
        assert rendered.boxes == scene_boxes(spec)
        bg = tuple(int(spec.background[k:k + 2], 16) for k in (1, 3, 5))
        for i, o in enumerate(spec.objects):
            x0, y0, x1, y1 = rendered.boxes[f"object/{i}"]
            assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
            assert x0 < o.x < x1 and y0 < o.y < y1
            # The centre pixel shows the spec: the object's colour if solid, background if outlined.
            px = img.getpixel((int(o.x * spec.width), int(o.y * spec.height)))
            want = bg if o.fill == "outline" else tuple(int(COLORS[o.color][k:k + 2], 16) for k in (1, 3, 5))
            assert max(abs(a - b) for a, b in zip(px, want)) <= 2, (i, o, px)


# -- view --------------------------------------------------------------------------------------

def test_view_queries_and_referring_expressions():
    spec = scene(obj("circle", "red", "large", x=0.15, y=0.25), obj("circle", "red", "small", x=0.5, y=0.2),
                 obj("circle", "blue", "large", "outline", x=0.8, y=0.7))
    view = SceneView.from_spec(spec)
    assert view.spec.kind == "shapes" and view.n == 3 and isinstance(dict(view.words), dict)
    assert view.describe(0) == "the large red circle"
    assert view.describe(2) == "the blue circle"
    assert view.describe(2, exclude=("color",)) == "the outlined circle"
    assert view.count({"color": "red"}) == 2 and view.majority("color") == "red"
    assert view.extreme("left") == 0 and view.extreme("above") == 1 and view.extreme("below") == 2
    assert view.related(0, "right") == [1, 2] and view.related(2, "above") == [0, 1]
    twins = SceneView.from_spec(scene(obj(x=0.2, y=0.3), obj(x=0.8, y=0.7)))
    assert twins.describe(0) is None and twins.resolve({"shape": "circle"}) is None


# -- templates ---------------------------------------------------------------------------------

def test_shape_bank_covers_every_skill():
    skills = {TEMPLATES.get(n).skill for n in SHAPE_TEMPLATES}
    assert skills == set(SKILL_CODES)
    for name in SHAPE_TEMPLATES:
        cls = TEMPLATES.get(name)
        n_skill = sum(TEMPLATES.get(m).skill == cls.skill for m in SHAPE_TEMPLATES)
        assert n_skill >= 3, cls.skill
        code = {"reasoning": "R"}.get(cls.skill, SKILL_CODES[cls.skill])
        assert name.startswith(f"S-{code}-") and cls.kinds == ("shapes",)
        assert cls.held_out == (cls.skill == "complex")
        assert cls.answer_type in ("count", "integer", "bool", "label", "bbox")


@pytest.mark.parametrize("name", SHAPE_TEMPLATES)
def test_template_items_rerun_from_program(name, sampled):
    tpl = TEMPLATES.get(name)()
    emitted = 0
    for seed, (spec, view) in enumerate(sampled):
        q = tpl.instantiate(view, rng_for(seed, name))
        if q is None:
            continue
        emitted += 1
        assert q.template_id == name and q.skill == tpl.skill and "{" not in q.question
        # The stored program on the stored spec (JSON round trip of both) gives the stored answer.
        again = SceneView(SceneSpec.from_json(spec.to_json()), render_scene(spec).boxes) \
            if tpl.answer_type == "bbox" else SceneView.from_spec(SceneSpec.from_json(spec.to_json()))
        value = run(Program.from_json(q.program.to_json()), again)
        assert value is not None and format_answer(value, q.answer_type) == q.answer
        assert score_answer(q.answer, q.answer, q.answer_type).correct
        if q.answer_type == "bbox":
            assert q.target_bbox is not None and all(0 <= v <= 1 for v in q.target_bbox)
    assert emitted >= N_SCENES // 4, f"{name} emitted only {emitted}/{N_SCENES}"


def _all_none(name: str, view: SceneView) -> bool:
    tpl = TEMPLATES.get(name)()
    return all(tpl.instantiate(view, rng_for(s, name)) is None for s in range(30))


def test_degenerate_scenes_emit_nothing():
    # Every attribute ties 1:1, so no majority exists at all.
    tie = SceneView.from_spec(scene(obj("circle", "red", "small", "solid", x=0.2, y=0.3),
                                    obj("square", "blue", "large", "outline", x=0.7, y=0.6)))
    assert run(Program("scene_majority", {"attr": "color"}), tie) is None
    assert _all_none("S-R-MAJORITY", tie) and _all_none("S-CR-MAJORITY-WITHIN", tie)
    assert _all_none("S-R-COUNT-DIFF", tie)  # every pair of counts is equal
    assert run(Program("scene_count_diff", {"a": {"color": "red"}, "b": {"color": "blue"}}), tie) is None
    assert run(Program("scene_more", {"a": {"color": "cyan"}, "b": {"color": "gray"}}), tie) is None
    # Two identical objects: no referring expression picks either one out.
    twins = SceneView.from_spec(scene(obj(x=0.2, y=0.3), obj(x=0.8, y=0.7)))
    for name in ("S-G-BBOX", "S-G-QUERY-ATTR", "S-G-RELATE-ATTR", "S-R-SAME-ATTR",
                 "S-CR-SAME-AS-COUNT", "S-CR-COUNT-RELATED"):
        assert _all_none(name, twins), name
    assert run(Program("scene_bbox", {"ref": {"shape": "circle"}}), twins) is None
    # Centres 3 px apart horizontally: leftmost/rightmost and left/right relations are a tie.
    close = SceneView.from_spec(scene(obj("circle", "red", x=0.5, y=0.2),
                                      obj("square", "blue", x=0.5 + 3 / 480, y=0.8)))
    assert close.extreme("left") is None and close.related(0, "right") is None
    for rel in ("left", "right"):
        args = {"relation": rel, "attr": "color"}
        assert run(Program("scene_extreme_attr", args), close) is None
        assert run(Program("scene_relate_attr", {**args, "ref": {"shape": "circle"}}), close) is None
    assert run(Program("scene_extreme_attr", {"relation": "above", "attr": "color"}), close) == "red"
