"""Intent detection: rules, filters, depth, targets, decomposition, model fallback and merge helpers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from workbench.llm.base import ModelError
from workbench.llm.stand_in import StandInModel
from workbench.query.filters import parse_filter
from workbench.query.intent.detect import Intent, combine, detect_intent, intent_prompt
from workbench.query.intent.rules import INTENTS, classify_with_rules
from workbench.query.subqueries import merge_subquery_results, needs_escalation, query_coverage

DATA = Path(__file__).resolve().parents[1] / "data" / "intent_queries.jsonl"
UNSURE = "papers with references on protein folding"  # a weak relationship cue against a topic: rules are unsure


def _rows(split: str | None = None) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split is None or r["split"] == split]


def test_labelled_set_is_varied_and_split() -> None:
    rows = _rows()
    assert len(rows) >= 100
    assert {r["intent"] for r in rows} == set(INTENTS)
    heldout = len(_rows("heldout")) / len(rows)
    assert 0.25 <= heldout <= 0.35
    for row in rows:
        for expression in row.get("filters", []):  # type: ignore[attr-defined]
            parse_filter(str(expression))


@pytest.mark.parametrize(("split", "floor"), [("train", 0.9), ("heldout", 0.8)])
def test_rule_accuracy_on_the_labelled_set(split: str, floor: float) -> None:
    rows = _rows(split)
    correct = sum(detect_intent(str(r["query"])).kind == r["intent"] for r in rows)
    assert correct / len(rows) >= floor


def test_rule_filters_match_the_labelled_set() -> None:
    rows = _rows("train")
    exact = sum(sorted(detect_intent(str(r["query"])).filters) == sorted(r.get("filters", [])) for r in rows)  # type: ignore[call-overload]
    assert exact / len(rows) >= 0.9


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("single-cell chromatin accessibility in zebrafish", "search"),
        ("articles about ocean acidification and coral calcification", "search"),
        ("everything by Feynman", "metadata"),
        ("how many papers are tagged unread", "metadata"),
        ("which papers cite @lecun1998gradient", "relationship"),
        ("papers similar to the word2vec paper", "relationship"),
        ("summarise @bahdanau2014 briefly", "summarize"),
        ("what's the gist of the ViT paper", "summarize"),
        ("why does batch size affect generalization?", "question"),
        ("explain how kinesin walks along microtubules", "question"),
        ("XGBoost vs LightGBM", "compare"),
        ("what are the differences between NMR and cryo-EM", "compare"),
    ],
)
def test_rules_classify_common_phrasings(query: str, kind: str) -> None:
    intent = detect_intent(query)
    assert intent.kind == kind
    assert intent.source == "rules"
    assert 0.0 <= intent.confidence <= 1.0


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("轮腿式平衡机器人如何保持平衡？", "question"),  # read as a library listing before: no "word" in it
        ("手写数字识别与目标追踪技术是什么", "question"),
        ("ロボットはどうやってバランスを保つのか？", "question"),
        ("Как работает алгоритм Гровера?", "question"),
        ("Warum altern Hefezellen langsamer?", "question"),
        ("无人船运动控制", "search"),
        ("几何建模与有限元分析", "search"),  # 几何 holds 何, which asks nothing here
        ("吗啡成瘾的神经机制", "search"),  # 吗 asks only at the end
        ("ぶどう糖の代謝経路", "search"),  # ぶどう holds どう
        ("영상 왜곡 보정", "search"),  # 왜곡 holds 왜
        ("이 방법은 어떻게 작동합니까?", "question"),
        ("naïve Bayes für Spam", "search"),
    ],
)
def test_rules_read_topics_and_questions_in_every_script(query: str, kind: str) -> None:
    assert detect_intent(query).kind == kind


@pytest.mark.parametrize(
    ("query", "filters"),
    [
        ("papers on spin glasses since 2015", ["year>=2015"]),
        ("papers on spin glasses after 2015", ["year>2015"]),
        ("papers on spin glasses before 1990", ["year<1990"]),
        ("spin glass papers between 2001 and 2004", ["year>=2001", "year<=2004"]),
        ("spin glasses 2010-2012", ["year>=2010", "year<=2012"]),
        ("spin glasses in 2019", ["year=2019"]),
        ("papers by Giorgio Parisi on spin glasses", ["author=Parisi"]),
        ("papers by parisi", ["author=parisi"]),
        ("spin glasses tagged to-read", ["tag=to-read"]),
        ('papers in collection "Statistical Physics"', ["collection=Statistical Physics"]),
        ("what's in my stat-phys collection", ["collection=stat-phys"]),
        ("preprints on spin glasses", ["type=preprint"]),
        ("what did Parisi 1979 find about replica symmetry breaking", ["author=Parisi", "year=1979"]),
        ("what did Parisi et al. find about replica symmetry breaking", ["author=Parisi"]),
        ("summarize @parisi1979", []),
        ("papers from NeurIPS 2019", ["year=2019"]),
    ],
)
def test_filters_are_extracted_in_cli_syntax(query: str, filters: list[str]) -> None:
    intent = detect_intent(query)
    assert sorted(intent.filters) == sorted(filters)
    for expression in intent.filters:
        parse_filter(expression)


def test_filter_words_leave_the_topic() -> None:
    intent = detect_intent("papers by Hinton on capsule networks published after 2017")
    assert intent.kind == "search"
    assert intent.topic == "capsule networks"
    assert sorted(intent.filters) == ["author=Hinton", "year>2017"]
    assert detect_intent("list papers tagged to-read").topic == ""


def test_citations_identify_the_target_not_a_filter() -> None:
    intent = detect_intent("papers cited by Goodfellow et al. 2014")
    assert intent.kind == "relationship"
    assert intent.filters == ()
    assert intent.target == "Goodfellow et al. 2014"


@pytest.mark.parametrize(
    ("query", "target"),
    [
        ("summarize @he2016deep", "@he2016deep"),
        ("brief overview of zotero:1:XK2P9QAB", "zotero:1:XK2P9QAB"),
        ("papers similar to file:papers/hopfield.pdf", "file:papers/hopfield.pdf"),
        ("what is the paper 'Deep Sets' about", "Deep Sets"),
        ("tl;dr of the AlphaFold 2 paper", "AlphaFold 2"),
        ("summarize Attention Is All You Need in one line", "Attention Is All You Need"),
        ("what cites the AlphaFold paper", "AlphaFold"),
    ],
)
def test_targets(query: str, target: str) -> None:
    assert detect_intent(query).target == target


@pytest.mark.parametrize(
    ("query", "depth"),
    [
        ("tl;dr @radford2021clip", "quick"),
        ("summarize the CLIP paper in one line", "quick"),
        ("summarize the CLIP paper in detail", "comprehensive"),
        ("summarize the methodology and findings of the CLIP paper", "comprehensive"),
        ("summarise the entire CLIP paper", "full"),
        ("summarize the CLIP paper", None),
        ("how does CLIP align images and text?", "targeted"),
        ("papers on contrastive learning", None),
    ],
)
def test_depth_from_wording(query: str, depth: str | None) -> None:
    assert detect_intent(query).depth == depth


@pytest.mark.parametrize(
    ("query", "subqueries"),
    [
        ("catalysis AND zeolites", ("catalysis", "zeolites")),
        ("enzyme kinetics OR allosteric regulation", ("enzyme kinetics", "allosteric regulation")),
        (
            "lithium-sulfur batteries and solid state electrolytes",
            ("lithium-sulfur batteries", "solid state electrolytes"),
        ),
        ("Pride and Prejudice", ()),
        ("gut microbiome and depression", ()),
        ("Deep Learning and the Information Bottleneck Principle", ()),
        ("what is the relationship between sleep and memory consolidation", ()),
        (
            "BERT vs GPT-2 vs T5 for summarization",
            ("BERT for summarization", "GPT-2 for summarization", "T5 for summarization"),
        ),
        ("compare Adam and SGD with momentum", ("Adam", "SGD with momentum")),
        ("how does LoRA differ from full fine-tuning", ("LoRA", "full fine-tuning")),
        (
            "which is better for small data: random forests or gradient boosting",
            ("random forests for small data", "gradient boosting for small data"),
        ),
    ],
)
def test_decomposition(query: str, subqueries: tuple[str, ...]) -> None:
    assert detect_intent(query).subqueries == subqueries


def test_confident_rules_never_ask_the_model() -> None:
    model = StandInModel(replies=['{"intent": "compare", "confidence": 1}'])
    intent = detect_intent("summarize @he2016deep", model)
    assert intent.kind == "summarize" and intent.source == "rules"
    assert model.calls == []


def test_unsure_rules_ask_the_model_with_a_constrained_prompt() -> None:
    kind, confidence, _ = classify_with_rules(UNSURE)
    assert kind == "relationship" and confidence < 0.75
    model = StandInModel(replies=['{"intent": "search", "confidence": 0.9}'])
    intent = detect_intent(UNSURE, model)
    assert (intent.kind, intent.source, intent.confidence, intent.warnings) == ("search", "model", 0.9, ())
    (messages,) = model.calls
    assert messages[0].role == "system" and "compare" in messages[0].content
    assert messages[-1].content.endswith(UNSURE)


def test_model_agreeing_raises_confidence() -> None:
    _, rule_conf, _ = classify_with_rules(UNSURE)
    intent = detect_intent(UNSURE, StandInModel(replies=['{"intent": "relationship", "confidence": 0.5}']))
    assert intent.kind == "relationship" and intent.source == "rules+model"
    assert intent.confidence > rule_conf


def test_default_stand_in_reply_is_schema_valid() -> None:
    intent = detect_intent(UNSURE, StandInModel())  # minimal object: first enum value, confidence 0
    assert intent.kind == "search" and intent.source == "model" and intent.warnings == ()


@pytest.mark.parametrize(
    "reply",
    [
        '{"intent": "search", "confid',
        "not json at all",
        '{"intent": "poetry", "confidence": 0.9}',
        '{"intent": "search"}',
        '["search", 0.9]',
        ModelError("llama.cpp server at http://x is unreachable: refused"),
    ],
)
def test_model_failures_fall_back_to_rules_with_a_warning(reply: str | Exception) -> None:
    rules = classify_with_rules(UNSURE)
    intent = detect_intent(UNSURE, StandInModel(replies=[reply]))
    assert (intent.kind, intent.confidence, intent.source) == (rules[0], rules[1], "rules")
    assert len(intent.warnings) == 1 and "intent model unusable" in intent.warnings[0]


def test_combination_rule() -> None:
    scores = {"search": 0.3, "relationship": 1.5, "compare": 0.0, "summarize": 1.0}
    assert combine("relationship", 0.6, scores, "relationship", 0.5) == ("relationship", 0.8, "rules+model")
    # the model breaks ties among intents the rules found plausible ...
    assert combine("relationship", 0.65, scores, "summarize", 0.9) == ("summarize", 0.9, "model")
    # ... but cannot pull a query to an intent the rules saw (almost) no cue for
    assert combine("relationship", 0.65, scores, "compare", 0.9) == ("relationship", 0.65, "rules+model")
    assert combine("relationship", 0.65, scores, "search", 0.9) == ("relationship", 0.65, "rules+model")
    # unless the rules were nearly tied
    assert combine("relationship", 0.52, scores, "compare", 0.9) == ("compare", 0.9, "model")


def test_model_without_rule_support_is_overruled() -> None:
    query = "find papers similar to @vaswani2017"  # relationship 1.3 vs search 1.1: rules unsure
    assert classify_with_rules(query)[1] < 0.75
    intent = detect_intent(query, StandInModel(replies=['{"intent": "compare", "confidence": 0.99}']))
    assert (intent.kind, intent.source) == ("relationship", "rules+model")


def test_percent_confidence_is_scaled() -> None:
    intent = detect_intent(UNSURE, StandInModel(replies=['{"intent": "search", "confidence": 85}']))
    assert intent.confidence == 0.85


def test_empty_query() -> None:
    assert detect_intent("   ") == Intent("search", 0.0, "rules", warnings=("empty query",))


def test_intent_prompt_names_every_intent() -> None:
    prompt = intent_prompt()
    assert all(kind in prompt for kind in INTENTS)


def test_merge_fuses_ranked_lists_without_duplicates() -> None:
    first = [("a", 1), ("b", 2), ("c", 3)]
    second = [("d", 9), ("b", 8), ("e", 7), ("b", 8)]
    merged = merge_subquery_results([first, second], key=lambda hit: hit[0], limit=10)
    assert [h[0] for h in merged] == ["b", "a", "d", "c", "e"]
    assert merged[0] == ("b", 2)  # the first list's copy is kept
    assert len(merge_subquery_results([first, second], key=lambda hit: hit[0], limit=2)) == 2
    assert merge_subquery_results([], key=lambda hit: str(hit), limit=5) == []
    only = merge_subquery_results([[("x", 1), ("x", 2), ("y", 3)]], key=lambda hit: hit[0], limit=5)
    assert only == [("x", 1), ("y", 3)]


def test_merge_alternates_when_ranks_tie() -> None:
    merged = merge_subquery_results([[("a",), ("b",)], [("c",), ("d",)]], key=lambda hit: hit[0], limit=4)
    assert [h[0] for h in merged] == ["a", "c", "b", "d"]


def test_query_coverage_and_escalation() -> None:
    texts = ["Dropout prevents co-adaptation of hidden units.", "Regularizing neural networks."]
    assert query_coverage("dropout regularization of neural networks", texts) == pytest.approx(0.75)
    assert query_coverage("dropout networks", texts) == 1.0
    assert query_coverage("what is it", texts) == 1.0
    assert query_coverage("graphene", []) == 0.0
    assert needs_escalation([], 1.0, 0.1, 0.5)
    assert needs_escalation([0.05, 0.02], 1.0, 0.1, 0.5)
    assert needs_escalation([0.5], 0.3, 0.1, 0.5)
    assert not needs_escalation([0.5, 0.2], 0.8, 0.1, 0.5)


def test_bench_reports_every_path_with_the_stand_in(tmp_path: Path) -> None:
    from workbench.bench.intent import bench_intent

    report = bench_intent(StandInModel(), DATA)
    assert report["queries"] == len(_rows())
    assert report["rules"]["by_split"]["train"] >= 0.9
    assert set(report["rules"]["confusion"]) == set(INTENTS)
    only_search = sum(1 for r in _rows() if r["intent"] == "search") / len(_rows())
    assert report["model_only"]["accuracy"] == pytest.approx(only_search, abs=1e-3)  # stand-in: first enum value
    assert report["combined_by_threshold"]["1.01"]["model_consulted"] == len(_rows())
    assert report["combined"]["mean_latency_ms"] is not None
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query": "x"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="needs 'query' and 'intent'"):
        bench_intent(None, bad)
    assert bench_intent(None, DATA)["model_only"] is None


def test_filters_no_paper_matches_give_their_words_back_to_the_search() -> None:
    from workbench.query.gather import EvidenceGatherer
    from workbench.records import Filter, Hit

    asked: list[tuple[str, int]] = []

    def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
        asked.append((query, len(filters)))
        if filters:  # the library holds no paper by "Indigo" from 2005
            return []
        return [Hit("c1", "coulom", "Efficient Selectivity", "results", "61% against Indigo 2005", 9, 9, 1.0, "hybrid")]

    gatherer = EvidenceGatherer(search, finder=None, document_chunks=lambda doc_id: [], targeted_chunks=8)  # type: ignore[arg-type]
    question = "What winning rate did the program reach against Indigo 2005?"
    intent = detect_intent(question)
    assert intent.filters == ("author=Indigo", "year=2005") and "Indigo" not in intent.topic
    checked, warnings = gatherer.library_intent(question, intent, None)
    assert checked.filters == () and "Indigo 2005" in checked.topic
    assert warnings == [
        "no paper in your library matches author=Indigo, year=2005 (read from the question): searched them all"
    ]
    before = len(asked)
    hits, _ = gatherer.passages(question, checked, None)
    assert [h.doc_id for h in hits] == ["coulom"]
    assert asked[before] == (checked.topic, 0) and all(filters == 0 for _, filters in asked[before:])


def test_filters_a_paper_matches_are_kept() -> None:
    from workbench.query.gather import EvidenceGatherer
    from workbench.records import Filter, Hit

    def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
        return [Hit("c1", "smith", "Smith 2019", "results", "text", 1, 1, 1.0, "hybrid")]

    gatherer = EvidenceGatherer(search, finder=None, document_chunks=lambda doc_id: [], targeted_chunks=8)  # type: ignore[arg-type]
    intent = detect_intent("What did Smith et al. 2019 find about sleep?")
    assert intent.filters
    assert gatherer.library_intent("What did Smith et al. 2019 find about sleep?", intent, None) == (intent, [])


@pytest.mark.parametrize(
    "query",
    [
        # full-text questions about one paper's content: "references" is not a bibliography here
        "Which physical time references does the clock API rely on?",
        "Which pointers does the Cedar reference-counting collector not count?",
        "references on protein folding",  # literature on a topic: a search
    ],
)
def test_references_of_a_thing_are_no_relationship_between_papers(query: str) -> None:
    assert detect_intent(query).kind != "relationship"


@pytest.mark.parametrize(
    "query", ["What papers does the Raft paper reference?", "which papers are related to attention is all you need"]
)
def test_references_between_papers_still_are(query: str) -> None:
    assert detect_intent(query).kind == "relationship"
