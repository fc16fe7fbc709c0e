"""Typed errors: exit codes, the TUI's notification lines, and no error text matched outside the adapters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.errors import (
    FilterError,
    GraphError,
    GraphNotBuiltError,
    IndexMismatchError,
    StoreBusyError,
    StoreError,
    UsageError,
    WorkbenchError,
)
from workbench.llm.base import ContextOverflowError
from workbench.llm.llamacpp import CONTEXT_ERROR_TYPE, _HttpStatusError, _server_error

PACKAGE = Path(__file__).resolve().parents[2] / "workbench"
# The adapters that turn a library's untyped error into a typed one (each documents why).
TEXT_READERS = {
    "stores/catalog.py",  # DuckDB: lock vs other I/O errors share one class
    "stores/graph_db.py",  # Kùzu: one RuntimeError for every failure
    "sources/zotero.py",  # sqlite3: a decode failure is an OperationalError (issue 12 owns this reader)
}


def test_exit_codes_and_families() -> None:
    assert UsageError("x").exit_code == 2 and FilterError("x", "year>=x").exit_code == 2
    assert IndexMismatchError("x").exit_code == 2 and StoreBusyError("x").exit_code == 1
    assert issubclass(GraphNotBuiltError, GraphError) and issubclass(GraphError, StoreError)
    assert FilterError("bad", "year>=x").expression == "year>=x"


def test_no_module_matches_error_text_outside_the_adapters() -> None:
    pattern = re.compile(r"in str\((exc|e|error)\)|str\((exc|e|error)\)\.lower\(\)")
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8")) and str(path.relative_to(PACKAGE)) not in TEXT_READERS
    ]
    assert offenders == []


def test_no_bare_runtime_error_handlers_outside_the_adapters() -> None:
    # LanceDB's row reads; Kùzu's untyped read failures while doctor reports on the graph; the CLI's last-resort line
    # tesserocr: one RuntimeError for an empty line and for a page with too little text to orient
    allowed = {*TEXT_READERS, "stores/chunks.py", "stores/consistency.py", "cli.py", "ingest/ocr_worker.py"}
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"except \(?[^)\n]*RuntimeError", path.read_text(encoding="utf-8"))
        and str(path.relative_to(PACKAGE)) not in allowed
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("body", "overflow"),
    [
        (json.dumps({"error": {"code": 400, "message": "request too big", "type": CONTEXT_ERROR_TYPE}}), True),
        ('{"error": {"code": 400, "message": "the prompt exceeds the context size"}}', True),
        ('{"error": {"code": 400, "message": "context exceeded", "type": "invalid_request_error"}}', False),
        ("internal error", False),
    ],
)
def test_server_errors_are_classified_by_type_first(body: str, overflow: bool) -> None:
    error = _server_error(_HttpStatusError(400, f"answered 400: {body}", body))
    assert isinstance(error, ContextOverflowError) is overflow
    assert isinstance(error, WorkbenchError)


def test_the_tui_shows_a_workbench_error_as_its_own_line() -> None:
    from workbench.tui.errors import error_line, error_severity

    assert error_line(GraphNotBuiltError("the graph is not built yet")) == "the graph is not built yet"
    assert error_line(ValueError("bad")) == "ValueError: bad"
    assert error_severity(StoreBusyError("busy")) == "warning" and error_severity(FilterError("f")) == "warning"
    assert error_severity(StoreError("broken")) == "error" and error_severity(KeyError("k")) == "error"
