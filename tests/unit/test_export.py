"""BibTeX entries and Markdown notes from catalog records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from workbench.formats.export import (
    bibtex,
    bibtex_entry,
    bibtex_escape,
    citekey_for,
    export_name,
    generated_citekey,
    markdown_note,
    short_reference,
    write_export,
)
from workbench.library.triage import TriageRecord
from workbench.records import Answer, CatalogDocument, Citation, Verdict

PAPER = CatalogDocument(
    doc_id="zotero:1:ABCD1234",
    title="The Bitcoin Whitepaper: A Peer-to-Peer Electronic Cash System",
    authors=("Nakamoto, Satoshi", "Doe, Jane", "Roe, Richard"),
    year=2008,
    venue="Cryptography Mailing List",
    doi="10.1000/xyz_1",
    item_type="journalArticle",
    tags=("crypto",),
    collections=("Reading",),
    citekey=None,
    source="zotero",
    abstract="A purely peer-to-peer version of electronic cash.",
)


def test_generated_and_own_citekeys() -> None:
    assert generated_citekey(PAPER) == "nakamoto2008bitcoin"
    darwin = CatalogDocument("file:1/darwin.pdf", title="On the Origin of Species", authors=("Charles Darwin",))
    assert generated_citekey(darwin) == "darwinndorigin"
    assert generated_citekey(CatalogDocument("d", authors=("Émile Brontë",), year=1999)) == "bronte1999untitled"
    assert citekey_for(replace(PAPER, citekey="satoshi08")) == "satoshi08"
    assert citekey_for(replace(PAPER, citekey="bad key")) == "nakamoto2008bitcoin"


def test_entry_types_fields_and_escaping() -> None:
    entry = bibtex_entry(PAPER)
    assert entry.startswith("@article{nakamoto2008bitcoin,\n")
    assert "  author = {Nakamoto, Satoshi and Doe, Jane and Roe, Richard}" in entry
    assert "  journal = {Cryptography Mailing List}" in entry
    assert "  doi = {10.1000/xyz\\_1}" in entry
    assert entry.rstrip().endswith("}")
    assert bibtex_entry(replace(PAPER, item_type="conferencePaper")).startswith("@inproceedings{")
    assert "booktitle = {" in bibtex_entry(replace(PAPER, item_type="conferencePaper"))
    assert bibtex_entry(replace(PAPER, item_type="book")).startswith("@book{")
    assert "school = {" in bibtex_entry(replace(PAPER, item_type="thesis"))
    assert bibtex_entry(replace(PAPER, item_type="thesis")).startswith("@phdthesis{")
    assert bibtex_entry(replace(PAPER, item_type="document")).startswith("@misc{")
    assert bibtex_entry(replace(PAPER, item_type="")).startswith("@misc{")
    assert bibtex_escape("50% of {R&D} costs $5 #1 a_b ~ ^ \\") == (
        r"50\% of \{R\&D\} costs \$5 \#1 a\_b \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    escaped = bibtex_entry(replace(PAPER, title="Braces {unbalanced and 100%"))
    assert escaped.count("{") - escaped.count("\\{") == escaped.count("}") - escaped.count("\\}")


def test_several_entries_get_unique_keys() -> None:
    text = bibtex([PAPER, PAPER, replace(PAPER, citekey="other")])
    assert "@article{nakamoto2008bitcoin," in text
    assert "@article{nakamoto2008bitcoina," in text
    assert "@article{other," in text


def test_markdown_note_with_summary_answer_and_triage() -> None:
    citation = Citation("1", "c1", PAPER.doc_id, PAPER.title, "results", 3, 4, "text")
    summary = Answer(
        status="answered",
        query="",
        intent="summarize",
        depth="comprehensive",
        text="",
        citations=(citation,),
        verdict=Verdict("APPROVE", 0.9, ("every claim cites a source",)),
        aspects={"research_question": "Can cash be P2P? [1]", "findings": "Yes [1]."},
    )
    answer = Answer("answered", "Why proof of work?", "question", "targeted", "To order events [1].", (citation,))
    triage = TriageRecord(PAPER.doc_id, "reading", 2, True, ("todo",), "Compare with Hashcash.")
    note = markdown_note(PAPER, summary=summary, answer=answer, triage=triage)
    assert note.startswith("# The Bitcoin Whitepaper")
    assert "- **Citekey:** @nakamoto2008bitcoin" in note
    assert "- **Triage:** reading · priority 2 · starred · labels: todo" in note
    assert "### Research question\n\nCan cash be P2P? [1]" in note
    assert "### Methodology" not in note
    assert "**Critic:** APPROVE (score 0.90)" in note and "- every claim cites a source" in note
    assert "> **Q:** Why proof of work?" in note
    assert "- [1] The Bitcoin Whitepaper: A Peer-to-Peer Electronic Cash System — results, pp. 3–4" in note
    assert note.rstrip().endswith("## Note\n\nCompare with Hashcash.")


def test_short_reference_and_files(tmp_path: Path) -> None:
    assert short_reference(PAPER).startswith("Nakamoto et al. (2008). The Bitcoin Whitepaper")
    assert short_reference(CatalogDocument("x", title="X", authors=("A B", "C D"))) == "B & D (n.d.). X."
    assert export_name([PAPER], "bib") == "nakamoto2008bitcoin.bib"
    assert export_name([PAPER, PAPER], "bib") == "papers-2.bib"
    first = write_export("one", tmp_path / "out", "a.bib")
    second = write_export("two", tmp_path / "out", "a.bib")
    assert first.name == "a.bib" and second.name == "a-2.bib"
    assert second.read_text(encoding="utf-8") == "two"
