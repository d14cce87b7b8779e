"""US employment (BLS, public domain): jobs by sector in one month, read from a wide table."""

from __future__ import annotations

from collections.abc import Iterator

from ...vocab import CATEGORY_POOLS
from ..tables import load_table
from . import Slice, aggregate, recipe

# Each group partitions a total the table also carries (BLS supersectors); mining and logging
# (about 0.5% of nonfarm jobs, a wedge too thin to label) is left out of the full list.
_GROUPS = {
    "goods_producing": ("Goods-producing jobs by sector", ("mining_and_logging", "construction", "manufacturing")),
    "private_service_providing": ("Private service jobs by sector", (
        "trade_transportation_utilties", "information", "financial_activities",
        "professional_and_business_services", "education_and_health_services", "leisure_and_hospitality",
        "other_services")),
    "nonfarm": ("Nonfarm jobs by sector", (
        "construction", "manufacturing", "trade_transportation_utilties", "information",
        "financial_activities", "professional_and_business_services", "education_and_health_services",
        "leisure_and_hospitality", "other_services", "government")),
}
_LABELS = {"trade_transportation_utilties": "Trade & transport", "professional_and_business_services": "Business services",
           "education_and_health_services": "Education & health", "leisure_and_hospitality": "Leisure & hospitality",
           "financial_activities": "Financial", "mining_and_logging": "Mining & logging"}
_MONTHS = CATEGORY_POOLS["months"]  # Jan .. Dec, in order


def _label(column: str) -> str:
    return _LABELS.get(column, column.replace("_", " ").capitalize())


@recipe("us-employment", kinds=("bar", "hbar", "pie"))
def employment() -> Iterator[Slice]:
    """Thousands of jobs in each sector of one group in one month (parts of the group's total:
    whole only where the group is complete)."""
    table = load_table("us-employment")
    for record in table.frame.to_dict("records"):
        year, month = (int(p) for p in str(record["month"]).split("-")[:2])
        when = f"{_MONTHS[month - 1]} {year}"
        for total, (title, columns) in _GROUPS.items():
            yield Slice("us-employment", f"{title}, {when}", "Jobs", "thousands", "Sector",
                        tuple(_label(c) for c in columns),
                        tuple(aggregate([record[c]], "value") for c in columns),
                        ((int(record["_row"]),),) * len(columns), total, "value", 1.0,
                        (("month", str(record["month"])),), table.source,
                        whole=total != "nonfarm", columns=columns)
