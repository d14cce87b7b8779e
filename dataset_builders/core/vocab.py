"""Realistic names for sampled charts: category pools, topics (series + units) and palettes.

Pure data plus a few pickers that draw only from the Generator they are given, so a
sampled spec depends on nothing but its rng. No matplotlib here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "CATEGORY_POOLS",
    "NAMED_COLORS",
    "PALETTES",
    "TOPICS",
    "Topic",
    "color_name",
    "pick",
    "pick_categories",
    "pick_palette",
    "pick_topic",
]

CATEGORY_POOLS: dict[str, tuple[str, ...]] = {
    "countries": ("USA", "China", "India", "Germany", "Japan", "Brazil", "France", "Canada",
                  "Mexico", "Italy", "Spain", "Kenya", "Nigeria", "Chile", "Norway", "Egypt",
                  "Poland", "Sweden", "Turkey", "Vietnam", "Peru", "Ghana", "Greece", "Austria",
                  "Ireland", "Portugal", "Morocco", "Thailand"),
    "products": ("Laptops", "Phones", "Tablets", "Monitors", "Printers", "Cameras", "Headsets",
                 "Routers", "Keyboards", "Speakers", "Watches", "Drones", "Scanners", "Chargers",
                 "Projectors", "Consoles", "Earbuds", "Webcams", "Servers", "Modems", "Mice",
                 "Microphones", "Batteries", "Cables"),
    "months": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "years": tuple(str(y) for y in range(2008, 2025)),
    "quarters": ("Q1 2022", "Q2 2022", "Q3 2022", "Q4 2022", "Q1 2023", "Q2 2023", "Q3 2023",
                 "Q4 2023", "Q1 2024", "Q2 2024"),
    "departments": ("Sales", "Marketing", "R&D", "Support", "Finance", "Legal", "HR",
                    "Operations", "IT", "Logistics"),
    "cities": ("London", "Paris", "Tokyo", "Lagos", "Lima", "Seoul", "Cairo", "Oslo", "Delhi",
               "Sydney", "Toronto", "Madrid"),
    "skills": ("Speed", "Power", "Range", "Accuracy", "Comfort", "Price", "Battery", "Design",
               "Safety", "Durability"),
}
"""Ordered pools: 'ordinal' pools (months, years, quarters) keep their order when sampled."""

ORDINAL_POOLS = frozenset({"months", "years", "quarters"})


@dataclass(frozen=True)
class Topic:
    """A chart subject: which categories it is measured on, its series names and unit."""

    title: str
    pools: tuple[str, ...]
    series: tuple[str, ...]
    unit: str
    tick_format: str = "{x:g}"
    value_range: tuple[float, float] | None = None
    """Overrides SampleConfig.value_range when the unit demands it (e.g. percentages)."""


TOPICS: tuple[Topic, ...] = (
    Topic("Revenue by {cat}", ("countries", "products", "years", "quarters"),
          ("Revenue", "Profit", "Costs", "EBITDA", "Taxes"), "USD bn"),
    Topic("Unit sales by {cat}", ("products", "months", "cities", "quarters"),
          ("Online", "Retail", "Wholesale", "Export", "Direct"), "thousand units", "{x:,.0f}"),
    Topic("Market share by {cat}", ("countries", "products", "years"),
          ("Alpha Corp", "Beta Ltd", "Gamma Inc", "Delta Co", "Epsilon"), "%", "{x:.0f}%",
          (2.0, 60.0)),
    Topic("Average temperature by {cat}", ("months", "cities"),
          ("2021", "2022", "2023", "2024", "Normal"), "°C", "{x:g}", (1.0, 35.0)),
    Topic("Headcount by {cat}", ("departments", "years", "cities"),
          ("Full-time", "Part-time", "Contractors", "Interns", "Remote"), "people", "{x:,.0f}"),
    Topic("Energy output by {cat}", ("countries", "years", "months"),
          ("Solar", "Wind", "Hydro", "Nuclear", "Gas"), "TWh"),
    Topic("Satisfaction score by {cat}", ("departments", "products", "skills"),
          ("Survey A", "Survey B", "Survey C", "Panel", "Online"), "points", "{x:g}", (10.0, 100.0)),
    Topic("Website visits by {cat}", ("months", "quarters", "countries"),
          ("Desktop", "Mobile", "Tablet", "App", "Other"), "million", "{x:g}"),
    Topic("Product ratings by {cat}", ("skills",),
          ("Model X", "Model Y", "Model Z", "Model Q", "Model R"), "score", "{x:g}", (1.0, 10.0)),
)

PALETTES: tuple[tuple[str, ...], ...] = (
    # tab10
    ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
     "#bcbd22", "#17becf"),
    # Okabe-Ito (colour-blind safe)
    ("#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442", "#000000",
     "#999999", "#8b4513"),
    # Set2-like
    ("#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3",
     "#1b9e77", "#7570b3"),
    # Excel-like
    ("#4472c4", "#ed7d31", "#a5a5a5", "#ffc000", "#5b9bd5", "#70ad47", "#264478", "#9e480e",
     "#636363", "#997300"),
)


NAMED_COLORS: dict[str, str] = {
    "blue": "#1f77b4", "orange": "#ff7f0e", "green": "#2ca02c", "red": "#d62728",
    "purple": "#9467bd", "brown": "#8c564b", "pink": "#e377c2", "gray": "#7f7f7f",
    "cyan": "#17becf", "black": "#000000", "yellow": "#ffd92f",
}
"""Colours people name the same way; probes that ask for a mark's colour use only these."""

_NAME_OF = {hex_.lower(): name for name, hex_ in NAMED_COLORS.items()}


def color_name(hex_color: str) -> str | None:
    """Plain name of a colour from NAMED_COLORS, or None if it has no unambiguous name."""
    return _NAME_OF.get(hex_color.lower())


def pick(rng: np.random.Generator, seq):
    """One element of ``seq`` chosen by ``rng``."""
    return seq[int(rng.integers(len(seq)))]


def pick_topic(rng: np.random.Generator, pools: tuple[str, ...] | None = None) -> Topic:
    """A topic, optionally restricted to those measurable on one of ``pools``."""
    topics = [t for t in TOPICS if pools is None or set(t.pools) & set(pools)]
    return pick(rng, topics)


def pick_categories(rng: np.random.Generator, topic: Topic, n: int,
                    pools: tuple[str, ...] | None = None) -> tuple[str, tuple[str, ...]]:
    """(pool name, ``n`` distinct category labels); ordinal pools give a contiguous run."""
    usable = [p for p in topic.pools if pools is None or p in pools] or list(topic.pools)
    pool_name = pick(rng, usable)
    pool = CATEGORY_POOLS[pool_name]
    n = min(n, len(pool))
    if pool_name in ORDINAL_POOLS:
        start = int(rng.integers(len(pool) - n + 1))
        return pool_name, pool[start:start + n]
    idx = rng.choice(len(pool), size=n, replace=False)
    return pool_name, tuple(pool[int(i)] for i in idx)


def pick_palette(rng: np.random.Generator, n: int) -> tuple[str, ...]:
    """``n`` distinct hex colours from one palette (start offset drawn from rng)."""
    pal = pick(rng, PALETTES)
    start = int(rng.integers(len(pal)))
    return tuple(pal[(start + i) % len(pal)] for i in range(n))
