"""Title-page misses read from the tune parts of the labelled sets (rules 25):

- a cover that sets its product's name in a logo ("CLIPS" over "Application Abstracts", "DIET"
  over "User's FAQ"): the metadata's title, the page's title and the logo's word, is taken when
  that word is printed in the pages after the cover, never from nowhere;
- a person's name right under a heading the rules set aside (a vignette's "1. Introduction to
  VariantAnnotation" over "Valerie Obenchain") is that heading's byline, not the title;
- a Japanese form's field label in lenticular brackets ("【提出書類】 有価証券報告書") is no part
  of the value after it;
- a name of two given names and two family names ("José Alberto López López", "Seiied Mohammad
  Javad Razavian") is one person: a row of four name words is two people side by side only where
  its third word is a given name somewhere (Faker's given-name lists); a longer row is read two
  by two unless a pair opens with a family name that is nobody's given name;
- an acronym set alone over the words it stands for ("AEOS" / "Agent Economic Operating System")
  is the title with them, whoever is named below (a false split of those words into two people
  had been what made it one);
- a nickname in quotes between a given and a family name ("Julien “_FrnchFrgg_” Rivaud") is no
  part of the name, and no reason to read none.
"""

from __future__ import annotations

from pathlib import Path

from tests.minimal_pdf import helvetica_page
from workbench.ingest.name_lists import row_names
from workbench.ingest.parse import parse_file
from workbench.ingest.pdf_metadata import _choose_title
from workbench.ingest.title_lines import strip_numbering
from workbench.ingest.title_page import TitlePage

_COVER = "Application Abstracts\nNovember 1st 1997"


def test_a_logos_word_printed_after_the_cover_completes_the_title() -> None:
    page = TitlePage(title="Application Abstracts", authors=(), distinct_size=True)
    later = "CLIPS is a productive development and delivery expert system tool."
    chosen = _choose_title("CLIPS Application Abstracts", page, _COVER, Path("x.pdf"), [later])
    assert chosen == ("CLIPS Application Abstracts", "page")


def test_a_metadata_word_printed_nowhere_stays_out() -> None:
    page = TitlePage(title="Application Abstracts", authors=(), distinct_size=True)
    later = "The tool is a productive development and delivery expert system."
    assert _choose_title("CLIPS Application Abstracts", page, _COVER, Path("x.pdf"), [later])[0] == page.title
    assert _choose_title("CLIPS Application Abstracts", page, _COVER, Path("x.pdf"))[0] == page.title


def _vignette(heading: str) -> bytes:
    rows = [(20, heading), (14, "Valerie Obenchain"), (12, "February 15, 2023"), (17, "Contents")]
    rows += [(10, "Variant call format files are read into a range summarized experiment, the")]
    rows += [(10, "genotype and info fields as matrices and data frames, lazily where they are large.")]
    return helvetica_page(
        " ".join(f"BT /F1 {size} Tf 72 {720 - 28 * i} Td ({text}) Tj ET" for i, (size, text) in enumerate(rows))
    )


def test_a_name_under_a_heading_set_aside_is_its_byline_not_the_title(tmp_path: Path) -> None:
    path = tmp_path / "VariantAnnotation.pdf"
    path.write_bytes(_vignette("1. Introduction to VariantAnnotation"))
    assert parse_file(path).title == "VariantAnnotation"  # no title on the page: the file's name


def test_the_name_under_a_title_is_still_its_author(tmp_path: Path) -> None:
    path = tmp_path / "x.pdf"
    path.write_bytes(_vignette("Annotating Genetic Variants"))
    parsed = parse_file(path)
    assert (parsed.title, parsed.authors[:1]) == ("Annotating Genetic Variants", ("Valerie Obenchain",))


def test_a_japanese_forms_bracketed_label_is_no_part_of_the_title() -> None:
    assert strip_numbering("【提出書類】 有価証券報告書") == "有価証券報告書"
    assert strip_numbering("有価証券報告書【訂正】") == "有価証券報告書【訂正】"  # a note after the title stays


def test_two_given_and_two_family_names_are_one_person() -> None:
    assert row_names("José Alberto López López") == ["José Alberto López López"]
    assert row_names("Maria Fernanda Souza Lima") == ["Maria Fernanda Souza Lima"]
    assert row_names("Seiied Mohammad Javad Razavian") == ["Seiied Mohammad Javad Razavian"]


def test_two_people_side_by_side_are_still_two() -> None:
    assert row_names("Mike Burrows Leslie Lamport") == ["Mike Burrows", "Leslie Lamport"]
    assert row_names("Simone Ferrari Luca Giammarino") == ["Simone Ferrari", "Luca Giammarino"]
    three = "Rob Sherwood Bobby Bhattacharjee Aravind Srinivasan"  # no one person's name has six words
    assert row_names(three) == ["Rob Sherwood", "Bobby Bhattacharjee", "Aravind Srinivasan"]


def test_a_quoted_nickname_leaves_the_name() -> None:
    assert row_names("Julien “_FrnchFrgg_” Rivaud†") == ["Julien Rivaud"]
    assert row_names('Robert "Bob" Smith and Jane Doe') == ["Robert Smith", "Jane Doe"]
    assert row_names("The “Best” Paper Ever") == []  # quotes in a title make no name


def _whitepaper(acronym: str, words: str) -> bytes:
    rows = [(26, acronym, 720), (14, words, 695), (12, "Technical Whitepaper v0.1.0", 650)]
    rows += [(11, "The infrastructure layer for software agents to act as economic entities", 610)]
    rows += [(10, "Protocol Specification, March 2026", 560)]
    return helvetica_page(" ".join(f"BT /F1 {size} Tf 200 {y} Td ({text}) Tj ET" for size, text, y in rows))


def test_an_acronym_over_what_it_stands_for_is_the_title(tmp_path: Path) -> None:
    path = tmp_path / "whitepaper.pdf"
    path.write_bytes(_whitepaper("AEOS", "Agent Economic Operating System"))
    assert parse_file(path).title == "AEOS: Agent Economic Operating System"


def test_a_lone_word_over_other_words_is_not(tmp_path: Path) -> None:
    path = tmp_path / "whitepaper.pdf"
    path.write_bytes(_whitepaper("ACME", "Agent Economic Operating System"))
    assert parse_file(path).title == "Agent Economic Operating System"
