"""How the command line shortens what it lists: a cut is always marked, never silent."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pytest

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


def test_show_prints_a_papers_own_text_escaped_wrapped_and_marked_where_cut(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from workbench.cli.index import ABSTRACT_CHARS, cmd_show
    from workbench.engine.records import DocumentDetail
    from workbench.records import CatalogDocument

    abstract = "Clears the screen\x1b[2J here. " + "A double-spending attack needs most of the CPU power. " * 20
    document = CatalogDocument("file:1/x.pdf", title="X", authors=("Ann\x07 Lee",), abstract=abstract)
    detail = DocumentDetail(document, (), ({"text": "a note\x1b]0;t\x07 " + "word " * 100},), ())
    engine = SimpleNamespace(document_detail=lambda ref: detail)
    assert cmd_show(engine, argparse.Namespace(ref="x", json=False)) == 0  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out  # a PDF's text never drives the terminal
    body = [line for line in out.splitlines() if line.startswith("  ") and "double" in line]
    assert body and all(len(line) <= 102 for line in body)  # wrapped, not one 1,000-character line
    assert body[-1].endswith("…") and sum(len(line) - 2 for line in body) <= ABSTRACT_CHARS + len(body)
    assert "double-spending" in " ".join(body)  # a hyphenated word is never split over two lines
    assert next(line for line in out.splitlines() if "note:" in line).endswith("…")


def test_show_and_search_name_the_documents_holding_the_same_text(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli.index import cmd_show
    from workbench.cli.main import print_search
    from workbench.engine.records import DocumentDetail, TextTwin
    from workbench.records import CatalogDocument, Hit, SearchResult

    document = CatalogDocument("zotero:1:AAAA1111", title="Bitcoin", source="zotero")
    twin = TextTwin("zotero:1:BBBB2222", "Bitcoin: A Peer-to-Peer Electronic Cash System", 0.992)
    detail = DocumentDetail(document, (), (), (), (twin,))
    engine = SimpleNamespace(document_detail=lambda ref: detail)
    assert cmd_show(engine, argparse.Namespace(ref="x", json=False)) == 0  # type: ignore[arg-type]
    line = next(line for line in capsys.readouterr().out.splitlines() if "same text" in line)
    assert line == (
        "  same text as: zotero:1:BBBB2222 Bitcoin: A Peer-to-Peer Electronic Cash System (resemblance 0.99); "
        "Zotero can merge items of one paper"
    )
    hit = Hit("c1", "zotero:1:AAAA1111", "Bitcoin", "abstract", "text", 1, 1, 0.5, "both", same_text=(twin.doc_id,))
    data = SearchResult("bitcoin", "hybrid", [hit]).to_dict([])
    assert data["results"][0]["same_text"] == ["zotero:1:BBBB2222"]
    print_search(data, as_json=False)
    assert capsys.readouterr().out.splitlines()[-1] == "    same text: zotero:1:BBBB2222"
