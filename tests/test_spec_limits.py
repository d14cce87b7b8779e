"""Bounded spec work: size limits and the safe tick-format mini-language, each refused with one
line naming the field, before matplotlib or ``str.format`` runs on the input."""

from __future__ import annotations

import json
import time

import pytest
from chartprobe.dataset_builders.core.fields import (
    MAX_CATEGORIES,
    MAX_IMAGE_PIXELS,
    MAX_LEGEND_COLUMNS,
    MAX_SERIES,
    MAX_TEXT_CHARS,
    SpecError,
)
from chartprobe.dataset_builders.core.spec import (
    ChartSpec,
    DataTable,
    Encoding,
    LegendEntry,
    LegendSpec,
    Series,
)
from chartprobe.dataset_builders.core.specs import load_spec
from chartprobe.dataset_builders.core.validation import check_tick_format


def _bars(n_cats: int = 3, n_series: int = 1) -> dict:
    """A grouped-bar spec dict with ``n_cats`` categories and ``n_series`` series."""
    cats = tuple(f"C{i}" for i in range(n_cats))
    series = tuple(Series(f"S{j}", tuple(float(i + 1) for i in range(n_cats))) for j in range(n_series))
    kind = "bar" if n_series == 1 else "grouped_bar"
    spec = ChartSpec(kind=kind, data=DataTable(categories=cats, series=series),
                     encodings=tuple(Encoding(f"#{j:06x}") for j in range(n_series)))
    return json.loads(spec.to_json())


def _refused(d: dict) -> SpecError:
    with pytest.raises(SpecError) as err:
        load_spec(json.dumps(d))
    assert "\n" not in str(err.value) and str(err.value).startswith(err.value.field)
    return err.value


def test_a_chart_at_the_category_limit_validates():
    load_spec(json.dumps(_bars(MAX_CATEGORIES)))


def test_too_many_categories_are_refused_fast():
    d = _bars(20_000)
    start = time.perf_counter()
    err = _refused(d)
    assert err.field == "spec.data.categories" and f"at most {MAX_CATEGORIES}" in str(err)
    assert time.perf_counter() - start < 5


def test_too_many_series_are_refused():
    err = _refused(_bars(3, MAX_SERIES + 1))
    assert err.field == "spec.data.series" and f"at most {MAX_SERIES}" in str(err)


def test_too_many_legend_entries_are_refused():
    spec = ChartSpec.from_dict(_bars())
    entries = tuple(LegendEntry(f"e{i}") for i in range(MAX_CATEGORIES + 1))
    with pytest.raises(SpecError) as err:
        spec.replace(legend=LegendSpec(entries=entries)).validate()
    assert err.value.field == "spec.legend.entries"


@pytest.mark.parametrize(("width", "height", "dpi"), [(30, 30, 600), (30, 10, 300)])
def test_images_above_the_pixel_limit_are_refused(width, height, dpi):
    assert width * height * dpi * dpi > MAX_IMAGE_PIXELS
    d = _bars()
    d["style"].update(width=width, height=height, dpi=dpi)
    err = _refused(d)
    assert err.field == "spec.style.dpi" and "Mpx" in str(err)


@pytest.mark.parametrize("path", [("data", "categories", 0), ("data", "series", 0, "name"),
                                  ("style", "title"), ("axes", "y_label"), ("legend", "title")])
def test_long_text_is_refused(path):
    d = _bars()
    node = d
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "x" * (MAX_TEXT_CHARS + 1)
    err = _refused(d)
    assert f"longer than {MAX_TEXT_CHARS}" in str(err)


@pytest.mark.parametrize("columns", [0, MAX_LEGEND_COLUMNS + 1, 10**9])
def test_legend_columns_are_bounded(columns):
    d = _bars()
    d["legend"]["columns"] = columns
    assert _refused(d).field == "spec.legend.columns"


@pytest.mark.parametrize("fmt", ["{x:g}", "{x:,.0f}", "{x:.0f}%", "{x:g}%", "{x}", "${x:,.2f}", "{x:.1%}",
                                 "{x:+.2e}", "{{x}} {x:_.3g}", "{x:*^10.2f}", "{x:08.3f} m"])
def test_numeric_tick_formats_are_accepted(fmt):
    check_tick_format(fmt)
    d = _bars()
    d["axes"]["tick_format"] = fmt
    load_spec(json.dumps(d))


def test_every_bundled_topic_tick_format_is_accepted():
    from chartprobe.dataset_builders.core.vocab import TOPICS

    for topic in TOPICS:
        check_tick_format(topic.tick_format)


@pytest.mark.parametrize(("fmt", "why"), [
    ("{x.__class__}", "no attributes"),
    ("{x.__class__.__mro__}", "no attributes"),
    ("{x[0]}", "no attributes, indexes"),
    ("{x!r}", "conversions"),
    ("{y}", "must be {x}"),
    ("{}", "must be {x}"),
    ("{0}", "must be {x}"),
    ("{x:>999999999}", "not a numeric format spec"),   # a gigabyte of padding
    ("{x:.999999999f}", "not a numeric format spec"),  # a gigabyte of digits
    ("{x:{y}}", "not a numeric format spec"),          # nested fields
    ("{x:n}", "not a numeric format spec"),            # locale-dependent output
    ("{x:d}", "not a numeric format spec"),            # fails on every non-integer tick
    ("{x:s}", "not a numeric format spec"),
    ("{x}{x}", "exactly one {x} field, found 2"),
    ("plain", "exactly one {x} field, found 0"),
    ("{x", "expected '}'"),
    ("{x:g}" + "%" * 70, "longer than"),
])
def test_unsafe_tick_formats_are_refused(fmt, why):
    with pytest.raises(SpecError) as err:
        check_tick_format(fmt)
    assert err.value.field == "spec.axes.tick_format" and why in str(err.value)
    d = _bars()
    d["axes"]["tick_format"] = fmt
    assert _refused(d).field == "spec.axes.tick_format"


def test_non_string_tick_format_is_refused():
    d = _bars()
    d["axes"]["tick_format"] = 5
    assert _refused(d).field == "spec.axes.tick_format"
