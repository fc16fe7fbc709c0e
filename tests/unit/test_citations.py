"""Reference parsing (splitting, DOIs, arXiv ids, titles) and matching, on synthetic and real lists."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import PDFS
from workbench.ingest.citations import (
    CitationMatcher,
    LibraryPaper,
    Reference,
    find_arxiv,
    guess_title,
    normalise_doi,
    normalise_title,
    parse_references,
    references_of,
    split_entries,
    title_similarity,
)
from workbench.ingest.graph_facts import paper_facts
from workbench.ingest.parse import parse_file
from workbench.records import Document, ParsedDocument
from workbench.stores.graph import GraphStore, PaperFacts

needs_pdfs = pytest.mark.skipif(not (PDFS / "MANIFEST.tsv").is_file(), reason=f"sample PDFs not found at {PDFS}")


@cache
def _parsed(name: str) -> ParsedDocument:
    return parse_file(PDFS / name)


def _references(name: str) -> list[Reference]:
    return references_of(_parsed(name).sections)


# --- Splitting ----------------------------------------------------------------------------


def test_bracket_numbered_entries_split_even_when_run_together() -> None:
    text = (
        "[1] A. Smith. First paper title here. J. Foo, 2001. [2] B. Jones and C. Wu. Second paper title. "
        "In Proc. Bar, 2002.\n\n[3] D. Lee. Third paper title. arXiv:1706.03762, 2017."
    )
    entries = split_entries(text)
    assert len(entries) == 3
    assert entries[1].startswith("B. Jones")


def test_parenthesised_and_plain_numbers() -> None:
    paren = (
        "(1) Keith, J. A.; Cheng, B. A title about chemistry. Chem. Rev. 2021, 121, 9816. (2) Goh, G. B. Deep "
        "learning for chemistry. J. Comput. Chem. 2017, 38, 1291. (3) Wu, Z. Another title. Nature 2020, 1, 2."
    )
    assert len(split_entries(paren)) == 3
    plain = (
        "1 Wang, L. et al. Somatic variations in oranges. Nat. Plants 7, 954 (2021).\n\n"
        "2 Wu, G. A. et al. Sequencing of diverse mandarin genomes. Nat. Biotechnol. 32, 656–662 (2014). "
        "3 Butelli, E. et al. Retrotransposons control fruit-specific accumulation. Plant Cell 24, 1242 (2012)."
    )
    entries = split_entries(plain)
    assert len(entries) == 3
    assert "32, 656" in entries[1]  # volume numbers are not entry numbers


def test_author_year_entries_split_at_each_author_list() -> None:
    text = (
        "Aggeler J, Frisch SM, Werb Z. 1984. Changes in cell shape correlate with collagenase expression. "
        "J Cell Biol 98:1662–1671. Akke M, Liu J, Palmer AG III. 1998. Pervasive conformational fluctuations "
        "in a fibronectin domain. Nat Struct Biol 5:55–59.\n\nAngel P, Karin M. 1987. Phorbol "
        "ester-inducible genes contain a common cis element. Cell 49:729–739."
    )
    entries = split_entries(text)
    assert [e.split()[0] for e in entries] == ["Aggeler", "Akke", "Angel"]


# --- Identifiers and titles ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "arxiv"),
    [
        ("Vaswani et al. arXiv:1706.03762v5 [cs.CL], 2017.", "1706.03762"),
        ("URL http://arxiv.org/abs/2002.08264.", "2002.08264"),
        ("arXiv preprint arXiv:2402.01788.", "2402.01788"),
        ("ArXiv 2019, abs/1901.04592 .", "1901.04592"),
        ("Old style arXiv:hep-lat/0101001.", "hep-lat/0101001"),
        ("No identifier here, 2017.", None),
    ],
)
def test_arxiv_ids(text: str, arxiv: str | None) -> None:
    assert find_arxiv(text) == arxiv


def test_doi_normalisation_and_arxiv_dois() -> None:
    assert normalise_doi("https://doi.org/10.1038/NBT.2906") == "10.1038/nbt.2906"
    assert normalise_doi("doi:10.1021/acs.jcim.1c00619.") == "10.1021/acs.jcim.1c00619"
    assert normalise_doi("not a doi") is None
    ref = parse_references("[1] A. B. Title of it. doi: 10.48550/arXiv.1706.03762. [2] x y z. w. [3] q r s. t.")[0]
    assert ref.doi == "10.48550/arxiv.1706.03762"
    assert ref.arxiv == "1706.03762"


@pytest.mark.parametrize(
    ("entry", "title"),
    [
        (
            'S. Haber, W.S. Stornetta, "How to time-stamp a digital document," In Journal of Cryptology, 1991.',
            "How to time-stamp a digital document",
        ),
        (
            "Shubham Agarwal, Issam H Laradji, and Christopher Pal. 2024. Litllm: A toolkit for scientific "
            "literature review. arXiv preprint arXiv:2402.01788.",
            "Litllm: A toolkit for scientific literature review",
        ),
        (
            "Vaswani, A., Shazeer, N., & Parmar, N. (2017). Attention is all you need. In Advances in NeurIPS.",
            "Attention is all you need",
        ),
        (
            "Goh, G. B.; Hodas, N. O.; Vishnu, A. Deep learning for computational chemistry. J. Comput. Chem. "
            "2017, 38, 1291–1307.",
            "Deep learning for computational chemistry",
        ),
        (
            "Wang, L. et al. Somatic variations led to the selection of acidic and acidless orange cultivars. "
            "Nat. Plants, doi:10.1038/s41477-021-00941-x (2021).",
            "Somatic variations led to the selection of acidic and acidless orange cultivars",
        ),
        (
            "Edward J. Griffen, Alexander G. Dossetter, and Andrew G. Leach. Chemists: AI Is Here; Unite To Get "
            "the Benefits. Journal of Medicinal Chemistry, 63(16):8695–8704, 2020.",
            "Chemists: AI Is Here; Unite To Get the Benefits",
        ),
        (
            "Amberg D., D. C. Burke, and J. N. Strathern, 2005 Methods in yeast genetics: a Cold Spring Harbor "
            "Laboratory course manual. Cold Spring Harbor Laboratory Press.",
            "Methods in yeast genetics: a Cold Spring Harbor Laboratory course manual",
        ),
    ],
)
def test_title_guesses_across_styles(entry: str, title: str) -> None:
    assert guess_title(entry) == title


def test_title_similarity_and_normalisation() -> None:
    assert normalise_title("Attention Is All You Need!") == "attention is all you need"
    assert normalise_title("Müller’s “Deep” Nets") == "muller s deep nets"
    a = normalise_title("Deep residual learning for image recognition")
    assert title_similarity(a, normalise_title("Deep Residual Learning for Image-Recognition.")) == 1.0
    assert title_similarity(a, normalise_title("Deep residual learning for image segmentation")) < 0.9


# --- Matching -----------------------------------------------------------------------------


def test_matcher_prefers_doi_then_arxiv_then_title() -> None:
    matcher = CitationMatcher(
        [
            LibraryPaper("doi", "https://doi.org/10.1038/NBT.2906", None, "Mandarin genomes"),
            LibraryPaper("arx", "10.48550/arXiv.2304.05376", None, "ChemCrow"),
            LibraryPaper("ttl", None, None, "Combining machine learning and computational chemistry for insights"),
        ]
    )
    assert matcher.match(Reference("10.1038/nbt.2906", None, None, "raw")) == [("doi", "doi")]
    assert matcher.match(Reference(None, "2304.05376", None, "raw")) == [("arx", "arxiv")]
    fuzzy = Reference(None, None, "Combining Machine-Learning and Computational Chemistry for Insight", "raw")
    assert matcher.match(fuzzy) == [("ttl", "title")]
    raw_only = Reference(
        None, None, None, "Keith, J. A. Combining machine learning and computational chemistry for insights. 2021"
    )
    assert matcher.match(raw_only) == [("ttl", "title")]  # title guess failed; found whole in the raw text
    assert matcher.match(Reference(None, None, "Combining cooking and chemistry for insights", "x")) == []
    assert matcher.match(Reference("10.1/other", "9999.99999", None, "nothing alike")) == []


def test_index_words_are_rarest_words_before_numbers_and_known_before_a_change() -> None:
    titles = [
        "Deep residual learning for image recognition 2",
        "Deep residual learning for image recognition 3",
        "Image recognition with deep learning",
        "Residual networks behave like ensembles",
        "Learning to recognise images 10",
    ]
    papers = [LibraryPaper(f"p{i}", None, None, t) for i, t in enumerate(titles)]
    matcher = CitationMatcher(papers)
    assert matcher.index_words["deep residual learning for image recognition 2"] == ("for", "deep")
    assert matcher.index_words["learning to recognise images 10"] == ("images", "recognise")  # numbers last

    # the index words titles had before papers joined or left, computed from the library after
    shifted = 0
    for added, removed in (([4], []), ([0, 3], []), ([], [2]), ([1], [3, 4])):
        before = [p for i, p in enumerate(papers) if i not in added]
        before += [LibraryPaper(f"gone{i}", None, None, f"{titles[i]} revisited") for i in removed]
        old, new = CitationMatcher(before), matcher
        joined, left = set(new.index_words) - set(old.index_words), set(old.index_words) - set(new.index_words)
        moved = new.index_words_before(joined, left)
        for key, words in new.index_words.items():
            if key in old.index_words:
                assert moved.get(key, words) == old.index_words[key], (added, removed, key)
                shifted += old.index_words[key] != words
    assert shifted  # some title's index words did move in these changes


# --- Real PDFs ----------------------------------------------------------------------------


@needs_pdfs
def test_real_reference_lists_are_split_and_identified() -> None:
    review = _references("arxiv_2407.01603_llm_agents_chemistry_review.pdf")
    assert len(review) == 577  # "[1]" ... "[577]"
    assert sum(r.doi is not None for r in review) > 200
    assert sum(r.arxiv is not None for r in review) > 150
    assert review[0].title == "Chemoinformatics: a history"

    pasa = _references("arxiv_2501.10120_pasa.pdf")
    assert 30 <= len(pasa) <= 45
    chemcrow = next(r for r in pasa if r.arxiv == "2304.05376")
    assert chemcrow.title == "Chemcrow: Augmenting large-language models with chemistry tools"

    mule = _references("biorxiv_2022.03.19.484946.pdf")
    assert len(mule) == 41
    assert mule[2].doi == "10.1038/nbt.2906"

    perspective = _references("perspective_explanations_molecular_prediction.pdf")
    assert len(perspective) == 149
    assert perspective[2].title == "Deep learning for computational chemistry"

    tenascin = _references("devdyn_2000_218_235.pdf")
    assert len(tenascin) > 250
    assert all(r.title for r in tenascin[:20])


def _document(name: str) -> Document:
    parsed = _parsed(name)
    return Document(
        doc_id=f"file:{name}",
        title=parsed.title,
        source="folder",
        authors=parsed.authors,
        year=parsed.year,
        doi=parsed.doi,
        abstract=parsed.abstract,
        item_type="pdf",
    )


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[GraphStore]:
    store = GraphStore(tmp_path / "graph.kuzu", buffer_pool_mb=128)
    yield store
    store.close()


@needs_pdfs
def test_real_references_resolve_to_library_papers(graph: GraphStore) -> None:
    """The chemistry review cites the perspective paper; both are real PDFs in the library."""
    names = (
        "arxiv_2407.01603_llm_agents_chemistry_review.pdf",
        "perspective_explanations_molecular_prediction.pdf",
        "arxiv_2501.10120_pasa.pdf",
        "biorxiv_2022.03.19.484946.pdf",
    )
    facts = [paper_facts(_document(n), _parsed(n).sections) for n in names]
    # Two works cited in the real lists, added as library items by their identifiers only.
    facts.append(PaperFacts(Document("zotero:1:CHEMCROW", "ChemCrow", "zotero", doi="10.48550/arXiv.2304.05376")))
    facts.append(PaperFacts(Document("zotero:1:MANDARIN", "Citrus genomes", "zotero", doi="10.1038/NBT.2906")))
    graph.upsert_papers(facts)
    report = graph.resolve_citations()
    edges = {
        (a, b, via) for a, b, via in graph.rows("MATCH (a:Paper)-[c:CITES]->(b:Paper) RETURN a.doc_id, b.doc_id, c.via")
    }
    assert (
        "file:arxiv_2407.01603_llm_agents_chemistry_review.pdf",
        "file:perspective_explanations_molecular_prediction.pdf",
        "title",
    ) in edges
    assert ("file:arxiv_2501.10120_pasa.pdf", "zotero:1:CHEMCROW", "arxiv") in edges
    assert ("file:biorxiv_2022.03.19.484946.pdf", "zotero:1:MANDARIN", "doi") in edges
    assert report.references == sum(len(f.references) for f in facts)
    assert report.edges == len(edges) >= 3
    assert all(a != b for a, b, _ in edges)
