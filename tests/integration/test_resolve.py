"""One rule for paper references (`LibraryDoor.find_document`): a doc id, a Zotero key or a citekey
(`@` optional), read from the index the home reads, else a piece of one paper's title; a question
may also name a paper by its words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.engine.engine import Engine
from workbench.errors import UsageError
from workbench.settings.config import settings_from_dict

pytestmark = pytest.mark.integration

NOTES = {
    "graphene.md": "# Electron transport in graphene\n\n## Abstract\n\nGraphene has an electron mobility of "
    "15000 cm2/Vs at room temperature.\n",
    "yeast.md": "# Caloric restriction in yeast\n\n## Abstract\n\nCaloric restriction extends the replicative "
    "lifespan of budding yeast by 30 percent.\n",
    "requisitos.md": "# Análise de requisitos não funcionais\n\n## Resumo\n\nOs requisitos não funcionais "
    "são tratados desde o início.\n",
}


def home(data_dir: Path, lancedb: Path, read_only: bool = False) -> Engine:
    """A home whose chunk table lives in `lancedb` (shared by two homes); evidence-only answers."""
    settings = settings_from_dict(
        {"storage": {"data_dir": str(data_dir), "lancedb_uri": str(lancedb), "read_only": read_only}}
    )
    settings = replace(
        settings, llm=replace(settings.llm, use_for_intent=False), answer=replace(settings.answer, synthesis="never")
    )
    return Engine(settings)


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, Engine]:
    """A writer that indexed two notes, and a reader of the same chunk table with no catalog of it."""
    root = tmp_path_factory.mktemp("homes")
    papers = root / "papers"
    papers.mkdir()
    for name, text in NOTES.items():
        (papers / name).write_text(text, encoding="utf-8")
    writer = home(root / "a", root / "lancedb")
    assert writer.index_folders([papers]).added == 3
    return writer, home(root / "b", root / "lancedb", read_only=True)


def test_a_reference_names_the_same_paper_in_a_writing_and_a_reading_home(homes: tuple[Engine, Engine]) -> None:
    writer, reader = homes
    assert reader.internals().catalog.doc_ids() == set()  # the reader's own catalog holds no index
    for engine in (writer, reader):
        assert engine.resolve("file:1/graphene.md") == "file:1/graphene.md"
        assert engine.resolve(" @file:1/yeast.md ") == "file:1/yeast.md"
        assert engine.resolve_doc("@file:1/yeast.md") == "file:1/yeast.md"  # the question path: the same rule
        assert all(r.doc_id != "file:1/graphene.md" for r in engine.related("@file:1/graphene.md"))


def test_only_a_question_names_a_paper_by_its_words(homes: tuple[Engine, Engine]) -> None:
    writer, reader = homes
    for engine in (writer, reader):
        assert engine.resolve_doc("caloric restriction yeast lifespan") == "file:1/yeast.md"
        with pytest.raises(UsageError, match="no document matches 'caloric restriction yeast lifespan'"):
            engine.resolve("caloric restriction yeast lifespan")  # triage, export, read: a reference only


def test_a_reference_that_is_not_there_is_never_a_look_alike(homes: tuple[Engine, Engine]) -> None:
    writer, _ = homes
    for ref in ("file:9/graphene.md", "zotero:1:NOPE", "@graphene", "  @nosuchkey"):
        assert writer.resolve_doc(ref) is None, ref
        with pytest.raises(UsageError, match="no document matches"):
            writer.resolve(ref)


def test_a_piece_of_one_papers_title_names_it(homes: tuple[Engine, Engine]) -> None:
    for engine in homes:  # the catalog's rule and, in a home that only reads the index, the rows'
        assert engine.resolve("graphene") == "file:1/graphene.md"
        assert engine.resolve("ELECTRON TRANSPORT") == "file:1/graphene.md"  # case ignored
        assert engine.resolve("analise de requisitos") == "file:1/requisitos.md"  # accents ignored
        with pytest.raises(UsageError, match="in the titles of several papers: file:1/"):
            engine.resolve("ion")  # "restriction", "funcionais": name one by its doc id
        with pytest.raises(UsageError, match="no document matches 'in'"):
            engine.resolve("in")  # too short to name a paper
    detail = homes[0].document_detail("caloric restriction")  # `show`, in the home that holds the catalog
    assert detail is not None and detail.document.doc_id == "file:1/yeast.md"


def test_a_question_names_a_paper_by_its_title_before_its_words(homes: tuple[Engine, Engine]) -> None:
    for engine in homes:  # `summarize`, `ask --doc`, `cost --doc` and a question that names a paper
        assert engine.resolve_doc("Análise de requisitos") == "file:1/requisitos.md"
        with pytest.raises(UsageError, match="in the titles of several papers"):
            engine.resolve_doc("ion")  # a search would have picked one of them without a word


def test_the_graph_takes_a_piece_of_a_title_as_every_other_verb_does(homes: tuple[Engine, Engine]) -> None:
    writer, _ = homes
    graph = writer.graph_description("electron transport")  # no author is called that
    assert graph.kind == "paper" and graph.paper is not None and graph.paper["doc_id"] == "file:1/graphene.md"
    with pytest.raises(UsageError, match="in the titles of several papers"):
        writer.graph_description("ion")
    with pytest.raises(UsageError, match="no paper or author matches 'no such thing'"):
        writer.graph_description("no such thing")
