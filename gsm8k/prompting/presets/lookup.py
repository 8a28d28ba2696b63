"""Per-sample data handed to a solver or scorer, logged as one line.

Inspect records the arguments of every solver and scorer in each log's plan, and writes dicts
and lists out whole: a table of 1,319 exemplar sets would be megabytes in every log header.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

Value = TypeVar("Value")
SampleKey = int | str


class Lookup(Generic[Value]):
    """Values by sample id, shown in logs as ``summary``."""

    def __init__(self, values: Mapping[SampleKey, Value], summary: str) -> None:
        self._values = dict(values)
        self.summary = summary

    def __getitem__(self, key: SampleKey) -> Value:
        return self._values[key]

    def get(self, key: SampleKey, default: Value) -> Value:
        return self._values.get(key, default)

    def __len__(self) -> int:
        return len(self._values)

    def _repr_params_(self) -> str:
        """What Inspect's registry writes for this argument."""
        return self.summary
