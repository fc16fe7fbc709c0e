"""`bench aspects` on a few real PubMedQA abstracts: indexed as unlabelled text (real parser,
embedder and stores in a tmp home), every labelled abstract is found again by its doc id and
the summary's choice is scored against the abstract's own section labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from workbench.bench.aspects import SPLITS, aspect_choice_report, ensure_index
from workbench.bench.aspects_data import indexed_abstracts, load_abstracts
from workbench.bench.aspects_fit import sentence_table
from workbench.engine.engine import Engine
from workbench.records import ASPECTS
from workbench.settings.config import Settings

pytestmark = pytest.mark.integration

PUBMEDQA = SHARED / "data" / "pubmedqa" / "pqal_dev.jsonl"


@pytest.mark.skipif(not PUBMEDQA.exists(), reason=f"PubMedQA not found at {PUBMEDQA}")
def test_each_indexed_abstract_is_scored_against_its_own_labels(workbench_home: Path, tmp_path: Path) -> None:
    abstracts = load_abstracts(PUBMEDQA)[:4]
    bench = ensure_index(Engine(Settings()), abstracts, tmp_path / "bench")
    found = list(indexed_abstracts(bench, abstracts))
    assert sorted(a.pmid for a, _ in found) == sorted(a.pmid for a in abstracts)
    assert all(rows and rows[0]["vector"] is not None for _, rows in found)
    report = aspect_choice_report(bench, abstracts)
    per_split = {split: report[split] for split in SPLITS}
    counted = sum(per_split[s][a]["abstracts"] for s in per_split for a in ASPECTS)
    assert counted == len(abstracts) * len(ASPECTS)
    # Sentences are quoted from the abstracts themselves, so every one maps to a labelled section.
    assert report["unmatched"] == 0
    assert sum(per_split[s][a]["sentences"] for s in per_split for a in ASPECTS) > 0
    # the classifier's fitting table reads the same abstracts: one labelled row per sentence it matched
    table = sentence_table(bench, abstracts)
    assert len(table.labels) == len(table.splits) == len(table.vectors) > 0
    assert set(table.pmids) <= {a.pmid for a in abstracts}
