"""The presence decision ("does this library hold the answer?"): its features over a whole result,
the backends' own scores kept through fusion, and fitting it on answerable vs unanswerable questions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from workbench.bench.answers_fit import PRESENCE_ABSTAIN_MAX, Probe, Run, fit_presence, presence_rows
from workbench.bench.question_sets import Question
from workbench.query.evidence import Candidate, QuestionContext, sentence_features
from workbench.query.logistic import LogisticWeights
from workbench.query.presence import (
    PRESENCE_FEATURE_NAMES,
    Calibration,
    PresenceModel,
    decide,
    presence_features,
    result_kind,
)
from workbench.query.retrieve import Retriever
from workbench.records import Hit
from workbench.settings.config import RetrievalSettings

INDEX = {name: i for i, name in enumerate(PRESENCE_FEATURE_NAMES)}
QUESTION = "How does proof-of-work stop double-spending in Bitcoin?"


def hit(doc: str, text: str, ordinal: int = 0, dense: tuple[int, float] | None = None,
        fts: tuple[int, float] | None = None) -> Hit:  # fmt: skip
    extra: dict[str, object] = {}
    if dense:
        extra["dense_rank"], extra["dense_score"] = dense
    if fts:
        extra["fts_rank"], extra["fts_score"] = fts
    return Hit(f"{doc}#{ordinal}", doc, doc.upper(), "other", text, 1, 1, 0.03, "both", extra=extra)


def candidates(question: str, hits: list[Hit], similarity: float) -> list[Candidate]:
    context = QuestionContext.of(question, [h.text for h in hits])
    out = []
    for rank, h in enumerate(hits):
        features = sentence_features(similarity, context.stems, context.entities, h.text, rank, h.section,
                                     context=context)  # fmt: skip
        out.append(Candidate(h, h.text, np.ones(2, dtype=np.float32), features, similarity / 2))
    return out


def bitcoin_library() -> list[Hit]:
    """The Bitcoin paper's passages lead the result; both backends rank it first."""
    return [
        hit("bitcoin", "The proof-of-work chain makes double-spending impractical for an attacker.", 0,
            dense=(0, 0.71), fts=(0, 14.2)),
        hit("bitcoin", "Double-spending in Bitcoin is stopped by the longest proof-of-work chain.", 1,
            dense=(1, 0.62), fts=(1, 4.0)),
        hit("lattice", "Lattice models of spin glasses have many metastable states.", 0, dense=(2, 0.21)),
    ]  # fmt: skip


def library_without_bitcoin() -> list[Hit]:
    """Other papers only: none names the question's rare words; the backends disagree."""
    return [
        hit("lattice", "Lattice models of spin glasses have many metastable states.", 0, dense=(0, 0.24), fts=(3, 2.1)),
        hit("agents", "The search agent stops when its budget of work is spent.", 0, dense=(1, 0.22), fts=(0, 3.9)),
        hit("crypto", "Public-key signatures prove who wrote a message.", 0, dense=(2, 0.2), fts=(1, 3.0)),
    ]  # fmt: skip


def test_the_result_of_a_library_that_holds_the_answer_has_stronger_features() -> None:
    holding = presence_features(QUESTION, bitcoin_library(), candidates(QUESTION, bitcoin_library(), 0.7))
    lacking = presence_features(
        QUESTION, library_without_bitcoin(), candidates(QUESTION, library_without_bitcoin(), 0.3)
    )
    assert len(holding) == len(PRESENCE_FEATURE_NAMES)
    stronger = (
        "best_score", "best_idf_coverage", "best_coverage", "passage_idf_coverage", "passage_pair_coverage",
        "dense_top", "dense_gap", "fts_ratio",
    )  # fmt: skip
    for name in stronger:
        assert holding[INDEX[name]] > lacking[INDEX[name]], name
    assert holding[INDEX["agreement"]] > 0.0 and lacking[INDEX["agreement"]] == 0.0


def test_agreement_on_the_top_paper_counts_less_the_fewer_papers_could_be_first() -> None:
    """Two backends agree by chance one time in k among k papers: in a library of two papers
    agreement says little, among many it says much."""
    two = bitcoin_library()[:3]
    many = two + [hit(f"other{i}", "Unrelated passage about metastable states.", 0, dense=(3 + i, 0.1))
                  for i in range(8)]  # fmt: skip
    small = presence_features(QUESTION, two, candidates(QUESTION, two, 0.7))[INDEX["agreement"]]
    large = presence_features(QUESTION, many, candidates(QUESTION, many, 0.7))[INDEX["agreement"]]
    assert small == 0.5 and large == 0.9


def test_an_empty_result_is_not_found_whatever_the_model() -> None:
    generous = Calibration(LogisticWeights(bias=10.0, weights=(0.0,) * len(PRESENCE_FEATURE_NAMES)), 0.5)
    model = PresenceModel({"papers": generous})
    assert not decide(QUESTION, [], [], model).found
    assert decide(QUESTION, bitcoin_library(), candidates(QUESTION, bitcoin_library(), 0.7), model).found


def test_an_answer_between_the_two_cut_offs_is_found_with_a_caution() -> None:
    """A probability of 0.5: found under a 0.4 threshold; cautioned when the caution cut-off is
    above it, not when it is below; never cautioned when not found."""
    hits = bitcoin_library()
    found = candidates(QUESTION, hits, 0.7)
    even = LogisticWeights(bias=0.0, weights=(0.0,) * len(PRESENCE_FEATURE_NAMES))

    def presence(threshold: float, caution: float) -> tuple[bool, bool]:
        result = decide(QUESTION, hits, found, PresenceModel({"papers": Calibration(even, threshold, caution)}))
        return result.found, result.uncertain

    assert presence(0.4, 0.6) == (True, True)
    assert presence(0.4, 0.45) == (True, False)
    assert presence(0.6, 0.9) == (False, False)


def test_the_caution_cut_off_is_fitted_above_the_not_found_one() -> None:
    """The caution may cover more answerable questions than "not found" may (`PRESENCE_CAUTION_MAX`
    against `PRESENCE_ABSTAIN_MAX`): with 8 of 100 answerable questions that look like the removed
    ones, "not found" stays under them and the caution covers them."""
    runs = _lookalike_runs(8)
    model, info = fit_presence([("toy", runs, [])])
    ((kind, calibration),) = model.calibrations.items()
    assert calibration.caution > calibration.threshold
    decisions = [decide(QUESTION, r.hits, r.candidates, model) for r in runs]
    assert sum(not d.found for d in decisions) / len(runs) <= PRESENCE_ABSTAIN_MAX
    assert all(d.uncertain for d in decisions[:8]) and not any(d.uncertain for d in decisions[8:])
    assert info["per_kind"][kind]["caution_share"] > info["per_kind"][kind]["abstaining_share"]


def test_the_kind_of_result_comes_from_the_pages_reached_and_the_form_of_the_query() -> None:
    deep = [replace(h, page_start=4, page_end=5) for h in bitcoin_library()]
    assert result_kind(QUESTION, deep) == "papers"
    assert result_kind(QUESTION, bitcoin_library()) == "abstracts:question"
    assert result_kind("Proof-of-work prevents double-spending.", bitcoin_library()) == "abstracts:statement"
    assert result_kind("does proof of work prevent double spending", bitcoin_library()) == "abstracts:question"
    flat = LogisticWeights(0.0, (0.0,) * len(PRESENCE_FEATURE_NAMES))
    only_papers = PresenceModel({"papers": Calibration(flat, 0.1)})
    assert only_papers.calibration("abstracts:statement") is only_papers.calibrations["papers"]


def test_fusion_keeps_each_backends_own_rank_and_score() -> None:
    retriever = Retriever.__new__(Retriever)
    retriever.settings = RetrievalSettings()
    dense = [hit("a", "x", 0), hit("b", "y", 0)]
    dense = [Hit(**{**h.__dict__, "score": s, "backend": "dense"}) for h, s in zip(dense, (0.8, 0.5), strict=True)]
    fts = [Hit(**{**hit("b", "y", 0).__dict__, "score": 7.5, "backend": "fts"})]
    fused = {h.doc_id: h for h in retriever.fuse("hybrid", dense, fts, per_doc=False)}
    assert fused["a"].extra == {"dense_rank": 0, "dense_score": 0.8}
    assert fused["b"].extra == {"dense_rank": 1, "dense_score": 0.5, "fts_rank": 0, "fts_score": 7.5}


def _run(number: int, present: list[Hit], removed: list[Hit]) -> Run:
    question = Question(f"q{number}", QUESTION, "fit", ("bitcoin",))
    run = Run(question, "toy", present, present, candidates(QUESTION, present, 0.7))
    run.removed_hits, run.removed = removed, candidates(QUESTION, removed, 0.3)
    return run


def test_the_fitted_model_separates_held_from_missing_answers_and_bounds_abstention() -> None:
    runs = [_run(i, bitcoin_library(), library_without_bitcoin()) for i in range(30)]
    absent = [Probe("Why did the Roman Republic collapse?", "fit", library_without_bitcoin(),
                    candidates("Why did the Roman Republic collapse?", library_without_bitcoin(), 0.2))]  # fmt: skip
    model, seen = fit_presence([("toy", runs, absent)])
    assert seen["per_kind"]["abstracts:question"]["sets"]["toy"] == {"answerable": 30, "unanswerable": 31}
    assert decide(QUESTION, bitcoin_library(), runs[0].candidates, model).found
    assert not decide(QUESTION, library_without_bitcoin(), runs[0].removed, model).found
    assert not decide(absent[0].text, absent[0].hits, absent[0].candidates, model).found


def test_a_kind_with_too_few_questions_gets_no_calibration_of_its_own() -> None:
    runs = [_run(i, bitcoin_library(), library_without_bitcoin()) for i in range(5)]
    model, seen = fit_presence([("toy", runs, [])])
    assert model.calibrations == {} and seen["per_kind"] == {}


def middle_library() -> list[Hit]:
    """A paper on the same topic leads, with a weaker match than the source's own passages."""
    return [
        hit("ledger", "A shared ledger records each payment once to stop double use of funds.", 0,
            dense=(0, 0.45), fts=(1, 5.0)),
        hit("lattice", "Lattice models of spin glasses have many metastable states.", 0, dense=(1, 0.21), fts=(0, 6.0)),
    ]  # fmt: skip


def _paper_run(number: int, present: list[Hit], removed: list[Hit]) -> Run:
    run = _run(number, present, removed)
    run.question = replace(run.question, sources=(f"paper{number}",))
    return run


def test_questions_about_one_paper_share_a_cross_validation_fold() -> None:
    runs = [_run(i, bitcoin_library(), library_without_bitcoin()) for i in range(3)]  # all about "bitcoin"
    other = _paper_run(9, bitcoin_library(), library_without_bitcoin())
    groups = {r.group for r in presence_rows([("toy", [*runs, other], [])])}
    assert groups == {"bitcoin", "paper9"}


def _lookalike_runs(lookalikes: int) -> list[Run]:
    """100 answerable questions, the first `lookalikes` of which look like the 60 whose source was
    removed and a same-topic paper answers instead."""
    runs = [_paper_run(i, middle_library() if i < lookalikes else bitcoin_library(),
                       middle_library() if i < 60 else library_without_bitcoin()) for i in range(100)]  # fmt: skip
    for run in runs[:lookalikes]:
        run.candidates = candidates(QUESTION, run.hits, 0.45)
    for run in runs[:60]:
        run.removed = candidates(QUESTION, run.removed_hits, 0.45)
    return runs


def _rates(runs: list[Run]) -> tuple[float, float]:
    model, _ = fit_presence([("toy", runs, [])])
    abstained = [not decide(QUESTION, r.hits, r.candidates, model).found for r in runs]
    removed = [not decide(QUESTION, r.removed_hits, r.removed, model).found for r in runs]
    return sum(abstained) / len(runs), sum(removed) / len(runs)


def test_the_threshold_spends_the_abstention_the_bound_allows() -> None:
    """1 of 100 answerable questions looks like the 60 removed ones: abstaining on it buys "not
    found" for all 60."""
    abstained, removed = _rates(_lookalike_runs(1))
    assert abstained <= PRESENCE_ABSTAIN_MAX
    assert removed >= 0.8


def test_the_threshold_never_spends_more_than_the_bound() -> None:
    """4 of 100 look like the removed ones: "not found" for them would cost 4% wrong answers, over
    the bound, so the threshold stays under them although the removed questions then answer."""
    abstained, _ = _rates(_lookalike_runs(4))
    assert abstained <= PRESENCE_ABSTAIN_MAX
