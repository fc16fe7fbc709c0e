"""The filter grammar: `key<op>value` expressions parsed into `Filter` records.

Metadata filters (`year>=2020`, `tag=ml`, ...) become `workbench.records.Filter`, which the
stores compile to their own dialect (LanceDB for chunks, DuckDB for the documents listing);
triage filters (`triage=reading`, `priority>=2`, `starred=yes`, `label=x`) are applied to
triage records. A bad expression is a FilterError naming the problem and the expression.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from workbench.errors import FilterError
from workbench.library.triage import TriageError, TriageFilter, is_triage_filter, parse_triage_filter
from workbench.records import FILTER_FIELDS, Filter

__all__ = ["FilterError", "parse_filter", "parse_filters", "split_filters"]

_FILTER_RE = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|!=|=|>|<)\s*(.*?)\s*$", re.DOTALL)


def parse_filter(expression: str) -> Filter:
    """Parse `key=value`, `year>=2020` and friends; raises FilterError naming the problem."""
    match = _FILTER_RE.match(expression)
    keys = ", ".join(FILTER_FIELDS)
    if not match:
        raise FilterError(f"bad filter {expression!r}: expected key=value (keys: {keys})", expression)
    key, op, value = match.groups()
    if key not in FILTER_FIELDS:
        raise FilterError(f"unknown filter key {key!r} (keys: {keys})", expression)
    kind = FILTER_FIELDS[key][1]
    if kind != "int" and op not in ("=", "!="):
        raise FilterError(f"filter {key!r} takes = or != only", expression)
    if kind == "int" and not re.fullmatch(r"-?\d{1,6}", value):
        raise FilterError(f"filter {key!r} needs a whole number, got {value!r}", expression)
    if not value:
        raise FilterError(f"filter {key!r} has an empty value", expression)
    return Filter(key, op, value)


def parse_filters(expressions: Iterable[Filter | str]) -> list[Filter]:
    """Filters given as records or as expressions, all parsed."""
    return [item if isinstance(item, Filter) else parse_filter(item) for item in expressions]


def split_filters(expressions: Iterable[str]) -> tuple[list[Filter], list[TriageFilter]]:
    """Metadata filters and triage filters, each parsed; FilterError names the first bad expression."""
    metadata: list[Filter] = []
    triage: list[TriageFilter] = []
    for expression in expressions:
        try:
            if is_triage_filter(expression):
                triage.append(parse_triage_filter(expression))
            else:
                metadata.append(parse_filter(expression))
        except TriageError as exc:
            raise FilterError(str(exc), expression) from None
    return metadata, triage
