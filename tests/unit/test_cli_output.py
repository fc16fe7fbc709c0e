"""How the command line shortens what it lists: a cut is always marked, never silent."""

from __future__ import annotations

from workbench.cli.args import clip


def test_a_long_title_is_cut_at_a_word_with_a_mark() -> None:
    title = "Large-scale Incremental Processing Using Distributed Transactions and Notifications"
    shown = clip(title)
    assert len(shown) <= 70
    assert shown.endswith("…") and title.startswith(shown.removesuffix("…").rstrip())  # "… and  " before


def test_a_short_title_is_one_line_and_whole() -> None:
    assert clip("Paxos Made\n  Moderately Complex") == "Paxos Made Moderately Complex"


def test_a_file_name_used_as_a_title_is_cut_inside_its_one_word() -> None:
    shown = clip("x" * 100)
    assert shown == "x" * 69 + "…"
