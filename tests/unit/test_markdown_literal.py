"""Text from papers inside Markdown renders as printed: no stray links, emphasis, lists or tags."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from workbench.formats.answers import evidence_line, render_evidence
from workbench.formats.markdown import literal, paragraphs
from workbench.records import Evidence
from workbench.tui.widgets.preview import linked_markers

PRINTED = [
    "transactions must be publicly announced [1], and we need a system",
    "*p* < 0.05 and p<0.01 in the H_2O group and the _x_ factor",
    "2. Transactions",
    "# of nodes ~ 10 ~~or~~ more",
    "- a dash, + a plus, > a quote",
    "12) items with `code` and a back\\slash",
    "cells <sup>2</sup> per mm",
    "Alice [Bob](http://example.org) Carol",
    "Results\n---\nand\n===",
]


def _rendered_text(markdown: str) -> str:
    """What the renderer Textual uses (markdown-it, gfm-like) shows, as plain text (a bare URL stays
    a link to itself: linkify is on, and that shows the URL as printed)."""
    rendered = MarkdownIt("gfm-like").render(markdown)
    rendered = re.sub(r'<a href="([^"]+)">\1</a>', r"\1", rendered)
    assert "<a " not in rendered and "<em>" not in rendered and "<ol" not in rendered and "<ul" not in rendered
    assert "<h1>" not in rendered and "<h2>" not in rendered and "<hr" not in rendered
    assert "<blockquote>" not in rendered and "<s>" not in rendered
    return html.unescape(re.sub(r"</?p>", "", rendered)).strip()


@pytest.mark.parametrize("text", PRINTED)
def test_a_literal_renders_as_the_printed_text(text: str) -> None:
    assert _rendered_text(literal(text)) == text


def test_plain_words_are_left_alone() -> None:
    text = "Remission was achieved by 22 (73%) in the surgical group; p_value 0.02."
    assert literal(text) == text


def test_a_citation_inside_a_quote_is_not_one_of_the_answers_markers() -> None:
    item = Evidence(
        marker="2", chunk_id="c", doc_id="d", title="Bitcoin: A *Peer-to-Peer* Cash System", section="methods",
        page_start=2, page_end=2, sentence="Transactions must be publicly announced [1].", score=0.5,
    )  # fmt: skip
    line = evidence_line(item)
    linked = linked_markers(render_evidence([item]))
    # the answer's own marker [2] links to its evidence; the paper's "[1]" stays text
    assert "(cite:2)" in linked and "(cite:1)" not in linked
    assert _rendered_text(line.split(" — ")[0].split(" ", 1)[1]) == "“Transactions must be publicly announced [1].”"


def test_a_passage_keeps_its_paragraphs() -> None:
    assert paragraphs("2. Transactions\n\nWe define an electronic\ncoin as a chain.\n \n") == [
        "2. Transactions",
        "We define an electronic coin as a chain.",
    ]
