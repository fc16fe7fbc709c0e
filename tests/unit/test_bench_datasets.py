"""Benchmarks' datasets are arguments: given paths first, then the data root, else one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.bench.datasets import DATA_ROOT_ENV, DataRoots
from workbench.errors import UsageError


def test_a_given_path_wins_over_the_roots(tmp_path: Path) -> None:
    given = tmp_path / "mine.jsonl"
    given.write_text("{}\n")
    roots = DataRoots.resolve(tmp_path / "nowhere", tmp_path / "nolabels")
    assert roots.data_path(given, "pubmedqa/pqal_dev.jsonl", "--pubmedqa") == given
    assert roots.label_path(given, "fulltext_questions.jsonl", "--questions") == given


def test_a_left_out_dataset_is_found_under_the_root_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "scifact").mkdir()
    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    roots = DataRoots.resolve()
    assert roots.data == tmp_path
    assert roots.data_path(None, "scifact", "--dataset") == tmp_path / "scifact"
    # an argument beats the environment
    assert DataRoots.resolve(tmp_path / "other").data == tmp_path / "other"


def test_a_missing_dataset_says_which_flag_to_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_ROOT_ENV, raising=False)
    roots = DataRoots.resolve(tmp_path, tmp_path)
    with pytest.raises(UsageError, match=r"no --pubmedqa given.*pass --pubmedqa PATH, or --data-root"):
        roots.data_path(None, "pubmedqa/pqal_dev.jsonl", "--pubmedqa")
    with pytest.raises(UsageError, match=r"--questions does not exist.*--labels-dir"):
        roots.label_path(tmp_path / "gone.jsonl", "fulltext_questions.jsonl", "--questions")


def test_from_a_checkout_the_defaults_are_the_shared_data_and_the_tests_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DATA_ROOT_ENV, raising=False)
    roots = DataRoots.resolve()
    repo = Path(__file__).resolve().parents[2]
    assert roots.labels == repo / "tests" / "data"
    assert roots.data == repo.parent / "shared" / "data"
    assert roots.label_path(None, "intent_queries.jsonl", "--questions").is_file()
