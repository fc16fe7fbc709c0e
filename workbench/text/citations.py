"""Identifiers and titles for matching references to papers: DOI and arXiv normalisation,
title similarity, and the citation matcher the graph store resolves CITES edges with.

Shared by ingest (which parses reference lists into `Reference`s) and the graph store (which
matches them to library papers), so it sits below both.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from workbench.text.authors import fold_accents

MIN_TITLE_CHARS = 12


@dataclass(frozen=True)
class Reference:
    """One entry of a reference list: identifiers when present, a title guess, the raw text."""

    doi: str | None
    arxiv: str | None
    title: str | None
    raw: str


_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:https?://)?(?:dx\.)?(?:doi\.org/|doi:\s*)", re.IGNORECASE)


def normalise_doi(doi: str | None) -> str | None:
    """A DOI in the form used for matching: lower case, no resolver prefix or trailing dot."""
    if not doi:
        return None
    if doi.startswith("10.") and "/" in doi and doi == doi.strip().rstrip(".,;").lower():
        return doi  # already in that form (the graph stores DOIs so): the expressions below would return it
    bare = _DOI_PREFIX.sub("", doi.strip()).strip().rstrip(".,;").lower()
    return bare if bare.startswith("10.") and "/" in bare else None


def normalise_arxiv(arxiv: str | None) -> str | None:
    """An arXiv id without version or prefix, lower case ("1706.03762", "hep-lat/0101001")."""
    if not arxiv:
        return None
    bare = re.sub(r"^(?:arxiv:|https?://arxiv\.org/(?:abs|pdf)/)", "", arxiv.strip(), flags=re.IGNORECASE)
    bare = re.sub(r"v\d+$", "", bare.removesuffix(".pdf")).lower()
    return bare or None


def arxiv_from_doi(doi: str | None) -> str | None:
    """The arXiv id inside an arXiv DOI ("10.48550/arXiv.1706.03762"), else None."""
    match = _ARXIV_DOI.match(normalise_doi(doi) or "")
    return normalise_arxiv(match.group(1)) if match else None


def normalise_title(title: str) -> str:
    """Title text for matching: accents folded, lower case, punctuation dropped, spaces single."""
    folded = fold_accents(unicodedata.normalize("NFKC", title)).lower()
    return " ".join(re.findall(r"[a-z0-9]+", folded))


@functools.lru_cache(maxsize=1 << 16)
def title_similarity(a: str, b: str) -> float:
    """How alike two normalised titles are: difflib's ratio on the strings, 0..1.

    Remembered for the last 65,536 pairs: the references citing one paper mostly give the
    same title guess, and difflib's full ratio is most of a citation pass.
    """
    if not a or not b:
        return 0.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < 0.9 or matcher.quick_ratio() < 0.9:
        return matcher.quick_ratio() * 0.99  # an upper bound below the threshold is all we need
    return matcher.ratio()


def reference_words(reference: Reference) -> str:
    """The distinct normalised words of a reference (raw text and title guess), space-padded: " a b c ".

    A reference is a candidate for a library title exactly when it holds one of the title's
    index words (see `CitationMatcher`), so `f" {word} " in reference_words(ref)` is that test.
    """
    words = set(normalise_title(reference.raw).split()) | set(normalise_title(reference.title or "").split())
    return f" {' '.join(sorted(words))} "


# --- Matching references to library papers --------------------------------------------------

TITLE_RATIO = 0.9
_CONTAINED_MIN_WORDS = 5
_CONTAINED_MIN_CHARS = 30


@dataclass(frozen=True)
class LibraryPaper:
    """What citation matching needs to know about one library paper."""

    doc_id: str
    doi: str | None
    arxiv: str | None
    title: str
    key: str | None = (
        None  # `normalise_title(title)` when already known: the graph stores it, DOI and arXiv id normalised
    )


def _rarity(frequency: Mapping[str, int]) -> Callable[[str], tuple[bool, int, str]]:
    """Sort key for a title's words: words before numbers, then fewer titles, then alphabetical."""
    return lambda word: (word.isdigit(), frequency.get(word, 0), word)


class CitationMatcher:
    """Matches references to library papers: exact DOI, exact arXiv id, then title.

    Title matching uses difflib's ratio ≥ 0.9 on normalised titles (robust to the odd typo,
    hyphenation or dropped word that token Jaccard punishes in short titles), and, when the
    title guess failed, a library title of at least five words found whole inside the
    reference text. Candidates come from an index on each title's two rarest words, so a
    reference costs a handful of comparisons however large the library: building is
    O(papers) and matching O(references x few candidates). Numbers come last among a title's
    words: a reference list is full of them (volumes, pages, its own numbering), so "10" in a
    title would make every reference holding a 10 a candidate.

    A reference is a candidate for a title when it holds one of that title's index words
    (`index_words`), so a sync that adds a title need only look again at the references
    holding its index words, and at those holding words that became another title's.
    """

    def __init__(self, papers: Sequence[LibraryPaper]) -> None:
        self._by_doi: dict[str, list[str]] = {}
        self._by_arxiv: dict[str, list[str]] = {}
        self._titles: dict[str, str] = {}
        self._by_title: dict[str, list[str]] = {}
        for paper in papers:
            if paper.key is None:
                doi = normalise_doi(paper.doi)
                arxiv = normalise_arxiv(paper.arxiv) or arxiv_from_doi(doi)
            else:  # from the graph, which stores them normalised (its arXiv id is the DOI's)
                doi, arxiv = paper.doi, paper.arxiv
            if doi:
                self._by_doi.setdefault(doi, []).append(paper.doc_id)
            if arxiv:
                self._by_arxiv.setdefault(arxiv, []).append(paper.doc_id)
            key = paper.key if paper.key is not None else normalise_title(paper.title)
            if len(key) >= MIN_TITLE_CHARS:
                self._titles[paper.doc_id] = key
                self._by_title.setdefault(key, []).append(paper.doc_id)
        self._words = {key: frozenset(key.split()) for key in self._by_title}
        self._frequency: dict[str, int] = {}  # word → distinct titles holding it
        for words in self._words.values():
            for word in words:
                self._frequency[word] = self._frequency.get(word, 0) + 1
        rarity = _rarity(self._frequency)
        self.index_words = {key: tuple(sorted(words, key=rarity)[:2]) for key, words in self._words.items()}
        self._rare: dict[str, list[str]] = {}  # rare title word → titles holding it
        for key, index in self.index_words.items():
            for word in index:
                self._rare.setdefault(word, []).append(key)

    def index_words_before(self, added: Collection[str], removed: Collection[str]) -> dict[str, tuple[str, ...]]:
        """The index words this library's titles had before `added` titles joined and `removed` ones left.

        Only titles whose index words can have moved are returned: those sharing a word with
        an added or removed title (the added titles themselves had none).
        """
        delta: dict[str, int] = {}
        for key, step in [*((k, -1) for k in added), *((k, 1) for k in removed)]:
            for word in set(key.split()):
                delta[word] = delta.get(word, 0) + step
        moved = {word for word, step in delta.items() if step}
        then = {word: self._frequency.get(word, 0) + step for word, step in delta.items()}
        rarity_now, rarity_then = _rarity(self._frequency), _rarity({**self._frequency, **then})
        fresh = set(added)
        before: dict[str, tuple[str, ...]] = {}
        for key, words in self._words.items():
            if key in fresh or len(words) <= 2 or moved.isdisjoint(words):
                continue  # a title of two words or fewer indexes them all, whatever their rarity
            index = self.index_words[key]
            last = rarity_now(index[-1])
            # Only a moved word in the index words, or one that ranked before the last of them, moves them.
            if any(word in index or rarity_then(word) < last for word in moved.intersection(words)):
                before[key] = tuple(sorted(words, key=rarity_then)[:2])
        return before

    def papers_titled(self, key: str) -> list[str]:
        """The library papers whose normalised title is `key`."""
        return list(self._by_title.get(key, ()))

    def match(self, reference: Reference) -> list[tuple[str, str]]:
        """(doc_id, via) for the library papers this reference cites; via is doi, arxiv or title."""
        doi = normalise_doi(reference.doi)
        if doi and doi in self._by_doi:
            return [(d, "doi") for d in self._by_doi[doi]]
        arxiv = normalise_arxiv(reference.arxiv) or arxiv_from_doi(doi)
        if arxiv and arxiv in self._by_arxiv:
            return [(d, "arxiv") for d in self._by_arxiv[arxiv]]
        key = self._title_match(reference)
        return [(d, "title") for d in self._by_title.get(key, [])] if key else []

    def _title_match(self, reference: Reference) -> str | None:
        guess = normalise_title(reference.title or "")
        if guess in self._by_title:
            return guess
        raw = normalise_title(reference.raw)
        words = set(raw.split()) | set(guess.split())
        candidates = {key for word in words for key in self._rare.get(word, ())}
        best: tuple[float, str] | None = None
        for key in sorted(candidates):  # in order, so equally good titles resolve the same way in every process
            if guess and abs(len(key) - len(guess)) <= 0.2 * max(len(key), len(guess)):
                ratio = title_similarity(guess, key)
                if ratio >= TITLE_RATIO and (best is None or ratio > best[0]):
                    best = (ratio, key)
        if best:
            return best[1]
        contained = [
            key
            for key in candidates
            if len(key) >= _CONTAINED_MIN_CHARS
            and len(key.split()) >= _CONTAINED_MIN_WORDS
            and f" {key} " in f" {raw} "
        ]
        return max(sorted(contained), key=len) if contained else None
