"""The labelled question sets of `bench answers`: loading, splitting, span matching, and the data itself."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from workbench.bench.question_sets import (
    contains_span,
    load_absent,
    load_fulltext,
    load_pubmedqa,
    normalise_span,
    split_of,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def test_spans_match_across_line_breaks_hyphens_ligatures_and_case() -> None:
    span = normalise_span("the block cannot be changed without redoing the work")
    assert contains_span("…the block can-\nnot be changed  without REDOING the work.", [span])
    assert contains_span("ﬁnds the ﬁrst", [normalise_span("finds the first")])
    assert not contains_span("the block can be changed", [span])
    assert not contains_span("anything", [""])


def test_split_is_deterministic_and_near_the_fit_share() -> None:
    keys = [f"id-{i}" for i in range(1000)]
    first = [split_of(k) for k in keys]
    assert first == [split_of(k) for k in keys]
    assert 0.55 < first.count("fit") / len(keys) < 0.65


def test_pubmedqa_loader_keeps_the_whole_abstract(tmp_path: Path) -> None:
    row = {"pmid": "7", "question": "Does X help?", "contexts": ["Background.", "Results: yes."],
           "labels": ["BACKGROUND", "RESULTS"], "long_answer": "X helps.", "final_decision": "yes"}  # fmt: skip
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(row) + "\n\n", encoding="utf-8")
    qs = load_pubmedqa(path, ["absent?"])
    assert qs.documents[0].text == "Background. Results: yes. X helps."
    assert qs.questions[0].sources == ("7",) and qs.questions[0].split == split_of("7")
    assert qs.absent == ["absent?"]


def test_fulltext_questions_are_split_by_paper(tmp_path: Path) -> None:
    rows = [
        {"id": "ft-1", "doc": "a/x.pdf", "page": 3, "question": "How many?", "spans": ["Two Nodes"], "kind": "number"},
        {"id": "ft-2", "doc": "a/x.pdf", "page": 4, "question": "Why?", "spans": ["because"], "kind": "why"},
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    qs = load_fulltext(path, tmp_path)
    assert [d.path for d in qs.documents] == [tmp_path / "a/x.pdf"]
    assert {q.split for q in qs.questions} == {split_of("a/x.pdf")}
    assert qs.questions[0].spans == ("twonodes",)


def test_the_written_full_text_set_is_big_enough_and_well_formed() -> None:
    rows = [json.loads(line) for line in (DATA / "fulltext_questions.jsonl").open(encoding="utf-8")]
    assert len(rows) >= 150
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["question"].lower() for r in rows}) == len(rows)
    papers = Counter(r["doc"] for r in rows)
    assert len(papers) >= 25
    assert all(r["spans"] and all(len(normalise_span(s)) >= 5 for s in r["spans"]) for r in rows)
    assert any(r["question"] == "how does proof of work prevent double spending" for r in rows)
    splits = Counter(split_of(r["doc"]) for r in rows)
    assert splits["fit"] > 0 and splits["heldout"] > 0
    assert len(load_absent(DATA / "absent_topics_questions.jsonl")) >= 40


def test_the_questions_in_other_languages_are_all_held_out_and_their_spans_are_printed() -> None:
    # Written in the papers' own languages over the real libraries; nothing is fitted on them.
    path = DATA / "fulltext_questions_multilingual.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    assert Counter(r["lang"] for r in rows) == {"pt": 26, "zh": 19}
    assert len({r["id"] for r in rows}) == len(rows) and all(r["doc"].startswith("zotero-real/") for r in rows)
    qs = load_fulltext(path, DATA.parents[2] / "shared" / "data", name="multilingual", held_out=True)
    assert qs.name == "multilingual" and {q.split for q in qs.questions} == {"heldout"}
    assert all(q.spans and all(len(s) >= 5 for s in q.spans) for q in qs.questions)


def test_a_set_in_several_languages_is_also_scored_per_language() -> None:
    import numpy as np

    from workbench.bench.answers import score_runs
    from workbench.bench.answers_fit import Run
    from workbench.bench.question_sets import Question, QuestionSet
    from workbench.query.evidence import FEATURE_NAMES, Candidate
    from workbench.records import Hit

    def run(qid: str, lang: str, sentence: str, span: str) -> Run:
        hit = Hit(f"{qid}#0", f"doc-{qid}", "T", "methods", sentence, 4, 4, 0.5, "both")
        vector = np.zeros(8, dtype=np.float32)
        vector[len(qid) % 8] = 1.0
        candidate = Candidate(hit, sentence, vector, (0.0,) * len(FEATURE_NAMES), 0.9)
        question = Question(qid, "q", "heldout", (f"doc-{qid}",), spans=(normalise_span(span),), page=4, lang=lang)
        return Run(question, "multilingual", [hit], [hit], [candidate])

    runs = [
        run("a", "pt", "O projeto adota a Licença Pública Geral do GNU para o código.", "Licença Pública Geral"),
        run("bb", "zh", "本文选用每秒传输 60 帧图像的高速摄像头进行实验。", "每秒传输60帧图像"),
        run("ccc", "zh", "本文选用每秒传输 60 帧图像的高速摄像头进行实验。", "回复力矩不超过"),
    ]
    qs = QuestionSet("multilingual", [], [r.question for r in runs])
    scored = score_runs(qs, {}, runs, [], lambda question, hits, candidates: False)
    assert scored["heldout"]["evidence_at_default_depth"] == round(2 / 3, 3)
    by_language = scored["by_language"]
    assert by_language["pt"]["questions"] == 1 and by_language["pt"]["evidence_at_default_depth"] == 1.0
    assert by_language["zh"]["questions"] == 2 and by_language["zh"]["evidence_at_default_depth"] == 0.5
