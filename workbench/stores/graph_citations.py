"""CITES edges of the knowledge graph: references matched to library papers, in full or for one sync.

Each paper's parsed references are Ref nodes hanging off it (HAS_REF), each holding its
normalised words; a reference that gives a DOI or an arXiv id also points at an Ident node
for it (NAMES), and a reference matched to library papers points at them (MATCHES, with how:
doi, arxiv or title). A paper CITES the papers its references match (the best way, per pair).

`resolve_citations` matches every reference against the library (see `CitationMatcher`):
after a rebuild, a large batch or a sync cut short. `update_citations` gives the same edges
after a small change by matching again only the references whose answer can have changed:

* the changed papers' own references;
* those that matched a changed or removed paper, or a paper sharing a changed paper's title
  (their match may go, or gain a twin);
* those naming a changed paper's DOI or arXiv id (Ident nodes);
* those holding a word that has just become some title's index word: a new title's rarest
  words, or another title's when the rarities moved (a reference is a candidate for a title
  exactly when it holds one of the title's index words; a column scan of the references'
  words finds them);
* those that matched a title whose index words changed (they may lose it).

Then the CITES edges of the papers holding those references are rebuilt from their MATCHES.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.stores.graph_db import in_batches
from workbench.stores.graph_similar import SimilarPapers
from workbench.text.citations import (
    MIN_TITLE_CHARS,
    CitationMatcher,
    LibraryPaper,
    Reference,
    arxiv_from_doi,
    normalise_arxiv,
    normalise_doi,
    normalise_title,
)

_RANK = {"doi": 0, "arxiv": 1, "title": 2}
_REF = "r.id, r.paper, r.doi, r.arxiv, r.title, r.raw"
_WORDS_PER_SCAN = 64  # index words looked for in one column scan


@dataclass(frozen=True)
class CitationReport:
    """What a citation pass found: references matched, those resolved, CITES edges written and by match kind.

    `full` says whether every reference of the library was matched (False: only those a sync
    could have changed, and `edges`/`by_via` count the edges of their papers).
    """

    references: int
    resolved: int
    edges: int
    by_via: dict[str, int]
    full: bool = True


@dataclass
class _Found:
    """References read for a citation update: id → (citing paper, reference), what each matches now, those chosen."""

    refs: dict[str, tuple[str, Reference]]
    held: dict[str, set[tuple[str, str]]]
    chosen: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class CitationSnapshot:
    """What `update_citations` needs from before a sync wrote anything (`CitationLinks.snapshot`)."""

    papers: list[LibraryPaper]
    changing: frozenset[str]  # the papers the sync writes or removes
    matched: dict[str, str]  # references that matched one of them: ref id → its paper


def ident_keys(doi: str | None, arxiv: str | None) -> list[str]:
    """The Ident keys of a reference or a paper: `doi:<normalised DOI>`, `arxiv:<id>` (an arXiv DOI gives both).

    Normalised as `CitationMatcher` normalises them, so a reference and the paper it matches
    by identifier share a key.
    """
    bare_doi = normalise_doi(doi)
    bare_arxiv = normalise_arxiv(arxiv) or arxiv_from_doi(bare_doi)
    return [key for key in (f"doi:{bare_doi}" if bare_doi else "", f"arxiv:{bare_arxiv}" if bare_arxiv else "") if key]


def _reference(row: Sequence[Any]) -> tuple[str, str, Reference]:
    """(ref id, citing paper, Reference) from a row of `_REF`."""
    ref_id, paper, doi, arxiv, title, raw = row
    return str(ref_id), str(paper), Reference(doi, arxiv, title, str(raw or ""))


class CitationLinks(SimilarPapers):
    """CITES and MATCHES edges from Ref nodes (a mixin of `GraphStore`, which writes the Ref nodes)."""

    def citations_pending(self) -> bool:
        """True when papers were written since the last citation pass (call `resolve_citations` then)."""
        return self._meta("citations_pending") == "1"

    def citation_edges(self, limit: int = 25) -> list[list[object]]:
        """Some CITES edges as [citing doc id, via, cited doc id, cited title] (for the benchmark's report)."""
        return self.rows(
            f"MATCH (a:Paper)-[c:CITES]->(b:Paper) RETURN a.doc_id, c.via, b.doc_id, b.title LIMIT {int(limit)}"
        )

    def library_papers(self) -> list[LibraryPaper]:
        """What citation matching needs of every paper (identifiers and normalised title; no other property)."""
        rows = self.rows("MATCH (p:Paper) RETURN p.doc_id, p.doi, p.arxiv, p.title, p.title_key")
        return [LibraryPaper(str(d), doi, arxiv, str(title or ""), key) for d, doi, arxiv, title, key in rows]

    def snapshot(self, doc_ids: Iterable[str]) -> CitationSnapshot:
        """Before a sync writes or removes `doc_ids`: every paper's matching keys, and the references matching these."""
        changing = frozenset(doc_ids)
        return CitationSnapshot(self.library_papers(), changing, self._matching(changing))

    def _papers(self, doc_ids: Iterable[str]) -> list[LibraryPaper]:
        """What citation matching needs of these papers (those still in the graph)."""
        found: list[LibraryPaper] = []
        for batch in in_batches(sorted(set(doc_ids))):
            rows = self.rows(
                "MATCH (p:Paper) WHERE p.doc_id IN $ids RETURN p.doc_id, p.doi, p.arxiv, p.title, p.title_key",
                {"ids": list(batch)},
            )
            found.extend(LibraryPaper(str(d), doi, arxiv, str(title or ""), key) for d, doi, arxiv, title, key in rows)
        return found

    def _matching(self, doc_ids: Iterable[str]) -> dict[str, str]:
        """The references matched to any of these papers: ref id → citing paper."""
        found: dict[str, str] = {}
        for batch in in_batches(sorted(set(doc_ids))):
            rows = self.rows(
                "MATCH (r:Ref)-[:MATCHES]->(b:Paper) WHERE b.doc_id IN $ids RETURN DISTINCT r.id, r.paper",
                {"ids": list(batch)},
            )
            found.update((str(r), str(p)) for r, p in rows)
        return found

    def _gather(self, found: _Found, match: str, parameters: dict[str, Any], chosen: bool = True) -> None:
        """Add the references `match` binds to r, with what each matches now, to `found` (`chosen`: all of them)."""
        rows = self.rows(
            f"{match} WITH DISTINCT r OPTIONAL MATCH (r)-[m:MATCHES]->(b:Paper) RETURN {_REF}, b.doc_id, m.via",
            parameters,
        )
        for row in rows:
            ref_id, paper, ref = _reference(row[:6])
            found.refs[ref_id] = (paper, ref)
            held = found.held.setdefault(ref_id, set())
            if row[6] is not None:
                held.add((str(row[6]), str(row[7])))
            if chosen:
                found.chosen.add(ref_id)

    def _find(
        self, matched: Iterable[str], idents: Iterable[str], words: Iterable[str], papers: Iterable[str]
    ) -> _Found:
        """The references a citation update reads, with what they match now.

        Chosen: those matching `matched` papers, naming these Ident keys (an index lookup
        each) and holding these normalised words (a scan of one column); read besides: every
        reference of `papers` (the caller picks among them).
        """
        found = _Found({}, {})
        for batch in in_batches(sorted(set(matched))):
            self._gather(found, "MATCH (r:Ref)-[:MATCHES]->(t:Paper) WHERE t.doc_id IN $ids", {"ids": list(batch)})
        for key in sorted(set(idents)):
            self._gather(found, "MATCH (:Ident {key: $k})<-[:NAMES]-(r:Ref)", {"k": key})
        for batch in in_batches(sorted({f" {w} " for w in words}), _WORDS_PER_SCAN):
            self._gather(found, "MATCH (r:Ref) WHERE any(w IN $words WHERE r.words CONTAINS w)", {"words": list(batch)})
        for batch in in_batches(sorted(set(papers))):
            self._gather(
                found, "MATCH (p:Paper)-[:HAS_REF]->(r:Ref) WHERE p.doc_id IN $ids", {"ids": list(batch)}, chosen=False
            )
        return found

    @staticmethod
    def _match(
        matcher: CitationMatcher, refs: Sequence[tuple[str, str, Reference]]
    ) -> tuple[list[dict[str, str]], int]:
        """MATCHES rows (ref, dst, via) for these references, and how many resolved."""
        matches: list[dict[str, str]] = []
        resolved = 0
        for ref_id, paper, ref in refs:
            hits = [(d, via) for d, via in matcher.match(ref) if d != paper]
            resolved += bool(hits)
            matches.extend({"ref": ref_id, "dst": d, "via": via} for d, via in hits)
        return matches, resolved

    def _cites_of(self, papers: Sequence[str]) -> dict[tuple[str, str], str]:
        """The CITES edges these papers' MATCHES give: (citing, cited) → the best way any reference matched."""
        edges: dict[tuple[str, str], str] = {}
        for batch in in_batches(list(papers)):
            rows = self.rows(
                "MATCH (a:Paper)-[:HAS_REF]->(:Ref)-[m:MATCHES]->(b:Paper) WHERE a.doc_id IN $ids "
                "RETURN a.doc_id, b.doc_id, m.via",
                {"ids": list(batch)},
            )
            for src, dst, via in rows:
                key = (str(src), str(dst))
                if key not in edges or _RANK[str(via)] < _RANK[edges[key]]:
                    edges[key] = str(via)
        return edges

    def _write_matches(
        self, papers: Sequence[str] | None, refs: set[str] | None, matches: list[dict[str, str]]
    ) -> dict[tuple[str, str], str]:
        """Replace the MATCHES of `refs` (of `papers`; None: all), rebuild those papers' CITES and return them."""
        with self._transaction():
            self._set_meta("citations_pending", "0")
            if papers is None:
                self._write("MATCH ()-[m:MATCHES]->() DELETE m")
                self._write("MATCH ()-[c:CITES]->() DELETE c")
            else:
                for batch in in_batches(list(papers)):
                    params = {"ids": list(batch), "refs": sorted(refs or ())}
                    self._write(
                        "MATCH (p:Paper)-[:HAS_REF]->(r:Ref)-[m:MATCHES]->() WHERE p.doc_id IN $ids AND r.id IN $refs "
                        "DELETE m",
                        params,
                    )
                    self._write("MATCH (a:Paper)-[c:CITES]->() WHERE a.doc_id IN $ids DELETE c", {"ids": list(batch)})
            self._load(
                "MATCH (r:Ref {id: ref}) WITH r, dst, via MATCH (b:Paper {doc_id: dst}) "
                "CREATE (r)-[:MATCHES {via: via}]->(b)",
                matches,
                "ref:s dst:s via:s",
            )
        edges = self._cites_of(self._citing_papers() if papers is None else papers)
        with self._transaction():
            self._load(
                "MATCH (a:Paper {doc_id: src}) WITH a, dst, via MATCH (b:Paper {doc_id: dst}) "
                "CREATE (a)-[:CITES {via: via}]->(b)",
                [{"src": s, "dst": d, "via": v} for (s, d), v in edges.items()],
                "src:s dst:s via:s",
            )
        return edges

    def _citing_papers(self) -> list[str]:
        rows = self.rows("MATCH (p:Paper)-[:HAS_REF]->(:Ref)-[:MATCHES]->() RETURN DISTINCT p.doc_id")
        return [str(r[0]) for r in rows]

    def resolve_citations(self) -> CitationReport:
        """Recompute every MATCHES and CITES edge from the stored references (see CitationMatcher for the rules)."""
        matcher = CitationMatcher(self.library_papers())
        refs = [_reference(row) for row in self.rows(f"MATCH (r:Ref) RETURN {_REF}")]
        matches, resolved = self._match(matcher, refs)
        edges = self._write_matches(None, None, matches)
        return CitationReport(len(refs), resolved, len(edges), _by_via(edges.values()))

    def update_citations(self, before: CitationSnapshot) -> CitationReport:
        """MATCHES and CITES after a sync wrote or removed `before.changing`, matching only what can change.

        `before` is the `snapshot` taken before the sync wrote anything. Gives the edges
        `resolve_citations` would (see the module docstring).
        """
        now = {p.doc_id: p for p in self._papers(before.changing)}
        after = [p for p in before.papers if p.doc_id not in before.changing] + list(now.values())
        new = CitationMatcher(after)
        keys_before = {k for k in map(_title_key, before.papers) if len(k) >= MIN_TITLE_CHARS}
        keys_after = set(new.index_words)
        added = keys_after - keys_before
        gained = {w for key in added for w in new.index_words[key]}
        shifted: set[str] = set()  # papers whose title's index words moved: references may no longer match them
        for key, was in new.index_words_before(added, keys_before - keys_after).items():
            words = new.index_words[key]
            gained.update(w for w in words if w not in was)
            if set(was) - set(words):
                shifted.update(new.papers_titled(key))
        twins = {d for p in now.values() for d in new.papers_titled(_title_key(p))}
        idents = [key for p in now.values() for key in ident_keys(p.doi, p.arxiv)]
        # The references that matched a changed or removed paper lost those matches with it, so
        # they are read through their own papers, as are the written papers' new references.
        written = set(now)
        found = self._find(twins | shifted, idents, gained, set(before.matched.values()) | written)
        refs = [
            (ref_id, paper, ref)
            for ref_id, (paper, ref) in found.refs.items()
            if ref_id in found.chosen or ref_id in before.matched or paper in written
        ]
        matches, resolved = self._match(new, refs)
        # Write only the references whose matches moved (most keep theirs), and their papers' CITES.
        result: dict[str, set[tuple[str, str]]] = {}
        for row in matches:
            result.setdefault(row["ref"], set()).add((row["dst"], row["via"]))
        moved = {ref_id for ref_id, _, _ in refs if result.get(ref_id, set()) != found.held.get(ref_id, set())}
        owners = sorted({paper for ref_id, paper, _ in refs if ref_id in moved} | written)
        edges = self._write_matches(owners, moved, [row for row in matches if row["ref"] in moved])
        return CitationReport(len(refs), resolved, len(edges), _by_via(edges.values()), full=False)


def _title_key(paper: LibraryPaper) -> str:
    return paper.key if paper.key is not None else normalise_title(paper.title)


def _by_via(vias: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for via in vias:
        counts[via] = counts.get(via, 0) + 1
    return counts
