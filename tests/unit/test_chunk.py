"""Chunking: sizes, section boundaries, page spans and stable ids (word-count tokenizer)."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.ingest.chunk import chunk_sections
from workbench.records import Section


def words(texts: Sequence[str]) -> list[int]:
    return [len(t.split()) for t in texts]


def sentences(n: int, prefix: str) -> str:
    return " ".join(f"{prefix} sentence number {i} has exactly eight words." for i in range(n))


def test_chunks_respect_target_and_never_cross_sections() -> None:
    sections = [Section("introduction", sentences(40, "Intro"), 1, 1), Section("methods", sentences(5, "Method"), 2, 2)]
    chunks = chunk_sections("doc", sections, words, target_tokens=50, max_tokens=64, min_tokens=10)
    assert all(c.token_count <= 64 for c in chunks)
    assert {c.section for c in chunks} == {"introduction", "methods"}
    for chunk in chunks:
        assert ("Intro" in chunk.text) != ("Method" in chunk.text)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert sum(c.token_count for c in chunks) == 45 * 8


def test_page_breaks_give_exact_page_spans() -> None:
    text = sentences(6, "First") + "\f" + sentences(6, "Second") + "\f" + sentences(6, "Third")
    chunks = chunk_sections(
        "doc", [Section("results", text, 4, 6)], words, target_tokens=40, max_tokens=64, min_tokens=0
    )
    first_page = next(c for c in chunks if "First" in c.text)
    assert first_page.page_start == 4
    last = chunks[-1]
    assert last.page_end == 6
    spanning = next(c for c in chunks if "First" in c.text and "Second" in c.text)
    assert (spanning.page_start, spanning.page_end) == (4, 5)


def test_over_long_sentence_is_split_under_the_cap() -> None:
    long_sentence = " ".join(f"w{i}" for i in range(500))
    chunks = chunk_sections("doc", [Section("other", long_sentence)], words, target_tokens=100, max_tokens=120)
    assert len(chunks) >= 5
    assert all(c.token_count <= 120 for c in chunks)
    assert " ".join(c.text for c in chunks).split() == long_sentence.split()


def test_short_tail_merges_into_previous_chunk() -> None:
    text = sentences(5, "Body") + " Tail."
    chunks = chunk_sections("doc", [Section("other", text)], words, target_tokens=40, max_tokens=64, min_tokens=5)
    assert chunks[-1].text.endswith("Tail.")
    assert chunks[-1].token_count > 1


def test_ids_are_stable_and_depend_on_text() -> None:
    sections = [Section("abstract", sentences(3, "A"))]
    first = chunk_sections("doc", sections, words)
    again = chunk_sections("doc", sections, words)
    other_doc = chunk_sections("doc2", sections, words)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in again]
    assert first[0].chunk_id != other_doc[0].chunk_id


def test_empty_sections_give_no_chunks() -> None:
    assert chunk_sections("doc", [Section("other", "  \n\n \f ")], words) == []
