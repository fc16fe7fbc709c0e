"""`bench answers`'s small libraries: which papers a question's small library holds, and how the
decisions asked of it are counted (with the real presence model over constructed results)."""

from __future__ import annotations

from collections.abc import Sequence

from tests.unit.test_presence import QUESTION, bitcoin_library, candidates, library_without_bitcoin
from workbench.bench.answers_sizes import library_sizes, small_library
from workbench.bench.question_sets import Question
from workbench.query.evidence import Candidate
from workbench.records import Hit

LIBRARY = {"bitcoin": "bitcoin", "lattice": "lattice", "agents": "agents", "crypto": "crypto"}


def question(qid: str, split: str = "fit") -> Question:
    return Question(qid, QUESTION, split, ("bitcoin",))


def test_a_small_library_holds_the_source_and_the_same_others_every_run() -> None:
    others = ["lattice", "agents", "crypto"]
    chosen = small_library(question("q1"), ["bitcoin"], others, 3)
    assert chosen[0] == "bitcoin" and len(chosen) == 3 and set(chosen[1:]) <= set(others)
    assert small_library(question("q1"), ["bitcoin"], list(reversed(others)), 3) == chosen
    assert small_library(question("q1"), ["bitcoin"], others, 1) == ["bitcoin"]
    picks = {tuple(small_library(question(f"q{n}"), ["bitcoin"], others, 2)) for n in range(12)}
    assert len(picks) > 1  # the others depend on the question, not on their order


def test_each_library_size_counts_answers_with_and_without_the_source() -> None:
    asked: list[tuple[str, frozenset[str]]] = []

    def ask_without(q: Question, excluded: Sequence[str]) -> tuple[list[Hit], list[Hit], list[Candidate]]:
        asked.append((q.qid, frozenset(excluded)))
        hits = library_without_bitcoin() if "bitcoin" in excluded else bitcoin_library()
        return hits, hits, candidates(q.text, hits, 0.7 if "bitcoin" not in excluded else 0.2)

    def shows_gold(q: Question, pool: Sequence[Hit], found: Sequence[Candidate]) -> bool:
        return any("double-spending" in c.sentence for c in found)

    result = library_sizes([question("q1"), question("q2", "heldout")], LIBRARY, ask_without, shows_gold,
                           model=None, sizes=(1, 3))  # fmt: skip
    one, three = result["papers_1"]["fit"], result["papers_3"]["heldout"]
    assert one["questions"] == 1 and one["abstain_answerable"] == 0.0 and one["evidence_at_default_depth"] == 1.0
    assert one["not_found_source_removed"] is None  # a library of one paper has nothing left without it
    assert three["not_found_source_removed"] == 1.0
    # size 1 asks once per question; size 3 twice (with its source, then its two others alone)
    assert len(asked) == 2 + 4
    kept_sizes = sorted(len(LIBRARY) - len(excluded) for _, excluded in asked)
    assert kept_sizes == [1, 1, 2, 2, 3, 3]
