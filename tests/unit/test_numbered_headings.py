"""Numbered headings ("2. Transactions") start sections of their own; numbered list items do not."""

from __future__ import annotations

import pytest

from tests.conftest import PDFS
from workbench.ingest.headings import numbered_heading
from workbench.ingest.parse import parse_file
from workbench.ingest.sections import split_sections
from workbench.ingest.source_lines import SourceLine

BITCOIN = PDFS / "zotero_bitcoin_whitepaper.pdf"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2. Transactions", (2, "Transactions")),
        ("9. Combining and Splitting Value", (9, "Combining and Splitting Value")),
        ("3) Network", (3, "Network")),
        ("IV. SYSTEM MODEL", (4, "SYSTEM MODEL")),
        ("12 Conclusion", (12, "Conclusion")),
        ("3 The proposed model", (3, "The proposed model")),
        ("3) Each node works on finding a difficult proof-of-work for its block.", None),  # a list item
        ("1. New transactions are broadcast to all nodes.", None),
        ("2 Code is available at the project page on GitHub", None),  # a footnote, not in Title Case
        ("3.2 Results of the second run", None),  # a sub-heading
        ("A. Proofs", None),  # lettered: appendix or sub-heading
        ("1 if p≤q", None),  # a formula
        ("2.1 The Transformer . . . . . . . 4", None),  # a table-of-contents entry
    ],
)
def test_numbered_heading_shape(line: str, expected: tuple[int, str] | None) -> None:
    assert numbered_heading(line) == expected


def _lines(*texts: str, page: int = 1) -> list[SourceLine]:
    out = []
    for text in texts:
        out.append(SourceLine(text, page) if text else SourceLine("", page, "break"))
    return out


def test_numbered_headings_continue_the_papers_numbering() -> None:
    lines = _lines(
        "Abstract",
        "We propose a solution to the double-spending problem.",
        "1. Introduction",
        "Commerce on the Internet relies on trusted third parties.",
        "2. Transactions",
        "We define an electronic coin as a chain of digital signatures.",
        "3. Network",
        "The steps to run the network are as follows:",
        "1) New transactions are broadcast to all nodes.",
        "3) Each node works on finding a difficult proof-of-work for its block.",
        "4. Calculations",
        "We consider an attacker trying to generate an alternate chain.",
        "5. Conclusion",
        "We have proposed a system for electronic transactions without relying on trust.",
    )
    sections = split_sections(lines)
    names = [s.name for s in sections]
    assert names == ["abstract", "introduction", "methods", "conclusion"]
    methods = sections[2].text
    assert methods.startswith("2. Transactions\n\nWe define an electronic coin")
    assert "3. Network\n\nThe steps" in methods  # the heading stays as its own paragraph
    assert "3) Each node works" in methods  # list items are body text, never headings
    assert "Commerce on the Internet" in sections[1].text and "electronic coin" not in sections[1].text


def test_numbering_must_start_at_a_recognised_heading_and_continue() -> None:
    lines = _lines(
        "1 Department of Computer Science",  # an affiliation mark before any heading
        "A paper about things.",
        "1 Introduction",
        "Some introduction.",
        "3 Something Else",  # skips 2: not the paper's numbering
        "More introduction.",
    )
    sections = split_sections(lines)
    assert [s.name for s in sections] == ["other", "introduction"]
    assert "3 Something Else" in sections[1].text


def test_running_heads_with_page_numbers_are_not_headings() -> None:
    lines = [
        SourceLine("1 Introduction", 1),
        SourceLine("An introduction.", 1),
        SourceLine("2 R. Coulom", 2),  # running head: page number and author, on every even page
        SourceLine("More introduction.", 2),
        SourceLine("4 R. Coulom", 4),
        SourceLine("Still the introduction.", 4),
    ]
    assert [s.name for s in split_sections(lines)] == ["introduction"]


@pytest.mark.skipif(not BITCOIN.exists(), reason="shared data not present")
def test_bitcoin_numbered_sections_are_not_introduction() -> None:
    sections = parse_file(BITCOIN).sections
    intro = next(s for s in sections if s.name == "introduction")
    assert "3) Each node works on finding" not in intro.text
    assert intro.page_end == 1  # "2. Transactions" (page 2) ends it
    methods = next(s for s in sections if s.name == "methods")
    assert "3) Each node works on finding" in methods.text
    assert [s.name for s in sections][-2:] == ["conclusion", "references"]


def test_a_numbered_sub_heading_on_its_own_line_is_its_own_paragraph() -> None:
    # GFS's "2.2 Interface" was the first words of the paragraph under it, so every quote of that
    # paragraph's first sentence began "2.2 Interface GFS provides ...".
    lines = _lines(
        "1. Introduction",
        "We have designed and implemented the Google File System.",
        "2.2 Interface",
        "GFS provides a familiar file system interface, though it does not",
        "implement a standard API such as POSIX. Files are organized in",
        "2.3 Architecture Overview Clients Interact",  # the line before does not end a sentence: not a heading
        "directories.",
    )
    sections = split_sections(lines)
    assert [s.name for s in sections] == ["introduction", "methods"]  # section 2 is not the introduction
    assert sections[0].text == "We have designed and implemented the Google File System."
    assert sections[1].text.startswith("2.2 Interface\n\nGFS provides")
    assert "organized in 2.3 Architecture" in sections[1].text
