"""The critic: claim splitting, citations, grounding checks, decisions and the model's part."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from workbench.llm.base import Completion, Message, ModelError, StreamChunk
from workbench.query.critic.claims import find_citations, split_claims, split_sentences
from workbench.query.critic.contradiction import antonym_swaps, polarity
from workbench.query.critic.grounding import (
    claim_numbers,
    content_stems,
    entities,
    entity_variants,
    has_negation,
    missing_entities,
    numbers,
    words,
)
from workbench.query.critic.judge import Critic, load_prompt
from workbench.query.critic.support import Source


def fake_embed(texts: Sequence[str]) -> np.ndarray:
    """Hashed bag-of-stems vectors: deterministic, and similar texts get similar vectors."""
    from workbench.query.critic.grounding import content_stems

    out = np.zeros((len(texts), 512), dtype=np.float32)
    for row, text in enumerate(texts):
        for token in content_stems(text):
            out[row, int(hashlib.md5(token.encode()).hexdigest()[:8], 16) % 512] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1.0, norms)


class ScriptedModel:
    """A tiny stand-in language model that replies with a fixed text (or raises)."""

    def __init__(self, reply: str | Exception) -> None:
        self.reply = reply
        self.calls: list[dict[str, Any] | None] = []

    @property
    def name(self) -> str:
        return "scripted"

    @property
    def context_size(self) -> int:
        return 4096

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def prompt_tokens(self, messages: Sequence[Message]) -> int:
        return sum(self.count_tokens(m.content) for m in messages)

    def complete(
        self,
        messages: Sequence[Message],
        max_tokens: int = 512,
        schema: dict[str, Any] | None = None,
        temperature: float = 0.0,
    ) -> Completion:
        self.calls.append(schema)
        if isinstance(self.reply, Exception):
            raise self.reply
        return Completion(self.reply, self.prompt_tokens(messages), 10, 0.01)

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        done = self.complete(messages, max_tokens)
        yield StreamChunk(done.text, done)


SOURCES = [
    Source(
        key="1",
        title="Aspirin after myocardial infarction",
        text=(
            "We randomised 4,210 patients after myocardial infarction. "
            "Aspirin reduced all-cause mortality by 25% compared with placebo. "
            "Gastrointestinal bleeding increased in the aspirin group."
        ),
        doc_id="d1",
    ),
    Source(
        key="2",
        title="TNF-α and BRCA1 in breast tissue",
        text=(
            "TNF-α expression was elevated in BRCA1 mutation carriers. "
            "Statin use was associated with lower LDL cholesterol levels in the cohort."
        ),
        doc_id="d2",
    ),
]


@pytest.fixture
def critic() -> Critic:
    return Critic(fake_embed)


def test_sentences_survive_abbreviations_decimals_and_trailing_markers() -> None:
    text = "Smith et al. found a 3.5-fold rise (Fig. 2), e.g. in mice. It fell [1]. Dr. Lee disagreed. [2] Done."
    assert split_sentences(text) == [
        "Smith et al. found a 3.5-fold rise (Fig. 2), e.g. in mice.",
        "It fell [1].",
        "Dr. Lee disagreed. [2]",
        "Done.",
    ]


def test_citation_markers_are_parsed_and_stripped() -> None:
    claims = split_claims("Aspirin helps [1, 3]. Statins help [S1]. Both matter [2-4]. Risk was 2.1 [95% CI 1.1-3.0].")
    assert [c.keys for c in claims] == [("1", "3"), ("S1",), ("2", "3", "4"), ()]
    assert claims[0].text == "Aspirin helps."
    assert claims[3].text == "Risk was 2.1 [95% CI 1.1-3.0]."
    assert find_citations("Known key [smith2020].", {"smith2020"}) == ("Known key.", ("smith2020",))


def test_number_and_entity_normalisation() -> None:
    assert numbers("3.50 and 10 percent and 22,058") == {"3.5", "10", "22058"}
    assert numbers("10%") == {"10"}
    assert "18" not in numbers("IL-18 and BRCA1")
    assert entities("TNF-α binds BRCA1 and p53 in Caenorhabditis elegans") == [
        "TNF-α",
        "BRCA1",
        "p53",
        "Caenorhabditis",
    ]
    assert missing_entities("TNF-alpha and BRCA-1 bind p53", "tnfα and BRCA1 and P53") == []
    assert has_negation("It doesn't work") and not has_negation("not only this but also that")
    assert antonym_swaps("X decreases Y.", "X increases Y in mice.", "X increases Y in mice.") == ["decreases"]


def test_claim_numbers_scale_and_spelt_out_counts() -> None:
    assert claim_numbers("Savings reach $5 billion if 7% of patients join; one in two trials stop.") == {
        "5000000000",
        "7",
        "2",
    }
    assert "750000000" in numbers("could save as much as $750 million")
    assert claim_numbers("IL-18 binds BRCA1 in 1 of the cases") == set()


def test_wrong_entity_variants_are_told_apart_from_synonyms() -> None:
    assert entity_variants("BRCA2 carriers", "BRCA1 mutation carriers were studied.") == ["BRCA2"]
    assert entity_variants("Th2 cells", "T helper 2 cells were studied.") == []


@pytest.mark.parametrize(
    ("claim", "sentence", "expected"),
    [
        ("Aspirin does not reduce mortality in adults.", "Aspirin reduced mortality in adults by 25%.", -1),
        ("Aspirin increases mortality in adults.", "Aspirin reduced mortality in adults by 25%.", -1),
        ("Aspirin lowers mortality in adults.", "Aspirin reduced mortality in adults by 25%.", 1),
        ("Statins are not associated with cancer risk.", "Statin use was associated with cancer risk.", -1),
        ("Statins are unrelated to cancer risk.", "Statin use was not associated with cancer risk.", 1),
        ("Drug X is ineffective against malaria.", "Drug X was effective against malaria in trials.", -1),
        ("Risedronate increases fracture risk.", "Mice given risedronate ate more food.", 0),
    ],
)
def test_aligned_predicates_give_the_polarity(claim: str, sentence: str, expected: int) -> None:
    assert polarity(claim, sentence) == expected


def test_a_faithful_cited_answer_is_approved(critic: Critic) -> None:
    answer = (
        "Aspirin reduced all-cause mortality by 25% compared with placebo [1]. "
        "TNF-α expression was elevated in BRCA1 mutation carriers [2]."
    )
    verdict = critic.review(answer, SOURCES, question="Does aspirin help?")
    assert verdict.decision == "APPROVE", verdict.reasons
    assert [c.status for c in verdict.claims] == ["supported", "supported"]
    assert verdict.uncited == () and verdict.feedback == ""
    assert verdict.score > 0.5


def test_numeric_citation_falls_back_to_position() -> None:
    keyed = [Source(key="S1", text=SOURCES[0].text, title=SOURCES[0].title)]
    verdict = Critic(fake_embed).review("Aspirin reduced all-cause mortality by 25% compared with placebo [1].", keyed)
    assert verdict.claims[0].cited == ("S1",)
    assert verdict.decision == "APPROVE"


def test_uncited_claims_are_flagged_and_named(critic: Critic) -> None:
    answer = (
        "Aspirin reduced all-cause mortality by 25% compared with placebo [1]. "
        "Gastrointestinal bleeding increased in the aspirin group [1]. "
        "Clopidogrel is superior to aspirin for secondary prevention of stroke."
    )
    verdict = critic.review(answer, SOURCES)
    assert verdict.uncited == (2,)
    assert verdict.decision == "REVISE"
    assert "Claim 3" in verdict.feedback and "no citation" in verdict.feedback


def test_connective_sentences_are_not_claims(critic: Critic) -> None:
    verdict = critic.review("In short: Aspirin reduced all-cause mortality by 25% compared with placebo [1].", SOURCES)
    assert verdict.decision == "APPROVE"
    verdict = critic.review("Here is what I found. Aspirin reduced all-cause mortality by 25% [1].", SOURCES)
    assert verdict.uncited == () and verdict.claims[0].status == "filler"
    verdict = critic.review("Aspirin cures cancer. Aspirin reduced all-cause mortality by 25% [1].", SOURCES)
    assert verdict.uncited == (0,) and verdict.decision == "REVISE"


def test_an_invented_number_is_caught(critic: Critic) -> None:
    verdict = critic.review("Aspirin reduced all-cause mortality by 45% compared with placebo [1].", SOURCES)
    assert verdict.decision != "APPROVE"
    check = verdict.claims[0]
    assert check.features is not None and check.features.missing_numbers == ("45",)
    assert "45" in verdict.feedback


def test_an_entity_missing_from_the_sources_is_caught(critic: Critic) -> None:
    verdict = critic.review("TNF-α expression was elevated in BRCA2 mutation carriers [2].", SOURCES)
    assert verdict.decision != "APPROVE"
    assert verdict.claims[0].features is not None
    assert verdict.claims[0].features.missing_entities == ("BRCA2",)


@pytest.mark.parametrize(
    "claim",
    [
        "Aspirin did not reduce all-cause mortality compared with placebo [1].",
        "Aspirin increased all-cause mortality compared with placebo [1].",
        "Statin use was not associated with lower LDL cholesterol levels in the cohort [2].",
        "Statin use was associated with higher LDL cholesterol levels in the cohort [2].",
    ],
)
def test_a_negated_or_reversed_claim_is_rejected(critic: Critic, claim: str) -> None:
    verdict = critic.review(claim, SOURCES)
    assert verdict.decision == "REJECT", verdict.reasons
    assert verdict.claims[0].status == "contradicted"


def test_a_mixed_answer_is_sent_back_with_feedback_naming_the_weak_claim(critic: Critic) -> None:
    answer = (
        "Aspirin reduced all-cause mortality by 25% compared with placebo [1]. "
        "Gastrointestinal bleeding increased in the aspirin group [1]. "
        "TNF-α expression was elevated in BRCA1 mutation carriers [2]. "
        "Aspirin cured 90% of migraine sufferers within a week [1]."
    )
    verdict = critic.review(answer, SOURCES)
    assert verdict.decision == "REVISE", verdict.reasons
    assert [c.status for c in verdict.claims][:3] == ["supported"] * 3
    assert verdict.claims[3].status != "supported"
    assert "Claim 4" in verdict.feedback and "migraine" in verdict.feedback
    assert "Claim 1" not in verdict.feedback


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "Lorem ipsum dolor sit amet consectetur adipiscing elit. Quantum flux capacitors enable time travel.",
        "Quantum flux capacitors enable time travel [7]. Unicorns graze on Martian meadows [9].",
        "Quantum flux capacitors enable time travel [1]. Unicorns graze on Martian meadows daily [2].",
    ],
)
def test_garbage_is_rejected(critic: Critic, answer: str) -> None:
    assert critic.review(answer, SOURCES).decision == "REJECT"


def test_no_sources_means_reject(critic: Critic) -> None:
    verdict = critic.review("Aspirin reduced all-cause mortality by 25% [1].", [])
    assert verdict.decision == "REJECT"
    assert any("no claim cites" in r for r in verdict.reasons)


def test_feedback_quotes_the_closest_source_sentence(critic: Critic) -> None:
    verdict = critic.review("Aspirin increased all-cause mortality compared with placebo [1].", SOURCES)
    assert "Aspirin reduced all-cause mortality by 25%" in verdict.feedback


def test_the_prompt_has_its_placeholders() -> None:
    system, user = load_prompt()
    assert "APPROVE" in system and "REJECT" in system
    assert all(p in user for p in ("{question}", "{evidence}", "{answer}"))


def test_a_bad_citation_is_reported() -> None:
    verdict = Critic(fake_embed).review("Aspirin reduced all-cause mortality by 25% [5].", SOURCES)
    assert verdict.claims[0].status == "bad-citation"
    assert verdict.claims[0].unknown_keys == ("5",)
    assert verdict.decision == "REJECT"


def test_lexical_only_critic_still_judges() -> None:
    critic = Critic(None)
    good = critic.review("Aspirin reduced all-cause mortality by 25% compared with placebo [1].", SOURCES)
    bad = critic.review("Aspirin increased all-cause mortality compared with placebo [1].", SOURCES)
    assert good.decision == "APPROVE" and bad.decision == "REJECT"


GOOD = "Aspirin reduced all-cause mortality by 25% compared with placebo [1]."


def test_the_model_can_downgrade_approve_to_revise() -> None:
    model = ScriptedModel(json.dumps({"verdict": "REJECT", "reason": "overstated"}))
    verdict = Critic(fake_embed, model).review(GOOD, SOURCES, question="q")
    assert verdict.decision == "REVISE"
    assert verdict.model_decision == "REJECT"
    assert "overstated" in verdict.feedback
    assert model.calls and model.calls[0] is not None and model.calls[0]["required"] == ["verdict", "reason"]


def test_the_model_agreeing_keeps_approve_and_use_model_off_skips_it() -> None:
    model = ScriptedModel(json.dumps({"verdict": "APPROVE", "reason": "fine"}))
    assert Critic(fake_embed, model).review(GOOD, SOURCES).decision == "APPROVE"
    silent = ScriptedModel(json.dumps({"verdict": "REJECT", "reason": "x"}))
    verdict = Critic(fake_embed, silent, use_model=False).review(GOOD, SOURCES)
    assert verdict.decision == "APPROVE" and verdict.model_decision is None and not silent.calls


def test_the_model_never_upgrades_a_reject() -> None:
    model = ScriptedModel(json.dumps({"verdict": "APPROVE", "reason": "looks good"}))
    verdict = Critic(fake_embed, model).review("Aspirin increased all-cause mortality [1].", SOURCES)
    assert verdict.decision == "REJECT"


@pytest.mark.parametrize("reply", [ModelError("server unreachable"), "not json", '{"verdict": "MAYBE", "reason": ""}'])
def test_model_errors_are_ignored_with_a_reason(reply: str | Exception) -> None:
    verdict = Critic(fake_embed, ScriptedModel(reply)).review(GOOD, SOURCES)
    assert verdict.decision == "APPROVE"
    assert verdict.model_decision is None
    assert any(r.startswith("model verdict ignored") for r in verdict.reasons)


def test_words_of_every_script_are_whole_words() -> None:
    # The word pattern was ASCII-only: "análise" fell apart into "an" + "lise", "Müller" into
    # "m" + "ller", and Russian text had no words at all, so the evidence scorer, the presence
    # model and the critic saw nothing of the question's words in such papers.
    assert words("A análise de requisitos não funcionais") == ["a", "análise", "de", "requisitos", "não", "funcionais"]
    assert words("Mu\u0308ller und Straße") == ["müller", "und", "straße"]  # a combining diaeresis joins its letter
    assert content_stems("Как доказательство работы предотвращает двойную трату?") == [
        "как", "доказат", "работы", "предотв", "двойную", "трату",
    ]  # fmt: skip
    assert words("Ελληνικά κείμενα") == ["ελληνικά", "κείμενα"]
    # English is read as before: hyphenated words whole, "n't" as "not", Greek letters in names
    assert words("TNF-α isn't well-known") == ["tnf-α", "is", "not", "well-known"]
    assert entities("levels of TNF-α and NF-κB rose") == ["TNF-α", "NF-κB"]
    assert entities("οι ελληνικές λέξεις") == []  # a Greek word is not a Greek-letter name


def test_a_chinese_source_is_matched_sentence_by_sentence() -> None:
    from workbench.query.critic.support import source_units

    # Short bits are merged until they hold five words; counted by spaces, a Chinese sentence
    # was one word however long, so a whole Chinese abstract became a single unit to match.
    text = "本文提出一种轮腿式平衡机器人的控制方法。实验表明该方法在崎岖地面上保持平衡。结论是控制器稳定可靠。"
    units = source_units(Source("1", text))
    assert units == [
        "本文提出一种轮腿式平衡机器人的控制方法。",
        "实验表明该方法在崎岖地面上保持平衡。",
        "结论是控制器稳定可靠。",
    ]
    english = source_units(Source("1", "It works. The method keeps the robot balanced on rough ground."))
    assert english == ["It works. The method keeps the robot balanced on rough ground."]  # short bits still merge
