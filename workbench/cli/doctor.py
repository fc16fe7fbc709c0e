"""`workbench doctor`: how the engine's checks (`Engine.doctor`, see `workbench.engine.doctor`) are printed.

Formatting only: the checks and repairs are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.engine.records import DoctorCheck
from workbench.text.safe import printable


def doctor_json(checks: Sequence[DoctorCheck]) -> dict[str, Any]:
    """The `doctor --json` object: `ok` (every check holds) and the checks, each name, ok and detail."""
    return {"ok": all(c.ok for c in checks), "checks": [c.as_dict() for c in checks]}


def doctor_lines(checks: Sequence[DoctorCheck]) -> list[str]:
    """One line per check: `ok ` or `BAD`, its name and its detail."""
    return [f"{'ok ' if c.ok else 'BAD'}  {c.name}: {printable(c.detail)}" for c in checks]
