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


def test_a_short_piece_before_a_long_sentence_is_no_chunk_of_its_own() -> None:
    # a line carried over a page break ("...parameters, the system matrix is:") before a sentence
    # nearly a chunk long had been a chunk of three words, and won every query on its paper's title
    long_sentence = " ".join(f"w{i}" for i in range(50)) + "."
    text = sentences(5, "Body") + "\fCarried over line:\n\n" + long_sentence + " " + sentences(5, "After")
    chunks = chunk_sections("doc", [Section("other", text)], words, target_tokens=40, max_tokens=64, min_tokens=10)
    assert all(c.token_count >= 10 for c in chunks)
    assert all(c.token_count <= 64 for c in chunks)
    carried = next(c for c in chunks if "Carried" in c.text)
    assert "w49." in carried.text
    assert " ".join(c.text for c in chunks).split() == text.split()


def test_a_short_piece_between_two_long_ones_joins_the_chunk_before_it() -> None:
    first = " ".join(f"A{i}" for i in range(38)) + "."
    second = " ".join(f"B{i}" for i in range(62)) + "."
    text = f"{first} Short bit here. {second}"
    chunks = chunk_sections("doc", [Section("other", text)], words, target_tokens=40, max_tokens=64, min_tokens=10)
    assert [c.token_count for c in chunks] == [41, 62]
    assert chunks[0].text.endswith("Short bit here.")


def test_ids_are_stable_and_depend_on_text() -> None:
    sections = [Section("abstract", sentences(3, "A"))]
    first = chunk_sections("doc", sections, words)
    again = chunk_sections("doc", sections, words)
    other_doc = chunk_sections("doc2", sections, words)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in again]
    assert first[0].chunk_id != other_doc[0].chunk_id


def test_empty_sections_give_no_chunks() -> None:
    assert chunk_sections("doc", [Section("other", "  \n\n \f ")], words) == []


def characters(texts: Sequence[str]) -> list[int]:
    """One token per non-space character, as WordPiece counts Chinese."""
    return [sum(1 for ch in t if not ch.isspace()) for t in texts]


def test_chinese_full_stops_end_sentences_so_chunks_stay_under_the_cap() -> None:
    sentence = "轮腿式机器人是一个非线性欠驱动强耦合的多变量系统。"  # 25 characters, no space anywhere
    page = sentence * 40  # 1,000 characters: one unsplittable "sentence" before
    chunks = chunk_sections("doc", [Section("other", page)], characters, target_tokens=100, max_tokens=120)
    assert len(chunks) >= 8
    assert all(c.token_count <= 120 for c in chunks)
    assert all(c.text.endswith("。") for c in chunks)  # cut between sentences, not inside one
    assert "".join(c.text.replace(" ", "") for c in chunks) == page


def test_text_without_spaces_or_full_stops_is_split_on_characters_under_the_cap() -> None:
    run = "基于机器视觉的手写数字识别与目标追踪技术研究" * 30  # 660 characters, nothing to split on
    chunks = chunk_sections("doc", [Section("other", run)], characters, target_tokens=100, max_tokens=120)
    assert all(c.token_count <= 120 for c in chunks)
    assert "".join(c.text.replace(" ", "") for c in chunks) == run


def test_a_sentence_of_unmapped_glyphs_gives_no_chunk() -> None:
    text = "\U00100021\U0010002b\n\n\uf0e7\uf0f7 \uf0e8 ."
    assert chunk_sections("doc", [Section("other", text)], words) == []
    kept = chunk_sections("doc", [Section("other", "if p\ue085q the attacker loses.\n\n" + text)], words)
    assert [c.text for c in kept] == ["if p\ue085q the attacker loses."]  # a glyph inside prose stays


def test_a_heading_keeps_its_paragraph_break_and_no_sentence_begins_with_it() -> None:
    # The sentence under a numbered heading was quoted as "2 How and Why Paxos Works Replicas and
    # Slots In order to tolerate f crashes, ..." because the chunk joined every piece with a space.
    text = (
        "Paxos is a protocol for state machine replication.\n\n2 How and Why Paxos Works\n\n"
        "In order to tolerate f crashes, Paxos needs at least f + 1 replicas.\f"
        "A line broken off a sentence\n\nby a figure goes on here."
    )
    (chunk,) = chunk_sections("doc", [Section("methods", text, 1, 2)], words, min_tokens=0)
    assert "Works\n\nIn order to tolerate" in chunk.text
    # and the sentence before it does not end with it ("… replication. 2 How and Why Paxos Works")
    assert "replication.\n\n2 How and Why" in chunk.text
    assert "sentence by a figure" in chunk.text  # a lower-case word after the break: one sentence
    second_page = chunk.text.index("A line broken")
    assert chunk.page_offsets == (0, second_page)


def test_a_heading_numbered_with_a_dot_is_one_piece_between_paragraph_breaks() -> None:
    # the sentence splitter cut "3." off "Timestamp Server", so the paragraph break before it was lost
    text = (
        "The payee needs proof that the majority of nodes agreed it was the first received.\n\n"
        "3. Timestamp Server\n\nThe solution we propose begins with a timestamp server. See A. Back (2002)."
    )
    (chunk,) = chunk_sections("doc", [Section("methods", text, 2, 2)], words, min_tokens=0)
    assert "first received.\n\n3. Timestamp Server\n\nThe solution we propose" in chunk.text
    assert chunk.text.endswith("timestamp server. See A. Back (2002).")
