"""A title page with its copyright notice, followed by a table of contents: the notices make it
look like a publisher's notice page, but the page after it holds no title, so it is the title
page (a manual's cover was skipped and its file named the document)."""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import assemble
from workbench.ingest.cover_pages import is_cover_sheet
from workbench.ingest.pdf import parse_pdf

COVER = [
    (22, "IAX2 Security"),
    (11, "Copyright \\251 2009 \\226 Digium, Inc."),
    (11, "All Rights Reserved."),
    (11, "Document Version 1.0"),
    (11, "Asterisk Development Team"),
]
CONTENTS = [(16, "Table of Contents")] + [
    (11, f"{n}. {name} . . . . . . . . . . . . . . . . . . . . . . {n + 2}")
    for n, name in enumerate(["Introduction", "User Guide", "Protocol Modification", "Implementation"], 1)
]


def _pdf(pages: list[list[tuple[int, str]]]) -> bytes:
    """Pages of Helvetica lines (WinAnsi, so "\\251" is ©), each line at its size, top-down."""
    contents = []
    for lines in pages:
        shown = " ".join(f"/F1 {size} Tf 0 -{size + 8} Td ({text}) Tj" for size, text in lines)
        contents.append(f"BT 72 740 Td {shown} ET")
    count = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for i, content in enumerate(contents):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {5 + 2 * i} 0 R >>"
        )
        objects.append(f"<< /Length {len(content)} >>\nstream\n{content}\nendstream")
    return assemble(objects)


def test_a_cover_with_its_copyright_before_a_table_of_contents_is_the_title_page(tmp_path: Path) -> None:
    path = tmp_path / "iax2-security.pdf"
    data = _pdf([COVER, CONTENTS])
    path.write_bytes(data)
    parsed = parse_pdf(path, data)
    assert parsed.title == "IAX2 Security"


def test_a_repositorys_sheet_before_a_working_paper_is_a_cover() -> None:
    sheet = (
        "econstor\nMake Your Publications Visible.\nA Service of\nBetts, Alexander\nWorking Paper\n"
        "Global migration governance\nSuggested Citation: Betts, Alexander (2008) : Global migration governance\n"
        "This Version is available at:\nhttp://hdl.handle.net/10419/196305"
    )
    paper = "Global Migration Governance\nAlexander Betts\nUniversity of Oxford\nAbstract\nThis paper asks ..."
    assert is_cover_sheet(sheet, paper)
    # words a paper's own pages print again are a footer, not a cover
    assert not is_cover_sheet("Suggested citation: Betts (2008)\n" + paper, "Suggested citation: Betts (2008)\n...")


def test_a_cover_phrase_in_the_papers_own_text_makes_no_cover() -> None:
    # A journal's first page: title, names, abstract, then a methods sentence with "deposited in".
    page = (
        "Journal of Medicine and Life Volume 7, Special Issue 3, 2014\n"
        "Thymus vulgaris essential oil: chemical composition and antimicrobial activity\n"
        "Borugă O*, Jianu C**, Mişcă C**\n"
        "Abstract\n"
        "The study was designed to determine the chemical composition of the essential oil.\n"
        "Voucher specimens were deposited in the herbarium of the university.\n"
    )
    assert not is_cover_sheet(page, "Results and Discussion\nThe essential oil was ...")
    # the same phrase on a repository's sheet, before any abstract, still makes one
    sheet = "This version is deposited in the university repository.\nTitle of the paper\nJane Smith\n"
    assert is_cover_sheet(sheet, "Title of the paper\nJane Smith\nAbstract\n...")


def test_a_publishers_sheet_of_proof_instructions_is_a_cover() -> None:
    # Frontiers' sheet before an author's proof (a held-out miss: its "Author's Proof" was the title)
    sheet = (
        "Author's Proof\nPlease check your proof carefully and mark all corrections in the appropriate\nplace.\n"
        "To ensure fast publication of your paper please return your corrections as soon\nas possible.\n"
    )
    paper = "Using Drosophila melanogaster as a model\nPablo Cingolani\nAbstract\nWe describe ..."
    assert is_cover_sheet(sheet, paper)
    # the paper's own request to its readers, after its abstract, makes none
    assert not is_cover_sheet(paper + "\nPlease check your proofs carefully.\n", "Introduction\n...")
