"""Whether a PDF's first page is a repository's or publisher's cover sheet, not the paper.

ResearchGate, eScholarship, HAL, JSTOR, DSpace, bepress and EconStor put a sheet of their own
before the paper (its title page follows), and offprints a page of notices; `is_cover_sheet`
tells them from the paper's own title page. A line that names such a repository is never a
title either (`COVER`).
"""

from __future__ import annotations

import re

from workbench.ingest.title_lines import is_notice_page, paper_start

COVER = re.compile(
    r"see discussions, stats, and author profiles|researchgate\.net/publication|escholarship\.org|"
    r"escholarship,? university of california|this paper is included in the proceedings|"
    r"open access to the proceedings|hal is a multi-disciplinary open access|archive ouverte "
    r"pluridisciplinaire|your use of the jstor archive|jstor is a not-for-profit|dspace@|"
    r"citation as published|terms of use for this article|persistent link:|this article was "
    r"downloaded by|digital commons|scholarworks|brought to you by|powered by bepress|"
    r"the mit faculty has made this article openly available|(this|the) (document|file) "
    r"(is|was) downloaded from|deposited in|take down policy|share your story|"
    # a repository's sheet before a working paper: "Suggested Citation: …", "This Version is available at: …"
    r"make your publications visible|suggested citation:|this version is available at|provided in cooperation with|"
    # an agency's notice before a document it withdrew or replaced: "The attached publication has been
    # withdrawn (archived) … superseded by …"
    r"the attached (?:publication|document|report|paper)s? (?:has|have) been|(?:has|have) been superseded by|"
    # a publisher's sheet of instructions before an author's proof: "Please check your proof carefully …"
    r"check your proofs? carefully|return your corrections|author quer(?:y|ies) form",
    re.IGNORECASE,
)


def is_cover_sheet(text: str, following: str = "") -> bool:
    """Whether a page is a repository's or publisher's cover sheet rather than the paper: one
    that names its repository or publisher (`names_repository`), or a short page of notices (an
    offprint's terms of use). The parser asks the two apart, since a page of notices that sets
    its title in display type is the title page after all (`pdf._cover`)."""
    return names_repository(text, following) or is_notice_page(text)


def names_repository(text: str, following: str = "") -> bool:
    """Whether a page names the repository or publisher that put it before the paper ("Brought to
    you by", "See discussions, stats, and author profiles"), unless the same words recur on the
    next page (a footer stamped on every page, not a cover). Words after the paper's own
    abstract or introduction are its text, not a cover's ("the strains were deposited in
    GenBank")."""
    start = paper_start(text)
    flat = " ".join(text[:start].split())
    marker = COVER.search(flat)
    return marker is not None and marker.group(0).lower() not in " ".join(following.split()).lower()
