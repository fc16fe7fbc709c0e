"""What the graph records about a paper, computed from its text: keyphrases and its reference list.

The graph store takes these facts as records; computing them (keyphrase extraction,
reference parsing) is ingest's work, done here.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.ingest.citations import references_of
from workbench.ingest.keyphrases import DEFAULT_TOP_N, document_keyphrases
from workbench.records import Document, Section
from workbench.stores.chunks import ChunkStore
from workbench.stores.graph import PaperFacts


def paper_facts(document: Document, sections: Sequence[Section], top_n: int = DEFAULT_TOP_N) -> PaperFacts:
    """Facts for a parsed document: keyphrases from its text and its parsed reference list."""
    concepts = document_keyphrases(document.title, document.abstract, sections, top_n)
    return PaperFacts(document, concepts, tuple(references_of(sections)))


def facts_from_chunks(document: Document, chunks: ChunkStore, top_n: int = DEFAULT_TOP_N) -> PaperFacts:
    """Facts rebuilt from a document's indexed chunks (to refill a rebuilt graph without re-parsing)."""
    sections: list[Section] = []
    for row in chunks.document_chunks(document.doc_id):
        name, text = str(row["section"]), str(row["text"])
        if sections and sections[-1].name == name:
            sections[-1] = Section(name, f"{sections[-1].text}\n\n{text}")
        else:
            sections.append(Section(name, text))
    return paper_facts(document, sections, top_n)
