"""An `Answer`'s JSON shape lives with the record: `to_dict` and `from_json` round-trip every field."""

from __future__ import annotations

import json

from workbench.records import (
    ANSWER_FORMAT,
    Answer,
    Citation,
    CostEstimate,
    Evidence,
    Synthesis,
    SynthesisSentence,
    Verdict,
)

EVIDENCE = Evidence("1", "c1", "file:g.md", "Graphene", "results", 2, 3, "Mobility fell above 200 K.", 0.7, "", 3)
ANSWER = Answer(
    status="answered", query="What limits mobility?", intent="question", depth="targeted",
    text="**Evidence** …", citations=(Citation("1", "c1", "file:g.md", "Graphene", "results", 2, 3, "Mobility", 3),),
    verdict=Verdict("REVISE", 0.61, ("one claim unsupported",), (2,)),
    estimate=CostEstimate("targeted", 310, 120, 1, True, "evidence is free"),
    prompt_tokens=305, completion_tokens=88, seconds=2.5, first_token_seconds=0.9, warnings=("slow model",),
    aspects={"findings": "Mobility fell."}, evidence=(EVIDENCE,),
    synthesis=(Synthesis("REVISE", "Mobility fell [1].", True, (SynthesisSentence("Mobility fell [1].", ("1",),
                                                                                   "supported", 0.8),), ("ok",)),),
    evidence_seconds=0.4,
)  # fmt: skip


def test_an_answer_survives_its_json_shape_field_for_field() -> None:
    data = ANSWER.to_dict()
    assert data["format"] == ANSWER_FORMAT and data["verdict"]["reasons"] == ("one claim unsupported",)
    back = Answer.from_json(json.dumps(data))
    assert back == ANSWER and back is not None and back.aspects == ANSWER.aspects
    assert isinstance(back.synthesis[0].sentences[0].markers, tuple) and isinstance(back.verdict.uncited, tuple)  # type: ignore[union-attr]


def test_an_answer_of_another_format_is_not_read() -> None:
    data = {**ANSWER.to_dict(), "format": ANSWER_FORMAT - 1}
    assert Answer.from_json(json.dumps(data)) is None
    assert Answer.from_json(json.dumps({k: v for k, v in data.items() if k != "format"})) is None
