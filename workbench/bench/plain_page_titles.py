"""Real titles set on a plain page: which ones the title-page rules still read as titles.

The line classes of `ingest.title_page` (banners, notices, sentences, form fields, dates) judge a
line by its words; a class drawn too wide throws away titles that happen to read like it
("Draft genome sequence of …", "p53 mutation in breast cancer. Correlation with …"). Labelled
PDFs are few; published titles are many. This benchmark sets each title of the SciFact corpus
(5,183 biomedical papers, titles as their databases give them) on one plain page: a journal's
citation line above, the title in 16-point rows wrapped at 60 characters, a line of names and
ten-point body text below; and counts the titles the rules give back (the same overlap as
`bench metadata`). The layout is constant, so a miss is the title's words, never its layout.
Split into a tune and a held-out part as the labelled sets are (a hash of the title).

Some corpus titles are not titles ("Summary", "Table of Contents", a journal's running line):
they stay in the count, so the shares cannot reach 1.0; the misses are listed.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from workbench.bench.metadata_labels import MetadataLabel, split_of
from workbench.ingest.pdf_layout import LayoutLine, PageLayout
from workbench.ingest.title_page import read_title_page

_BODY = (
    "We study the problem in general and give an algorithm whose running time is linear in the",
    "size of the input; experiments on real data confirm the analysis and show that it scales.",
)
_LISTED_MISSES = 40


def plain_page(title: str) -> PageLayout:
    """A page that prints `title` where a paper's title goes, and nothing that competes with it."""
    rows = [_row("Journal of Things 12 (2003) 1-10", 9.0, 760.0)]
    top = 700.0
    for part in textwrap.wrap(title, 60, break_on_hyphens=False):
        rows.append(_row(part, 16.0, top))
        top -= 19.0
    rows.append(_row("Ada Lovelace and Alan Turing", 11.0, top - 12.0))
    rows += [_row(text, 10.0, 420.0 - 12 * i) for i, text in enumerate(_BODY * 6)]
    return PageLayout(tuple(rows), 612.0, 792.0)


def _row(text: str, size: float, top: float) -> LayoutLine:
    return LayoutLine(text, text, size, top, top - size, 72.0, 72.0 + 0.5 * size * len(text))


def bench_plain_page_titles(corpus: Path) -> dict[str, Any]:
    """Per part, how many of the corpus's titles a plain page gives back; the tune part's misses."""
    from workbench.bench.metadata import TITLE_OVERLAP, title_overlap

    counts = {"tune": [0, 0], "held_out": [0, 0]}
    misses: list[dict[str, str]] = []
    with corpus.open(encoding="utf-8") as lines:
        titles = [str(json.loads(line).get("title") or "") for line in lines if line.strip()]
    for title in (t for t in titles if t.strip()):
        part = split_of(MetadataLabel("", title, None, None, True))
        got = read_title_page(plain_page(title)).title
        right = title_overlap(title, got) >= TITLE_OVERLAP
        counts[part][0] += right
        counts[part][1] += 1
        if not right:
            misses.append({"part": part, "title": title, "got": got})
    return {
        "corpus": str(corpus),
        **{part: {"right": r, "of": n, "share": round(r / n, 4) if n else None} for part, (r, n) in counts.items()},
        "misses": misses[:_LISTED_MISSES],
    }
