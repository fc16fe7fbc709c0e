"""Authors from a page that restates the title above them: a publisher's citation sheet.

Some papers name their authors nowhere near the title: a 1970s Science report signs at the end
of its text, which runs on into the next article's columns. The PDFs publishers and
repositories deliver often add a page of their own that says it plainly, the title with the
authors' names under it ("Cyclic Adenosine Monophosphate and Norepinephrine: …" then
"J. M. Godfraind, R. Pumain, … and F. E. Bloom", then the DOI): Science's "Article tools"
sheet at the end, or a repository's cover before the paper. When the title page names nobody,
the first and last pages are searched for such a restatement: lines that hold every word of the
title and little else, with a row of names right under them. A running head that repeats the
title on every page is no restatement.
"""

from __future__ import annotations

import re
from collections import Counter

from workbench.ingest.name_lists import row_names
from workbench.ingest.source_lines import clean_text
from workbench.text.authors import fold_accents
from workbench.text.junk_authors import real_authors

_PAGES = 2  # pages searched at each end of the document, the title page aside
_HEAD_PAGES = 10  # pages at each end read for running heads (a book is not read whole)
_LINES = 3  # a restated title wraps over at most this many lines
_LEAST_WORDS = 4  # a shorter title restated is too likely a heading or a phrase
_WORD = re.compile(r"\w+")


def restated_authors(page_texts: list[str], title: str, title_page: int) -> tuple[str, ...]:
    """The names under the first restatement of `title` on the first or last pages, or ()."""
    wanted = _words(title)
    if len(wanted) < _LEAST_WORDS:
        return ()
    count = len(page_texts)
    pages = sorted({*range(min(_PAGES, count)), *range(max(0, count - _PAGES), count)} - {title_page})
    near = sorted({*range(min(_HEAD_PAGES, count)), *range(max(0, count - _HEAD_PAGES), count)})
    texts = {i: [line.strip() for line in clean_text(page_texts[i]).splitlines() if line.strip()] for i in near}
    seen = Counter(line for lines in texts.values() for line in set(lines))
    for index in pages:
        lines = texts[index]
        for position in range(1, len(lines)):
            above = [
                lines[start:position]
                for start in range(max(0, position - _LINES), position)
                if all(seen[line] == 1 for line in lines[start:position])  # a running head is no restatement
            ]
            if any(_restates(wanted, _words(" ".join(block))) for block in above):
                names = real_authors(row_names(lines[position]))
                if names:
                    return tuple(names)
    return ()


def _restates(wanted: list[str], found: list[str]) -> bool:
    """Whether lines hold every word of the title and not many more (its journal, a wrap)."""
    if not found or len(found) > len(wanted) + 6:
        return False
    return sum((Counter(wanted) & Counter(found)).values()) == len(wanted)


def _words(text: str) -> list[str]:
    return _WORD.findall(fold_accents(text).lower())
