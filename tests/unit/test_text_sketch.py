"""Text sketches: the same text under another download stamp matches, another paper does not,
in every script; too little text, and the sections that are not a file's text, are never judged."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from workbench.ingest.text_sketch import (
    SAME_TEXT,
    SKETCH_VERSION,
    SketchIndex,
    StoredSketches,
    resemblance,
    same_text_pairs,
    sketch_of_chunks,
    text_sketch,
)
from workbench.records import Chunk, Document
from workbench.stores.catalog import Catalog

_SENTENCE = "the model of proof of work makes an attack costly as honest nodes extend the longest chain"
_LATIN = tuple(_SENTENCE.split())
_HAN = "工作量证明机制使攻击者难以改写历史记录诚实节点总是延伸最长的链条从而防止双重支付问题"


def _paper(words: tuple[str, ...], seed: int, pages: int = 12, per_page: int = 120, stamp: str = "") -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join(rng.choice(words) for _ in range(per_page)) + (f"\n{stamp}" if stamp else "") for _ in range(pages)
    ]


def _han_paper(seed: int, stamp: str = "") -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_HAN) for _ in range(300)) + stamp for _ in range(10)]


def _sketch(pages: list[str]) -> bytes:
    sketch = text_sketch(pages)
    assert sketch is not None
    return sketch


def test_a_download_stamp_on_every_page_is_the_same_text_and_another_paper_is_not() -> None:
    first = _sketch(_paper(_LATIN, 1, stamp="Downloaded at UKA AACHEN on May 27, 2020"))
    again = _sketch(_paper(_LATIN, 1, stamp="Downloaded at UKA AACHEN on May 29, 2020"))
    other = _sketch(_paper(_LATIN, 2, stamp="Downloaded at UKA AACHEN on May 27, 2020"))
    assert resemblance(first, again) >= SAME_TEXT
    assert resemblance(first, other) < 0.2


def test_han_text_is_shingled_by_character() -> None:
    # Chinese has no spaces: were a run of characters one word, a stamp would make every page differ
    first, again = _sketch(_han_paper(7, "下载于2020年5月27日")), _sketch(_han_paper(7, "下载于2020年5月29日"))
    other = _sketch(_han_paper(8))
    assert resemblance(first, again) >= SAME_TEXT
    assert resemblance(first, other) < 0.2


def test_case_width_and_line_breaks_do_not_matter() -> None:
    pages = _paper(_LATIN, 3)
    folded = [p.upper().replace(" ", "\n") for p in pages]
    assert resemblance(_sketch(pages), _sketch(folded)) == 1.0


def test_too_little_text_is_never_a_copy() -> None:
    assert text_sketch(["Bitcoin: A Peer-to-Peer Electronic Cash System. Satoshi Nakamoto."]) is None
    assert text_sketch([]) is None


def test_notes_annotations_and_abstracts_are_not_the_files_text() -> None:
    # two chapters of one book share the book's abstract (a Zotero item's metadata) and nothing else
    blurb = " ".join(_paper(_LATIN, 9, pages=2))

    def chunks(body: list[str]) -> list[Chunk]:
        sections = [("abstract", blurb), ("note", blurb), ("annotation", blurb)] + [("body", p) for p in body]
        return [Chunk(f"c{i}", "d", name, i, text, 1, 1, 10) for i, (name, text) in enumerate(sections)]

    one, two = sketch_of_chunks(chunks(_paper(_LATIN, 4))), sketch_of_chunks(chunks(_paper(_LATIN, 5)))
    assert one is not None and two is not None
    assert resemblance(one, two) < 0.2
    assert sketch_of_chunks(chunks([])) is None  # an item with an abstract and notes only


def test_the_index_finds_the_copy_never_the_document_itself() -> None:
    papers = {f"d{n}": _sketch(_paper(_LATIN, n)) for n in range(20)}
    index = SketchIndex.of(papers)
    copy = _sketch(_paper(_LATIN, 7, stamp="saved again"))
    found = index.match(copy, other_than="new")
    assert found is not None and found.doc_id == "d7" and found.resemblance >= SAME_TEXT
    assert index.match(papers["d7"], other_than="d7") is None  # a document re-indexed is not its own copy
    index.rename("d7", "d7-moved")
    moved = index.match(copy, other_than="new")
    assert moved is not None and moved.doc_id == "d7-moved"
    index.remove("d7-moved")
    assert index.match(copy, other_than="new") is None
    assert len(index) == 19


def test_the_index_grows_and_replaces_a_documents_sketch() -> None:
    index = SketchIndex()
    for n in range(150):  # past the first allocation of rows
        index.add(f"d{n}", _sketch(_paper(_LATIN, 100 + n, pages=2)))
    old = _sketch(_paper(_LATIN, 100 + 140, pages=2))
    index.add("d140", _sketch(_paper(_LATIN, 999, pages=2)))  # the document's file changed
    assert len(index) == 150
    assert index.match(old, other_than="new") is None
    found = index.match(_sketch(_paper(_LATIN, 100 + 3, pages=2)), other_than="new")
    assert found is not None and found.doc_id == "d3"


def test_a_latin_word_run_into_han_characters_is_its_own_word() -> None:
    # "Hough变换" is the word Hough and two characters: a copy that spaces it otherwise is the same text
    pages = [page.replace("链", "Hough") for page in _han_paper(11)]
    spaced = [page.replace("链", " Hough ") for page in _han_paper(11)]
    assert resemblance(_sketch(pages), _sketch(spaced)) == 1.0


def test_every_pair_at_the_threshold_is_found_among_many() -> None:
    rng = np.random.default_rng(5)
    sketches = {f"d{n}": rng.integers(0, 2**32, 128, dtype=np.uint32).astype("<u4").tobytes() for n in range(2000)}
    for n in range(40):  # copies that differ in 12 of 128 values (0.906), wherever those fall
        values = np.frombuffer(sketches[f"d{n}"], dtype="<u4").copy()
        values[rng.choice(128, 12, replace=False)] += 1
        sketches[f"copy{n}"] = values.tobytes()
    pairs = same_text_pairs(sketches)
    assert sorted((p.first, p.second) for p in pairs) == sorted((f"copy{n}", f"d{n}") for n in range(40))
    assert {p.resemblance for p in pairs} == {0.906}


def test_sketches_of_other_rules_are_never_compared_and_are_made_again(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.duckdb")
    catalog.migrate()
    with catalog.write() as con:
        documents = [(Document(doc_id, doc_id, "folder"), 3) for doc_id in ("a", "b", "c")]
        Catalog.upsert(con, documents, [])
    old, current = _sketch(_paper(_LATIN, 21)), _sketch(_paper(_LATIN, 22))
    catalog.set_sketches([("a", old)], SKETCH_VERSION - 1)  # made by earlier rules
    catalog.set_sketches([("b", current), ("c", None)], SKETCH_VERSION)  # c: too little text to judge
    assert catalog.text_sketches(SKETCH_VERSION) == {"b": current}
    assert catalog.unsketched_documents(SKETCH_VERSION) == ["a"]


def test_a_ranking_folds_each_copy_into_the_first_of_its_text_above_it() -> None:
    papers = {f"d{n}": _sketch(_paper(_LATIN, 30 + n)) for n in range(6)}
    papers["d1-again"] = _sketch(_paper(_LATIN, 31, stamp="saved again"))
    papers["d1-third"] = _sketch(_paper(_LATIN, 31, stamp="saved a third time"))
    index = SketchIndex.of(papers)
    ranked = ["d3", "d1-again", "d0", "d1", "unknown", "d1-third", "d5"]
    assert index.twins(ranked) == {"d1": "d1-again", "d1-third": "d1-again"}
    assert index.twins(["d1", "d2"]) == {}
    assert index.twins(["d1-third", "d1-third"]) == {}  # a document twice in a ranking is no copy of itself
    assert {m.doc_id for m in index.matches("d1")} == {"d1-again", "d1-third"}
    assert all(m.resemblance >= SAME_TEXT for m in index.matches("d1"))
    assert index.matches("d2") == [] and index.matches("unknown") == []


def test_sketches_keyed_on_another_state_are_read_again_on_its_change_or_a_reset(tmp_path: Path) -> None:
    # the engine keys them on the chunk table's version: an answer's ledger line changes the catalog's
    # files, and must not make the next search read every sketch again
    catalog = Catalog(tmp_path / "catalog.duckdb")
    assert StoredSketches(catalog, lambda: 0).twins(["a", "b"]) == {}  # no catalog yet
    catalog.migrate()
    with catalog.write() as con:
        Catalog.upsert(con, [(Document(d, d, "zotero"), 3) for d in ("a", "b")], [])
    catalog.set_sketches([("a", _sketch(_paper(_LATIN, 51)))], SKETCH_VERSION)
    version = [1]
    stored = StoredSketches(catalog, lambda: version[0])
    assert stored.twins(["a", "b"]) == {}
    catalog.set_sketches([("b", _sketch(_paper(_LATIN, 51)))], SKETCH_VERSION)
    assert stored.twins(["a", "b"]) == {}  # the catalog changed, the state did not: nothing read
    version[0] = 2
    assert stored.twins(["a", "b"]) == {"b": "a"}
    assert [m.doc_id for m in stored.matches("a")] == ["b"] and stored.matches("c") == []
    catalog.set_sketches([("b", _sketch(_paper(_LATIN, 52)))], SKETCH_VERSION)
    stored.reset()  # this process wrote documents
    assert stored.twins(["a", "b"]) == {}
