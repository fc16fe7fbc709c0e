"""The learned title ranker: its fitting, the shipped weights, and a layout the rules alone got wrong."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tests.unit.test_title_page import PWL, needs_pwl
from workbench.bench.metadata import LabelledSet
from workbench.bench.metadata_labels import load_labels
from workbench.bench.title_ranker_fit import fit_title_ranker
from workbench.errors import UsageError
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page, title_candidates
from workbench.ingest.title_ranker import FEATURES, RankedPage, TitleRanker, fit_ranker, shipped_ranker


def _line(text: str, size: float, top: float, left: float, bold: bool = False) -> LayoutLine:
    return LayoutLine(text, text, size, top, top - size, left, left + 0.5 * size * len(text), bold)


def _thesis_cover() -> PageLayout:
    """A French thesis cover (yathesis's specimen, held out): the thesis's notice in the upper
    third, the title set twice as large and bold below the middle of the page."""
    lines = [
        _line("Université de Paris 13", 17.2, 688, 210, bold=True),
        _line("École doctorale ED Régionale SPI 72", 12.0, 656, 199),
        _line("Thèse présentée par Alphonse Allais", 14.3, 602, 177),
        _line("Soutenue le 1er janvier 2022", 14.3, 577, 209),
        _line("Discipline Mathématiques", 14.3, 523, 212),
        _line("Le chaos du rire", 24.8, 415, 208, bold=True),
        _line("Thèse dirigée par Michel de Montaigne directeur", 10.9, 327, 57, bold=True),
    ]
    body = "Rapporteurs René Descartes professeur à l’IHP et Denis Diderot directeur de recherche au CNRS"
    lines += [_line(body, 10.9, 237 - 14 * i, 63) for i in range(8)]
    return PageLayout(tuple(lines), 595.3, 841.9)


def test_the_shipped_ranker_matches_this_versions_features_and_was_fitted_on_tune_parts() -> None:
    ranker = shipped_ranker()
    assert ranker is not None
    assert ranker.features == FEATURES and len(ranker.weights) == len(FEATURES)
    assert "tune parts" in ranker.note
    data = json.loads(resources.files("workbench").joinpath("assets", "titles", "ranker.json").read_text())
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="refit"):
        TitleRanker.from_dict(data)


def test_a_title_set_large_below_a_notice_in_the_upper_third_is_the_title() -> None:
    """The rules ranked any block in the upper third above a larger one lower down (a figure's
    label is set large further down), unless the lower one is set half as large again, as this
    cover's title is (24.8 points under a notice at 14.3); the ranker, which weighs size and
    position together, chose it before the rules did, and agrees with them."""
    layout = _thesis_cover()
    candidates = title_candidates(layout)
    rules_first = candidates[0]
    assert rules_first.features[FEATURES.index("rules_choice")] == 1.0
    assert rules_first.title == "Le chaos du rire"
    assert read_title_page(layout).title == "Le chaos du rire"
    notice = next(c for c in candidates if c.title.startswith("Thèse présentée par"))
    ranker = shipped_ranker()
    assert ranker is not None and ranker.scores([rules_first.features])[0] > ranker.scores([notice.features])[0]


def test_fitting_learns_which_features_mark_the_title() -> None:
    """Pages where the right candidate is the bold one, at whatever place it stands: the fitted
    ranker chooses the bold candidate on a new page, and a page with no right candidate is left out."""
    rng = np.random.default_rng(7)
    pages = []
    for _ in range(40):
        vectors = rng.normal(size=(4, len(FEATURES)))
        bold = int(rng.integers(4))
        vectors[:, FEATURES.index("bold")] = 0.0
        vectors[bold, FEATURES.index("bold")] = 1.0
        pages.append(RankedPage(vectors, np.arange(4) == bold))
    pages.append(RankedPage(rng.normal(size=(3, len(FEATURES))), np.zeros(3, dtype=bool)))
    ranker = fit_ranker(pages, l2=1.0)
    assert max(range(len(FEATURES)), key=lambda i: abs(ranker.weights[i])) == FEATURES.index("bold")
    fresh = rng.normal(size=(5, len(FEATURES)))
    fresh[:, FEATURES.index("bold")] = 0.0
    fresh[3, FEATURES.index("bold")] = 1.0
    assert ranker.choose(fresh.tolist()) == 3


@needs_pwl
def test_fit_reports_both_parts_on_real_pdfs_without_writing() -> None:
    labels = load_labels(PWL / "labels.json")[:24]
    shipped = shipped_ranker()
    report = fit_title_ranker([LabelledSet("pwl", PWL, labels, "pwl")], write=False)
    assert shipped_ranker() is shipped  # nothing written, nothing reloaded
    assert report["asset"] is None and report["fitted_on"] == "tune parts only"
    choice = report["block_choice"]["pwl"]
    assert choice["tune"]["pages"] + choice["held_out"]["pages"] >= 20
    for part in ("tune", "held_out"):
        assert choice[part]["ranker"] <= choice[part]["reachable"] <= choice[part]["pages"]
        assert choice[part]["ranker"] >= choice[part]["reachable"] - 1
    assert set(report["weights"]) == set(FEATURES)


def test_fit_with_no_readable_labelled_page_is_one_clear_error(tmp_path: Path) -> None:
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"missing.pdf": {"title": "A Title", "first_author": "Doe", "year": 2020}}))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    sets = [LabelledSet("empty", tmp_path, load_labels(labels), str(labels))]
    with pytest.raises(UsageError, match="nothing to fit"):
        fit_title_ranker(sets, write=False)
