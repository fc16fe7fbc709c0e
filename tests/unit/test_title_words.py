"""Titles whose words look like another line class: published titles (from the tune part of the
SciFact corpus, and the shapes of research titles) set on a plain page must come back whole.

A title may begin with a word that begins banners ("Draft genome sequence …"), begin in lower
case with a gene's, package's, file's or function's name ("p53 mutation …", "β1 integrin …",
"gitver -- …", "svm() internals …"), hold one full stop (journals that
title in two sentences), run past 30 words, or wrap so that a row starts with a year; a row of
its own that reads like a form's field ("… in the United States: 1999-2010.") stays in it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.bench.plain_page_titles import bench_plain_page_titles, plain_page
from workbench.ingest.title_lines import reads_as_prose
from workbench.ingest.title_page import read_title_page


@pytest.mark.parametrize(
    "title",
    [
        "p53 mutation in breast cancer. Correlation with cell kinetics and cell of origin.",
        "c-Src and cooperating partners in human cancer.",
        "β1 integrin mediates an alternative survival pathway in breast cancer cells resistant to lapatinib",
        "mir-1-mediated paracrine effect of cancer-associated fibroblasts on lung cancer cell proliferation",
        "Hepatitis B and C in HIV-infected patients. Prevalence and prognostic value.",
        "Greater clinical benefit of more intensive oral antiplatelet therapy with prasugrel in patients with "
        "diabetes mellitus in the trial to assess improvement in therapeutic outcomes by optimizing platelet "
        "inhibition with prasugrel-Thrombolysis in Myocardial Infarction 38.",
        "Trends in sugar-sweetened beverage consumption among youth and adults in the United States: 1999-2010.",
        "Global prevalence of childhood underweight in the developing world, estimates in 1990 and 2015",
        # a package's, file's or function's name first; "school…" is no school; a title about titles
        "The schooldocs package",
        "gitver -- Git version tags for LaTeX projects",
        "glossaries-extra.sty v1.50: an extension to the glossaries package",
        "svm() internals Some technical notes about the svm() in package e1071",
        "Title of the Paper",
    ],
)
def test_a_published_title_on_a_plain_page_comes_back_whole(title: str) -> None:
    assert read_title_page(plain_page(title)).title == title.rstrip(".")


def test_prose_is_still_prose_at_the_body_size() -> None:
    two = "p53 mutation in breast cancer. Correlation with cell kinetics and cell of origin."
    assert reads_as_prose(two) and not reads_as_prose(two, display=True)
    three = "We measured the rate. The results were clear. They hold in every case we tried."
    assert reads_as_prose(three, display=True)  # a title holds one full stop at most
    assert reads_as_prose("the method we propose runs in linear time on every input we tried")
    assert not reads_as_prose("β-catenin-independent WNT signaling in basal-like breast cancer and brain metastasis")


def test_the_plain_page_benchmark_counts_each_part(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    titles = ["Draft genome sequence of Pseudomonas putida KT2440", "Summary", "Volume rendering with neural fields"]
    corpus.write_text("".join(json.dumps({"title": t}) + "\n" for t in titles), encoding="utf-8")
    report = bench_plain_page_titles(corpus)
    assert report["tune"]["of"] + report["held_out"]["of"] == 3
    assert report["tune"]["right"] + report["held_out"]["right"] == 2  # "Summary" is a heading, not a title
    assert [m["title"] for m in report["misses"]] == ["Summary"]
