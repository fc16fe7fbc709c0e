"""Libraries' own log records never reach the user as a traceback: one line in the CLI, nothing
on the TUI's screen, and none at all for a failure the workbench handles itself."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.ingest.text_formats import parse_html

LOG_ONE = """
import logging, sys
from workbench.logs import route_library_logs
route_library_logs(terminal=sys.argv[1] == "cli")
try:
    raise ValueError("deep inside")
except ValueError:
    logging.getLogger("somelib.reader").exception("error getting summary:  ")
logging.getLogger("somelib").warning("a warning is below the line")
"""


def test_a_page_readability_cannot_parse_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    # Readability logged "error getting summary" with lxml's stack for an HTML file holding only a
    # comment, although the parser catches its exception and reads the page whole.
    caplog.set_level(logging.DEBUG)
    doc = parse_html(Path("comment.html"), b"<!-- saved by a browser -->")
    assert doc.sections == ()
    assert [r.name for r in caplog.records if r.name.startswith("readability")] == []


ONE_LINE = "workbench: somelib.reader: error getting summary\n"


@pytest.mark.parametrize(("front", "expected"), [("cli", ONE_LINE), ("tui", "")])
def test_library_errors_print_as_one_line_or_not_at_all(front: str, expected: str) -> None:
    run = subprocess.run([sys.executable, "-c", LOG_ONE, front], capture_output=True, text=True, check=True)
    assert run.stderr == expected


# The console script, and the CLI module run directly (which skips the console script's TUI check).
LAUNCHES = [
    ["-c", "import sys; from workbench.entry import main; sys.exit(main(sys.argv[1:]))"],
    ["-m", "workbench.cli"],
]


@pytest.mark.parametrize("launch", LAUNCHES, ids=["console-script", "cli-module"])
def test_indexing_a_comment_only_page_prints_no_traceback(
    tmp_path: Path, workbench_home: Path, launch: list[str]
) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "comment.html").write_text("<!-- saved by a browser -->")
    env = {**os.environ, "WORKBENCH_HOME": str(workbench_home)}
    command = [sys.executable, *launch, "index", str(folder)]
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "no text beyond its title" in run.stdout + run.stderr
