"""EPUB books and Word documents: text, headings and metadata as their producers write them (the
fixtures are pandoc 2.17's EPUB 3 and DOCX of `tests/data/formats/*.md`, and a DOCX python-docx 1.2
wrote on Word's default template); a book under DRM, a broken package and an archive that would
unpack past the limits are one-line errors."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from workbench.ingest import zip_formats
from workbench.ingest.parse import SUPPORTED_SUFFIXES, parse_file, parser_for
from workbench.ingest.parse_error import ParseError

FORMATS = Path(__file__).parent.parent / "data" / "formats"
EPUB, DOCX, ODT = FORMATS / "paper.epub", FORMATS / "note.docx", FORMATS / "note.odt"


def _rewritten(source: Path, target: Path, changes: dict[str, bytes | None]) -> Path:
    """A copy of a zip package with members replaced, added, or (None) left out."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename not in changes:
                new.writestr(info, old.read(info))
        for name, data in changes.items():
            if data is not None:
                new.writestr(name, data)
    return target


def test_an_epub_is_read_in_reading_order_with_its_package_metadata() -> None:
    book = parse_file(EPUB)
    assert book.kind == "epub" and book.has_text
    assert book.title == "Proof of Work and the Double-Spending Problem"
    assert book.authors == ("Ada Lovelace", "Alan Turing") and book.year == 2021
    assert [s.name for s in book.sections] == ["other", "abstract", "introduction", "methods", "results", "conclusion"]
    assert book.abstract.startswith("We ask how proof of work prevents double spending.")
    text = "\n".join(s.text for s in book.sections)
    assert (
        text.index("trusted third parties") < text.index("catches up from z blocks") < text.index("longest chain holds")
    )
    assert "Table of Contents" not in text  # the navigation document is no chapter


def test_a_word_document_is_read_with_its_headings_title_and_creator() -> None:
    note = parse_file(DOCX)
    assert note.kind == "docx" and note.has_text
    assert note.title == "Fin Regeneration in Zebrafish: A Laboratory Note"  # Word's Title style
    assert note.authors == ("Kenneth Poss",)
    assert note.year is None  # Word's own dates are the file's, not the work's
    assert [s.name for s in note.sections] == ["other", "introduction"]  # "Background" opens the body
    text = "\n".join(s.text for s in note.sections)
    assert "Procedure\n\nAdult fish were anaesthetised" in text  # a heading of Word's stays a paragraph of its own
    assert "measured from the amputation plane" in text


def test_a_document_on_words_own_template_reads_the_same() -> None:
    # python-docx's template is Word's default: Word's own Title and Heading styles, a table
    paper = parse_file(FORMATS / "hopper.docx")
    assert (paper.title, paper.authors) == ("Compilers for Business Data Processing", ("Grace Hopper",))
    assert [s.name for s in paper.sections] == ["other", "abstract", "introduction", "results"]
    assert paper.abstract.startswith("We describe a compiler that translates English-like statements")
    assert "ADD A TO B" in paper.sections[2].text  # a table's cells are text


def test_an_opendocument_text_is_read_with_its_notes_and_without_its_comments(tmp_path: Path) -> None:
    note = parse_file(ODT)
    assert (note.kind, note.title, note.authors, note.year) == (
        "odt",
        "Fin Regeneration in Zebrafish: A Laboratory Note",
        ("Kenneth Poss",),
        None,
    )
    assert [s.name for s in note.sections] == ["other", "introduction"]
    with zipfile.ZipFile(ODT) as package:
        content = package.read("content.xml").decode()
    first = "After amputation, blastema cells proliferate"
    marked = content.replace(
        first,
        'After<text:s text:c="3"/>amputation,<text:note text:note-class="footnote">'
        "<text:note-citation>1</text:note-citation>"
        "<text:note-body><text:p>Fish were kept at 28 degrees.</text:p></text:note-body></text:note> blastema"
        "<office:annotation><dc:creator>Reviewer</dc:creator><text:p>Cite the source here.</text:p></office:annotation>"
        " cells proliferate",
    )
    assert marked != content
    edited = parse_file(_rewritten(ODT, tmp_path / "edited.odt", {"content.xml": marked.encode()}))
    text = "\n".join(s.text for s in edited.sections)
    assert "After amputation, blastema cells proliferate" in text  # spaces as written, the note's mark left out
    assert text.index("blastema cells proliferate") < text.index("Fish were kept at 28 degrees.")
    assert "Cite the source" not in text and "Reviewer" not in text
    locked = b'<manifest:manifest><manifest:encryption-data manifest:checksum="x"/></manifest:manifest>'
    with pytest.raises(ParseError, match=r"^a password-protected OpenDocument text: its text cannot be read$"):
        parse_file(_rewritten(ODT, tmp_path / "locked.odt", {"META-INF/manifest.xml": locked}))


def test_a_word_processors_account_name_is_nobodys_name(tmp_path: Path) -> None:
    with zipfile.ZipFile(DOCX) as package:
        core = package.read("docProps/core.xml").replace(b"Kenneth Poss", b"Microsoft Office User")
    assert parse_file(_rewritten(DOCX, tmp_path / "account.docx", {"docProps/core.xml": core})).authors == ()


def test_both_formats_are_known_by_suffix_and_by_the_type_zotero_records() -> None:
    assert {".epub", ".docx", ".odt"} <= SUPPORTED_SUFFIXES
    assert parser_for(Path("x"), "application/vnd.oasis.opendocument.text") is zip_formats.parse_odt
    assert parser_for(Path("fulltext"), "application/epub+zip") is zip_formats.parse_epub
    word = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert parser_for(Path("download"), word) is zip_formats.parse_docx


def test_a_book_under_drm_says_so_and_obfuscated_fonts_do_not_count(tmp_path: Path) -> None:
    def encryption(algorithm: str, uri: str) -> bytes:
        return (
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            f'<enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
            f'<enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>'
        ).encode()

    aes = encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "EPUB/text/ch002.xhtml")
    locked = _rewritten(EPUB, tmp_path / "locked.epub", {"META-INF/encryption.xml": aes})
    with pytest.raises(ParseError, match=r"^an encrypted EPUB \(DRM\): 1 of 6 chapters cannot be read$"):
        parse_file(locked)
    fonts = encryption("http://www.idpf.org/2008/embedding", "EPUB/fonts/serif.otf")
    assert parse_file(_rewritten(EPUB, tmp_path / "fonts.epub", {"META-INF/encryption.xml": fonts})).has_text


@pytest.mark.parametrize(
    ("name", "changes", "message"),
    [
        ("nocontainer.epub", {"META-INF/container.xml": None}, "not a valid EPUB: no META-INF/container.xml"),
        ("gone.epub", {"EPUB/text/ch003.xhtml": None}, "a broken package: EPUB/text/ch003.xhtml is listed but"),
        ("badxml.epub", {"EPUB/content.opf": b"<package><metadata>"}, "EPUB/content.opf is not well-formed XML"),
        ("nobody.docx", {"word/document.xml": None}, "not a valid Word document: Could not find main document part"),
    ],
)
def test_a_broken_package_is_one_line(
    tmp_path: Path, name: str, changes: dict[str, bytes | None], message: str
) -> None:
    source = EPUB if name.endswith(".epub") else DOCX
    with pytest.raises(ParseError) as caught:
        parse_file(_rewritten(source, tmp_path / name, changes))
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_not_a_zip_and_an_oversized_part_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fake.epub").write_bytes(b"PK\x03\x04 this is no archive")
    with pytest.raises(ParseError, match=r"^not a valid EPUB: not a zip archive"):
        parse_file(tmp_path / "fake.epub")
    monkeypatch.setattr(zip_formats, "MAX_MEMBER_BYTES", 500)  # a chapter that unpacks past the limit
    with pytest.raises(ParseError, match=r"unpacks to 0 MiB, more than is read of one part$"):
        parse_file(EPUB)
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as empty:
        empty.writestr("mimetype", "application/epub+zip")
    (tmp_path / "empty.epub").write_bytes(data.getvalue())
    with pytest.raises(ParseError, match=r"^not a valid EPUB: no META-INF/container.xml$"):
        parse_file(tmp_path / "empty.epub")
