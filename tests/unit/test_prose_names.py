"""Names that are the document's own words ("Tool Installation") are no authors; people are."""

from __future__ import annotations

from workbench.ingest.name_lists import is_name_list
from workbench.ingest.prose_names import is_distinct_name_word, is_prose_name, prose_words, without_prose_names

_GUIDE = [
    "Patent Application Guide\nPeter J. Pupalaikis\nTool Installation\n",
    "Before you begin, read the tool installation notes: the tool installation takes a minute and "
    "needs a working copy of the program. Questions go to peter dot pupalaikis at example dot com.",
]


def test_prose_words_are_lower_case_words_between_lower_case_words() -> None:
    words = prose_words(_GUIDE)
    assert {"tool", "installation", "working"} <= words
    assert "before" not in words  # capitalised where it stands
    assert "peter" not in words and "pupalaikis" not in words  # an e-mail spelled out is no prose


def test_a_heading_read_as_a_name_is_dropped_and_the_person_kept() -> None:
    assert without_prose_names(("Peter J. Pupalaikis", "Tool Installation"), _GUIDE) == ("Peter J. Pupalaikis",)


def test_a_name_of_one_word_besides_initials_is_kept_whatever_prose_says() -> None:
    prose = frozenset({"long", "green", "young"})
    assert not is_prose_name("J. Long", prose)
    assert not is_prose_name("A.-B. Green", prose)
    assert is_prose_name("Tool Installation", frozenset({"tool", "installation"}))


def test_a_word_that_is_somebodys_name_is_never_an_ordinary_word() -> None:
    prose = frozenset({"grace", "young", "long", "mark", "hill"})
    assert not is_prose_name("Grace Young", prose)
    assert not is_prose_name("Mark Hill", prose)


def test_frequent_english_words_are_no_name_even_where_prose_never_uses_them() -> None:
    """An audit report's subtitle and a talk's kind under a title: every word frequent in English,
    none anybody's name, so no page's prose is needed to tell them from people."""
    for phrase in ("Application Penetration Test", "Invited Talk", "Computing Service Unit", "Rio de Janeiro"):
        assert is_prose_name(phrase, frozenset()), phrase
    for person in ("Tsung-Wei Huang", "Tom Ritter", "Wajdi Feghali", "Sunny King"):
        assert not is_prose_name(person, frozenset()), person


def test_a_word_in_capitals_beside_others_is_a_name_in_its_own_style() -> None:
    assert not is_prose_name("KC Border", frozenset())  # initials without their stops
    assert not is_prose_name("Say OL", frozenset())  # a family name set in capitals
    assert is_prose_name("OPEN SOURCE", frozenset())


def test_a_program_in_capitals_before_english_words_is_no_name() -> None:
    # SPASS's manual: "SPASS Input Syntax" over "Version 3.3" at the same size had been read as
    # a person's name beside a larger row, and the page lost its title
    assert is_prose_name("SPASS Input Syntax", frozenset())
    assert not is_name_list("SPASS Input Syntax")
    assert is_name_list("Jean DUPONT") and is_name_list("Martin Suda & Christoph Weidenbach")


def test_a_hyphenated_given_name_is_one_persons_name() -> None:
    assert is_distinct_name_word("Jean-Pierre") and is_distinct_name_word("Hans-Peter")
    assert not is_distinct_name_word("Self-Study") and not is_distinct_name_word("Jean-Theorem")


def test_group_authors_are_kept() -> None:
    prose = frozenset({"zoo", "development", "team", "the", "atlas", "collaboration"})
    assert not is_prose_name("zoo Development Team", prose)
    assert not is_prose_name("The ATLAS Collaboration", prose)
    assert not is_prose_name("The ATLAS and CMS Collaborations", prose)
    assert not is_prose_name("American Mathematical Society", frozenset())


def test_people_whose_names_prose_never_uses_are_kept() -> None:
    pages = ["A Study\nMaria Garcia Lopez\n", "we asked maria about it, and lopez said no to the plan"]
    assert without_prose_names(("Maria Garcia Lopez",), pages) == ("Maria Garcia Lopez",)  # "garcia" is no prose word


def test_a_long_name_of_mostly_ordinary_words_is_no_name_even_with_a_name_word() -> None:
    # a title in capitals, read as one name of five words: "Deutsch" is a name, the rest is not
    assert is_prose_name("Modular Deutsch Entropic Uncertainty Principle", frozenset())
    for name in ("Maria Fernanda Silva Santos", "Juan Carlos de la Cruz", "Grace Young Hill Brown"):
        assert not is_prose_name(name, frozenset()), name
    # a community is a group author, however ordinary its words
    assert not is_prose_name("Japanese TeX Development Community", frozenset())
