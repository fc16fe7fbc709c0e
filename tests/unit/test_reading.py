"""`workbench.library.reading`: which passages a read returns (pages, section, size) and the arguments it refuses."""

from __future__ import annotations

import pytest

from workbench.errors import UsageError
from workbench.library.reading import check_read_request, document_text
from workbench.records import CatalogDocument

ROW = CatalogDocument("file:1/p.pdf", title="A paper", authors=("Ada Lovelace",), year=1843, item_type="pdf",
                      source="folder", abstract="We compute numbers.")  # fmt: skip
CHUNKS = [
    {"chunk_id": "a", "section": "abstract", "page_start": 1, "page_end": 1, "text": "We compute numbers."},
    {"chunk_id": "b", "section": "methods", "page_start": 1, "page_end": 2, "text": "The engine weaves."},
    {"chunk_id": "c", "section": "methods", "page_start": 3, "page_end": 3, "text": "Cards hold the program."},
    {"chunk_id": "d", "section": "results", "page_start": 4, "page_end": 5, "text": "Bernoulli numbers follow."},
]


def test_a_page_range_keeps_the_passages_that_overlap_it() -> None:
    text = document_text(ROW, CHUNKS, page_from=2, page_to=4)
    assert [p.chunk_id for p in text.passages] == ["b", "c", "d"]
    assert text.pages == (1, 5) and text.sections == ("abstract", "methods", "results")
    assert not text.truncated and text.authors == ("Ada Lovelace",)


def test_a_section_and_an_open_range() -> None:
    assert [p.chunk_id for p in document_text(ROW, CHUNKS, section="methods").passages] == ["b", "c"]
    assert [p.chunk_id for p in document_text(ROW, CHUNKS, page_from=3).passages] == ["c", "d"]
    assert [p.chunk_id for p in document_text(ROW, CHUNKS, page_to=1).passages] == ["a", "b"]


def test_whole_passages_up_to_the_size_and_the_first_one_cut() -> None:
    text = document_text(ROW, CHUNKS, max_chars=40)
    assert [p.text for p in text.passages] == ["We compute numbers.", "The engine weaves."] and text.truncated
    cut = document_text(ROW, CHUNKS, max_chars=5)
    assert [p.text for p in cut.passages] == ["We co"] and cut.truncated


def test_a_paper_without_text_has_no_pages() -> None:
    text = document_text(ROW, [])
    assert text.passages == () and text.pages is None and text.abstract == "We compute numbers."


@pytest.mark.parametrize(
    ("page_from", "page_to", "section", "max_chars", "message"),
    [
        (0, None, None, 10, "page_from must be at least 1, got 0"),
        (None, -2, None, 10, "page_to must be at least 1, got -2"),
        (3, 2, None, 10, "page_to (2) is before page_from (3)"),
        (None, None, "appendix", 10, "unknown section 'appendix'"),
        (None, None, None, 0, "max_chars must be between 1 and 200000, got 0"),
    ],
)
def test_bad_requests_are_one_line_usage_errors(
    page_from: int | None, page_to: int | None, section: str | None, max_chars: int, message: str
) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_read_request(page_from, page_to, section, max_chars)
