"""Author normalisation: one key per person across the spellings bibliographies use."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from workbench.text.authors import fold_accents, parse_author, repair_accents


def author_key(raw: str) -> str:
    """The graph's key for an author string ("" when it holds no name)."""
    parsed = parse_author(raw)
    return parsed.key if parsed else ""


def best_display(names: Iterable[str]) -> str:
    """The spelling the graph keeps for one author: the most complete (stores/graph.py)."""
    parsed = [p for p in (parse_author(n) for n in names) if p is not None]
    return max(parsed, key=lambda p: p.completeness).display


HINTON = ["Hinton, Geoffrey E.", "Geoffrey Hinton", "G. E. Hinton", "HINTON G", "Geoffrey E. Hinton", "Hinton GE"]


@pytest.mark.parametrize("name", HINTON)
def test_hinton_variants_share_one_key(name: str) -> None:
    assert author_key(name) == "hinton g"


def test_display_name_is_the_most_complete_variant() -> None:
    assert best_display(HINTON) == "Geoffrey E. Hinton"
    assert best_display(["HINTON G"]) == "G. Hinton"  # all capitals are title-cased
    assert best_display(["Hinton GE"]) == "G. E. Hinton"  # packed initials are spread out


@pytest.mark.parametrize(
    "names",
    [
        ["Łukasz Kaiser", "Lukasz Kaiser", "Kaiser, Ł.", "KAISER L"],
        ["Laurens van der Maaten", "van der Maaten, L.", "L. J. P. van der Maaten", "van der Maaten L"],
        ["Jean-Pierre Dupont", "J.-P. Dupont", "Dupont, Jean-Pierre", "DUPONT JP"],
        ["Alejandro Aranda-Díaz", "Aranda-Díaz A.", "Aranda-Diaz, A."],
        ["Klaus-Robert Müller", "M¨uller, K.- R.", "Muller KR"],
        ["Martin Luther King Jr.", "King, Martin Luther", "M. L. King"],
        ["Conan O'Brien", "O’Brien, C."],
    ],
)
def test_spellings_of_one_person_merge(names: list[str]) -> None:
    keys = {author_key(n) for n in names}
    assert len(keys) == 1, keys
    assert "" not in keys


def test_accents_folded_and_pdf_spacing_accents_repaired() -> None:
    assert fold_accents("Łukasz Müller Ørsted") == "Lukasz Muller Orsted"
    assert repair_accents("M¨uller Cs´anyi D´ıaz Jastrz˛ebski") == "Müller Csányi Díaz Jastrzębski"
    parsed = parse_author("M¨uller, K.- R.")
    assert parsed is not None and parsed.display == "K.-R. Müller"


def test_particles_stay_with_the_surname() -> None:
    assert author_key("Vincent van Gogh") == "vangogh v"
    assert author_key("van Gogh, Vincent") == "vangogh v"
    assert best_display(["van Gogh V", "Vincent van Gogh"]) == "Vincent van Gogh"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("OpenAI", "openai"),
        ("The ATLAS Collaboration", "the atlas collaboration"),
        ("World Health Organization", "world health organization"),
        ("Team Gemini", "team gemini"),
    ],
)
def test_institutional_names_are_kept_whole(raw: str, key: str) -> None:
    parsed = parse_author(raw)
    assert parsed is not None
    assert parsed.key == key
    assert parsed.display == raw


@pytest.mark.parametrize("raw", ["", "   ", "123", "*†‡", "()"])
def test_no_name_gives_none(raw: str) -> None:
    assert parse_author(raw) is None
    assert author_key(raw) == ""


def test_different_people_stay_apart() -> None:
    assert author_key("Geoffrey Hinton") != author_key("Geoffrey Irving")
    assert author_key("Yann LeCun") != author_key("Yoshua Bengio")
    assert author_key("Andrew D. White") != author_key("Andrew Ng")


@pytest.mark.parametrize(
    "raw", ["Robert'); DROP TABLE--", 'O"Neil \\ }{', "MATCH (n) DETACH DELETE n", "Zoë 🦀 Smith", "a\x00b c"]
)
def test_hostile_names_parse_without_error(raw: str) -> None:
    parsed = parse_author(raw)
    assert parsed is None or (parsed.key and "\x00" not in parsed.key)
