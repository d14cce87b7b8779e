"""The families of ``chartprobe-probes`` configs and the templates each one asks.

A config is named ``<prefix><domain>``: ``bar`` (the probe bank), ``cr_bar`` (held-out
complex reasoning in the probes' phrasing), ``cr_ood_bar`` (held-out complex reasoning *out of
template*: steps no concatenation of trained templates yields, phrased from a separate bank),
``style_shift_bar`` (the probes of each chart drawn under several engines and house styles),
``real_bar`` (the probes over charts of real tables, ``real.py``).
The set decides whether rows are held out and which templates may appear in them (the
``template_id`` vocabulary of its features, so adding a set never changes another's files).

Two params act on the template pool of a held-out config:

- ``out_of_template: true`` is the preset's visible marker of a ``cr_ood_*`` config (and only
  of one): the build then checks every template it asks (``out_of_template.py``);
- ``templates: [ID, ...]`` replaces the set's default pool by these held-out templates of the
  config's domain (in that order), e.g. to rebuild one template's questions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.style_axis import parse_styles
from .domains import PROBE_DOMAINS
from .templates import TEMPLATES

__all__ = ["CONFIG_SETS", "ConfigSet", "config_set", "eligible_templates", "pool_for", "template_vocabulary"]


@dataclass(frozen=True)
class ConfigSet:
    """A family of configs ``<prefix><domain>``."""

    prefix: str
    held_out: bool
    """Complex-reasoning sets: one held-out question per chart, test split only."""
    out_of_template: bool
    """Asks the ``out_of_template`` templates, and the build refuses compositions of trained ones."""
    style_shift: bool = False
    """Draws every chart under several engines and house styles (``style_shift.py``), same questions."""
    real: bool = False
    """Charts of real tables (``vega_datasets``) instead of sampled data (``real.py``)."""


CONFIG_SETS: tuple[ConfigSet, ...] = (
    ConfigSet("", held_out=False, out_of_template=False),
    ConfigSet("cr_", held_out=True, out_of_template=False),
    ConfigSet("cr_ood_", held_out=True, out_of_template=True),
    ConfigSet("style_shift_", held_out=False, out_of_template=False, style_shift=True),
    ConfigSet("real_", held_out=False, out_of_template=False, real=True),
)


def config_set(config: str) -> tuple[ConfigSet, str]:
    """(set, domain name) of a config name: ``cr_ood_pie`` -> (the out-of-template set, "pie")."""
    for s in CONFIG_SETS:
        if config.startswith(s.prefix) and config[len(s.prefix):] in PROBE_DOMAINS:
            return s, config[len(s.prefix):]
    prefixes = ", ".join(repr(s.prefix) for s in CONFIG_SETS)
    raise ValueError(f"unknown probes config {config!r}; configs are <prefix><domain> with prefix one of "
                     f"{prefixes} and domain one of {sorted(PROBE_DOMAINS)}")


def eligible_templates(domain: str, held_out: bool, out_of_template: bool | None = None) -> list[Any]:
    """Template instances that can be asked in ``domain`` (sorted by id); ``out_of_template``
    None: of every set, else only the templates with that flag."""
    d = PROBE_DOMAINS[domain]
    return [cls() for _, cls in TEMPLATES.items()
            if cls.domain == d.template_domain and cls.held_out == held_out
            and (out_of_template is None or cls.out_of_template == out_of_template)
            and (d.template_domain != "chart" or domain in cls.kinds)]


def template_vocabulary(config: str) -> list[str]:
    """Template ids rows of ``config`` may carry: every template outside the out-of-template
    sets, plus theirs for a config of such a set (which a ``templates`` param may fill with any)."""
    cset, _ = config_set(config)
    return [name for name, cls in TEMPLATES.items() if cset.out_of_template or not cls.out_of_template]


def pool_for(config: str, params: Mapping[str, Any]) -> list[Any]:
    """The templates a config asks, from its set and params (ValueError naming a bad param)."""
    cset, domain = config_set(config)
    if "styles" in params and not cset.style_shift:
        raise ValueError(f"params.styles: only style_shift_<domain> configs draw several styles, not {config!r}")
    if cset.style_shift:
        if PROBE_DOMAINS[domain].template_domain != "chart":
            raise ValueError(f"{config!r}: a style shift redraws charts; {domain!r} is not a chart domain")
        parse_styles(params.get("styles"))  # a bad style fails at preset load, naming what is allowed
    if cset.real and PROBE_DOMAINS[domain].template_domain != "chart":
        raise ValueError(f"{config!r}: real tables make charts; {domain!r} is not a chart domain")
    if "tables" in params:
        if not cset.real:
            raise ValueError(f"params.tables: only real_<domain> configs read tables, not {config!r}")
        from ..core.real.sources import slices_by_source

        if not slices_by_source(domain, params["tables"]):  # a bad mapping fails here, at preset load
            raise ValueError(f"params.tables: none of {', '.join(params['tables'])} fits a {domain} chart (kinds)")
    marked = bool(params.get("out_of_template", False))
    if marked != cset.out_of_template:
        raise ValueError(f"params.out_of_template must be {str(cset.out_of_template).lower()} on {config!r}: "
                         f"it marks the {next(s for s in CONFIG_SETS if s.out_of_template).prefix}<domain> configs, and only them")
    names = params.get("templates")
    if names is None:
        return eligible_templates(domain, cset.held_out, cset.out_of_template)
    if not cset.held_out:
        raise ValueError(f"params.templates: only held-out configs take a template list, not {config!r}")
    # An out-of-template config may be handed any held-out template (the build then judges it);
    # an in-template one only its own, whose ids its features know.
    allowed = {t.name: t for t in eligible_templates(domain, True, None if cset.out_of_template else False)}
    bad = [n for n in names if n not in allowed]
    if bad or not names or len(set(names)) != len(names):
        why = f"not held-out templates of {domain}: {', '.join(bad)}" if bad else "empty or repeated ids"
        raise ValueError(f"params.templates: {why}; choose from: {', '.join(allowed)}")
    return [allowed[n] for n in names]
