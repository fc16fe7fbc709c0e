"""The junk-author filter: producer fields and parsing debris are never authors."""

from __future__ import annotations

import pytest

from workbench.ingest.metadata import split_authors
from workbench.text.junk_authors import is_junk_author, junk_author_reason, real_authors


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("Administrator", "a placeholder account"),
        ("Microsoft Office User", "a placeholder account"),
        ("Valued Customer", "a placeholder account"),
        ("User 1", "a placeholder account"),
        ("IEEE", "software or publisher"),
        ("Adobe Acrobat 9.0", "software or publisher"),
        ("pdfTeX-1.40.21", "a user name"),
        ("singh", "a user name"),
        ("jdoe42", "a user name"),
        ("al.", "et al."),
        ("Smith et al.", "et al."),
        ("R.", "no name"),
        ("J. K.", "initials only"),
        ("editor@example.org", "an address"),
        ("Anonymous Submission", "a placeholder account"),  # a blind review's template
        ("Anonymous CVPR submission", "a placeholder account"),
    ],
)
def test_junk(raw: str, why: str) -> None:
    assert junk_author_reason(raw) == why


@pytest.mark.parametrize(
    "name",
    [
        "Satoshi Nakamoto",
        "C. A. R. Hoare",
        "Lamport, L.",
        "Andrew D White",
        "Wei Li",
        "Saunders Mac Lane",
        "Robbert van Renesse",
        "OpenAI",
        "The ATLAS Collaboration",
        "Per Martin-Löf",
    ],
)
def test_real_names_pass(name: str) -> None:
    assert not is_junk_author(name)


def test_real_authors_keeps_order_and_drops_junk_and_repeats() -> None:
    names = ["Administrator", "Ada Lovelace", "al.", "Alan Turing", "Ada Lovelace", "R."]
    assert real_authors(names) == ("Ada Lovelace", "Alan Turing")


def test_metadata_author_field_of_a_producer_gives_no_author() -> None:
    assert real_authors(split_authors("Administrator")) == ()
    assert real_authors(split_authors("Leslie Lamport; Administrator")) == ("Leslie Lamport",)


def test_a_citys_name_is_no_author() -> None:
    # a thesis cover prints its city at the foot: "Belo Horizonte", "São Paulo"
    for place in ("Belo Horizonte", "São Paulo", "Sao Paulo", "Porto Alegre", "Los Angeles"):
        assert junk_author_reason(place) == "a place", place
    # one-word cities may be family names, and people are no places
    for name in ("Florence", "Lincoln", "Maria Santos", "Fabiano C. Botelho", "Paulo Freire"):
        assert junk_author_reason(name) is None, name


def test_markup_debris_in_an_author_field_is_no_name_and_no_given_name() -> None:
    # hyperref wrote the doc package's character table after the author ("Axel Sommerfeldt, ` `%%%`#`…"),
    # and "Last, First" reading made the debris his given name
    debris = "` `%%%`#`&12_`__~~~Contents"
    assert junk_author_reason(debris) == "markup or symbols"
    assert real_authors(split_authors(f"Axel Sommerfeldt, {debris}")) == ("Axel Sommerfeldt",)
    assert real_authors(split_authors("Wolfgang Skala <>")) == ("Wolfgang Skala",)
    assert split_authors("(Wang Yin <wang-y01@mails.tsinghua.edu.cn>)") == ("Wang Yin",)
    assert split_authors("Lamport, Leslie") == ("Leslie Lamport",)


def test_a_quoted_nickname_is_no_part_of_the_name() -> None:
    assert split_authors("Julien ``_FrnchFrgg_'' Rivaud") == ("Julien Rivaud",)
    assert split_authors('Robert "Bob" Kahn and Vint Cerf') == ("Robert Kahn", "Vint Cerf")
