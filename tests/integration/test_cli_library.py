"""`workbench triage`, `queue` and `export` end to end: real stores, the real embedder, the CLI as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKBENCH_HOME": str(home)}
    env.pop("WORKBENCH_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("papers")
    (folder / "yeast.md").write_text(
        "# Caloric restriction in yeast\n\nJane Smith\n\n## Abstract\n\n"
        "Caloric restriction extends the replicative lifespan of yeast.\n",
        encoding="utf-8",
    )
    (folder / "graphene.md").write_text(
        "# Graphene mobility\n\n## Abstract\n\nSuspended graphene shows high electron mobility.\n", encoding="utf-8"
    )
    (folder / "raft.md").write_text(
        "# In search of an understandable consensus algorithm\n\n## Abstract\n\nRaft is a consensus algorithm.\n",
        encoding="utf-8",
    )
    result = run(home, "index", str(folder), "--json")
    assert result.returncode == 0, result.stderr
    return home


def test_triage_changes_many_things_at_once_and_shows_them(home: Path) -> None:
    result = run(
        home, "triage", "file:1/yeast.md", "--state", "reading", "--priority", "2", "--star",
        "--label", "ageing", "--label", "todo", "--note", "check the glucose levels", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["doc_id"] == "file:1/yeast.md"
    assert (record["state"], record["priority"], record["starred"]) == ("reading", 2, True)
    assert record["tags"] == ["ageing", "todo"] and record["note"] == "check the glucose levels"

    shown = run(home, "triage", "@file:1/yeast.md")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "file:1/yeast.md: reading · priority 2 · starred · labels: ageing, todo"
    assert "note: check the glucose levels" in shown.stdout

    changed = run(home, "triage", "file:1/yeast.md", "--unstar", "--unlabel", "todo", "--json")
    record = json.loads(changed.stdout)
    assert record["starred"] is False and record["tags"] == ["ageing"] and record["state"] == "reading"


def test_triage_bad_input_is_one_line(home: Path) -> None:
    unknown = run(home, "triage", "file:1/nothing.md", "--state", "read")
    assert unknown.returncode == 2 and "no document matches 'file:1/nothing.md'" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1
    bad_label = run(home, "triage", "file:1/raft.md", "--label", "two words")
    assert bad_label.returncode == 2 and "bad tag 'two words'" in bad_label.stderr
    assert json.loads(run(home, "triage", "file:1/raft.md", "--json").stdout)["tags"] == []  # nothing written
    bad_state = run(home, "triage", "file:1/raft.md", "--state", "done")
    assert bad_state.returncode == 2 and "invalid choice" in bad_state.stderr


def test_queue_lists_the_inbox_by_priority(home: Path) -> None:
    assert run(home, "triage", "file:1/raft.md", "--priority", "3").returncode == 0
    assert run(home, "triage", "file:1/graphene.md", "--state", "inbox", "--priority", "1").returncode == 0
    result = run(home, "queue", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    ids = [item["doc_id"] for item in data["queue"]]
    assert ids[:2] == ["file:1/raft.md", "file:1/graphene.md"] and "file:1/yeast.md" not in ids  # yeast is being read
    assert data["counts"]["reading"] >= 1 and data["counts"]["inbox"] == len(ids)
    human = run(home, "queue")
    lines = human.stdout.splitlines()
    assert lines[0].startswith("inbox ") and "reading" in lines[0]
    assert lines[1].startswith("3 ") and lines[1].endswith("file:1/raft.md")


def test_export_bibtex_markdown_starred_and_to_a_file(home: Path, tmp_path: Path) -> None:
    bib = run(home, "export", "file:1/raft.md", "file:1/graphene.md")
    assert bib.returncode == 0, bib.stderr
    assert bib.stdout.count("@misc{") == 2
    assert "title = {In search of an understandable consensus algorithm}" in bib.stdout

    assert run(home, "triage", "file:1/graphene.md", "--star").returncode == 0
    starred = run(home, "export", "--starred", "--json")
    data = json.loads(starred.stdout)
    assert (
        data["kind"] == "bibtex" and data["doc_ids"] == ["file:1/graphene.md"] and "Graphene mobility" in data["text"]
    )

    out = tmp_path / "notes" / "yeast.md"
    note = run(home, "export", "file:1/yeast.md", "--markdown", "-o", str(out))
    assert note.returncode == 0, note.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Caloric restriction in yeast")
    assert "**Triage:** reading · priority 2" in text and "## Note\n\ncheck the glucose levels" in text

    nothing = run(home, "export", "file:1/missing.md")
    assert nothing.returncode == 2 and "no document matches" in nothing.stderr
