"""Every quote cited to its own page: page offsets from the chunker, and a sentence mapped to the page it begins on."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from workbench.formats.answers import evidence_line
from workbench.ingest.chunk import chunk_sections
from workbench.ingest.sections import split_sections
from workbench.ingest.source_lines import SourceLine
from workbench.query.critic.claims import split_sentences
from workbench.query.evidence import Candidate, as_evidence, pick
from workbench.query.quote_pages import index_note, unpaged, with_page_note
from workbench.records import Answer, Chunk, Evidence, Hit, Section
from workbench.text.pages import locate, page_at, page_label, page_offsets, quote_page


def words(texts: Sequence[str]) -> list[int]:
    return [len(t.split()) for t in texts]


def one_chunk(section: Section) -> Chunk:
    chunks = chunk_sections("doc", [section], words, target_tokens=500, max_tokens=600, min_tokens=0)
    assert len(chunks) == 1
    return chunks[0]


def page_of(chunk: Chunk, sentence: str) -> int | None:
    return quote_page(chunk.text, sentence, chunk.page_start, chunk.page_end, chunk.page_offsets)


# --- offsets ---------------------------------------------------------------------------------


def test_offsets_mark_where_each_page_begins_and_an_empty_page_gives_way_to_the_next() -> None:
    # pieces at offsets 0 and 30 on page 4, 55 on page 6: page 5 holds no text of this chunk
    assert page_offsets([(0, 4), (30, 4), (55, 6)], 4, 6) == (0, 55, 55)
    assert page_at(54, 4, 6, (0, 55, 55)) == 4
    assert page_at(55, 4, 6, (0, 55, 55)) == 6  # the empty page 5 is never cited
    assert page_at(0, 4, 6, (0, 55, 55)) == 4


def test_unknown_offsets_give_no_page_but_a_one_page_chunk_always_has_its_page() -> None:
    assert page_at(10, 4, 5, None) is None
    assert page_at(10, 4, 5, (0,)) is None  # offsets that do not cover the span are not trusted
    assert page_at(10, 7, 7, None) == 7
    assert quote_page("Alpha beta gamma.", "beta gamma", 7, 7, None) == 7


def test_chunk_on_one_page() -> None:
    chunk = one_chunk(Section("results", "The first result is large. The second result is small.", 3, 3))
    assert chunk.page_offsets == (0,)
    assert page_of(chunk, "The second result is small.") == 3


def test_sentence_straddling_a_page_break_is_cited_to_the_page_it_begins_on() -> None:
    text = (
        "Mining secures the chain. An attacker would have to redo the proof-of-work of the block\f"
        "and all blocks after it. Nodes accept the longest chain."
    )
    chunk = one_chunk(Section("methods", text, 3, 4))
    assert (chunk.page_start, chunk.page_end) == (3, 4)
    sentences = split_sentences(chunk.text)
    straddling = next(s for s in sentences if s.startswith("An attacker"))
    assert "all blocks after it" in straddling  # one sentence across the break
    assert page_of(chunk, straddling) == 3
    assert page_of(chunk, "Nodes accept the longest chain.") == 4
    assert page_of(chunk, "Mining secures the chain.") == 3


def test_a_word_hyphenated_at_the_page_break_stays_on_the_page_where_it_begins() -> None:
    lines = [
        SourceLine("Results", 2, "heading"),
        SourceLine("The measured through-", 2),
        SourceLine("put was high on every node we tried", 2),
        SourceLine("and the latency was low. The cluster had eight ma-", 2),
        SourceLine("chines in total. Each machine ran one server.", 3),
    ]
    [section] = split_sections(lines)
    assert (section.page_start, section.page_end) == (2, 3)
    chunk = one_chunk(section)
    assert "eight machines in total" in chunk.text  # the word is joined, on the page where it begins
    assert page_of(chunk, "The cluster had eight machines in total.") == 2
    assert page_of(chunk, "Each machine ran one server.") == 3
    break_at = chunk.page_offsets[1]
    assert chunk.text[break_at:].startswith("in total.")


def test_pages_skipped_inside_a_chunk_are_never_cited() -> None:
    text = "Text on page five is here.\f\fText on page seven is here."  # page 6: a figure, no text
    chunk = one_chunk(Section("results", text, 5, 7))
    assert len(chunk.page_offsets) == 3
    assert page_of(chunk, "Text on page seven is here.") == 7
    assert page_of(chunk, "Text on page five is here.") == 5


def test_a_quote_is_found_across_other_whitespace_and_when_cut_for_length() -> None:
    text = "One two three. Four  five\nsix seven eight nine ten."
    assert locate(text, "Four five six") == text.index("Four")
    assert locate(text, "Four five six seven …") == text.index("Four")
    assert locate(text, "Not in the text") is None
    assert quote_page(text, "Not in the text", 1, 2, (0, 20)) is None


def test_page_labels() -> None:
    assert page_label(4, 4, 5) == "p. 4"
    assert page_label(None, 4, 5) == "pp. 4–5"
    assert page_label(None, 6, 6) == "p. 6"


# --- evidence ----------------------------------------------------------------------------------


def hit_of(chunk: Chunk, offsets: tuple[int, ...] | None = None) -> Hit:
    return Hit(
        chunk.chunk_id, chunk.doc_id, "Paper", chunk.section, chunk.text, chunk.page_start, chunk.page_end, 1.0,
        "hybrid", page_offsets=chunk.page_offsets if offsets is None else offsets,
    )  # fmt: skip


def candidate(hit: Hit, sentence: str, score: float, previous: str = "") -> Candidate:
    vector = np.zeros(4, dtype=np.float32)
    vector[int(score * 3)] = 1.0
    # features[1] (coverage) 0 with a `previous` makes the quote the pair (see Candidate.quoted)
    return Candidate(hit, sentence, vector, (0.5, 0.0 if previous else 1.0), score, previous)


def spanning_chunk() -> Chunk:
    text = (
        "The first sentence sits on page four. The second one begins on page four\f"
        "and ends on five. The third sentence is on page five."
    )
    return one_chunk(Section("results", text, 4, 5))


def test_evidence_carries_the_page_of_its_sentence_and_the_citation_shows_it() -> None:
    chunk = spanning_chunk()
    hit = hit_of(chunk)
    third, second = "The third sentence is on page five.", "The second one begins on page four and ends on five."
    evidence = pick([candidate(hit, third, 0.9), candidate(hit, second, 0.4)], 2, 2, 0.0)
    by_sentence = {e.sentence: e for e in evidence}
    assert by_sentence[third].page == 5 and by_sentence[second].page == 4
    assert (by_sentence[third].page_start, by_sentence[third].page_end) == (4, 5)  # the passage's span is kept
    assert evidence_line(by_sentence[third]).endswith("results, p. 5")


def test_a_quoted_pair_is_cited_to_the_page_of_its_first_sentence() -> None:
    chunk = spanning_chunk()
    pair = candidate(hit_of(chunk), "The third sentence is on page five.", 0.9,
                     previous="The second one begins on page four and ends on five.")  # fmt: skip
    assert pair.quoted.startswith("The second one")
    assert as_evidence(pair, "1").page == 4


def test_without_offsets_a_quote_across_pages_cites_its_passage_and_the_answer_says_how_to_fix_it() -> None:
    chunk = spanning_chunk()
    evidence = as_evidence(candidate(hit_of(chunk, offsets=()), "The third sentence is on page five.", 0.9), "1")
    assert evidence.page is None
    assert evidence_line(evidence).endswith("results, pp. 4–5")
    one_page = Evidence("2", "c2", "d", "T", "results", 7, 7, "A sentence on one page only.", 0.5, page=7)
    answer = Answer("answered", "q", "question", "targeted", "text", evidence=(evidence, one_page))
    assert unpaged(answer.evidence) == [evidence]
    noted = with_page_note(answer)
    assert len(noted.warnings) == 1
    assert "[1]" in noted.warnings[0] and "[2]" not in noted.warnings[0]
    assert "workbench index --rebuild" in noted.warnings[0]
    assert with_page_note(Answer("answered", "q", "question", "targeted", "t", evidence=(one_page,))).warnings == ()


@pytest.mark.parametrize(("rows", "said"), [(0, False), (12, True)])
def test_the_index_note_names_the_rebuild_only_when_it_is_needed(rows: int, said: bool) -> None:
    note = index_note(rows)
    assert bool(note) == said
    if said:
        assert note.startswith("12 passages across pages") and "workbench index --rebuild" in note


def test_the_gold_page_check_compares_the_quote_page_and_the_old_passage_citation_with_the_label() -> None:
    from workbench.bench.answer_pages import gold_page
    from workbench.bench.question_sets import Question

    def pair(qid: str, label: int | None, span: tuple[int, int], page: int | None) -> tuple[Question, Evidence]:
        question = Question(qid, "q", "fit", ("doc",), page=label)
        return question, Evidence("1", "c", "d", "T", "results", span[0], span[1], "s", 0.5, page=page)

    report = gold_page([
        pair("a", 4, (4, 4), 4),  # one page: right before and after
        pair("b", 5, (4, 5), 5),  # across pages: "pp. 4–5" before, p. 5 now
        pair("c", 4, (4, 5), None),  # across pages in an index without offsets
        pair("d", 9, (6, 6), 6),  # another place that says the same: wrong both ways
        pair("e", None, (1, 1), 1),  # no label: not counted
    ])  # fmt: skip
    assert report["quotes"] == 4
    assert report["cited_page_is_labelled"] == 0.5 and report["passage_page_is_labelled"] == 0.25
    assert report["passage_span_contains_label"] == 0.75 and report["page_unknown"] == 0.25
    assert report["wrong_page"] == ["c", "d"]
