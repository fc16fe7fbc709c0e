"""The one depth rule (`query.depth.choose_depth`): asked, else configured, else the wording, else the intent."""

from __future__ import annotations

import pytest

from workbench.errors import UsageError
from workbench.query.depth import DEFAULT_DEPTH, check_depth, choose_depth
from workbench.query.intent.detect import detect_intent
from workbench.records import DEPTHS


def test_an_asked_depth_wins_over_settings_wording_and_intent() -> None:
    assert choose_depth("full", "quick", "targeted", "summarize") == "full"


def test_an_unknown_asked_depth_is_a_usage_error_naming_it() -> None:
    with pytest.raises(UsageError, match=r"unknown depth 'deep'"):
        choose_depth("deep", "auto", None, "question")


def test_a_configured_depth_wins_unless_it_is_auto() -> None:
    assert choose_depth(None, "comprehensive", "quick", "search") == "comprehensive"
    assert choose_depth(None, "auto", "quick", "summarize") == "quick"


def test_without_wording_the_intent_decides_and_an_unknown_intent_is_targeted() -> None:
    assert [choose_depth(None, "auto", None, kind) for kind in ("summarize", "search", "question")] == [
        "comprehensive",
        "quick",
        "targeted",
    ]
    assert choose_depth(None, "auto", None, "no-such-intent") == "targeted"
    assert set(DEFAULT_DEPTH.values()) <= {"quick", "targeted", "comprehensive", "full"}


def test_the_wording_of_a_detected_intent_reaches_the_rule() -> None:
    brief = detect_intent("summarize the raft paper briefly")
    detailed = detect_intent("summarize the raft paper in detail")
    assert choose_depth(None, "auto", brief.depth, brief.kind) == "quick"
    assert choose_depth(None, "auto", detailed.depth, detailed.kind) == "comprehensive"


def test_a_named_depth_is_checked_by_the_same_rule_for_questions_and_summaries() -> None:
    assert [check_depth(d) for d in DEPTHS] == list(DEPTHS)
    with pytest.raises(UsageError, match=r"unknown depth 'Full' \(use quick, targeted, comprehensive, full\)"):
        check_depth("Full")
