"""The labelled question sets of `workbench bench answers`: questions as people ask them, with their source.

Three sets, each loaded from a path given by the caller:

- **pubmedqa**: PubMedQA's 500 expert-labelled questions over their 500 abstracts
  (`../shared/data/pubmedqa/pqal_dev.jsonl`; contexts + long_answer = the whole abstract). Gold is
  the abstract: a sentence quoted from it answers the question.
- **fulltext**: questions written by hand over the full text of real PDFs
  (`tests/data/fulltext_questions.jsonl`): mostly one specific detail (a number, a name, a method)
  stated once, deep in the paper, asked in other words than the paper's; each with verbatim
  answer-bearing spans of the extracted page text and the page. Gold is a sentence containing a span.
- **scifact**: SciFact's claims with their rationale sentences (`claims_train.csv`), as `bench evidence`
  uses them; its own 70/30 split by claim id is kept.

Every set is split once, by a hash, into `fit` and `heldout` before anything is tuned; the full-text
set is split by paper, so held-out questions come from papers the fit never saw.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workbench.text.authors import fold_accents

FIT_SHARE = 0.6  # share of ids (pubmedqa) or papers (fulltext) in the fit split
SCIFACT_DISTRACTORS = 600  # abstracts indexed beside the claims' own (a library, not the whole corpus)
SCIFACT_CLAIMS = 200  # answerable claims taken (by hash) so the set indexes in minutes


def split_of(key: str, fit_share: float = FIT_SHARE) -> str:
    """`fit` or `heldout`, deterministically from a sha256 of the key."""
    value = int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "fit" if value < fit_share else "heldout"


def normalise_span(text: str) -> str:
    """Text reduced to lower-case letters and digits of every script, accents folded, so spans
    match across line breaks, hyphens and spacing ("3.5 N·m" → "35nm", "回复力矩" stays)."""
    return "".join(c for c in fold_accents(unicodedata.normalize("NFKC", text)).lower() if c.isalnum())


def contains_span(text: str, spans: Sequence[str]) -> bool:
    """True when the text contains one of the (normalised) answer-bearing spans."""
    flat = normalise_span(text)
    return any(span and span in flat for span in spans)


@dataclass(frozen=True)
class LibraryDocument:
    """One document of a set's library: abstract text, or a file to parse."""

    key: str
    title: str = ""
    text: str = ""
    path: Path | None = None


@dataclass(frozen=True)
class Question:
    """One labelled question: its source document and what in it answers the question."""

    qid: str
    text: str
    split: str
    sources: tuple[str, ...]  # LibraryDocument.key of the paper(s) that answer it
    spans: tuple[str, ...] = ()  # normalised answer-bearing spans (fulltext)
    gold_sentences: tuple[str, ...] = ()  # rationale sentences (scifact)
    kind: str = ""
    page: int | None = None
    lang: str = ""  # the question's language, where the set has several ("pt", "zh")

    @property
    def source(self) -> str:
        """The (first) paper that answers the question."""
        return self.sources[0]


@dataclass
class QuestionSet:
    """A named set: its library, its answerable questions and questions about absent topics."""

    name: str
    documents: list[LibraryDocument]
    questions: list[Question]
    absent: list[str] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)  # the files it was read from (for the cache key)


def absent_split(question: str) -> str:
    """`fit` or `heldout` for an absent-topic question (by a hash of its text, like every set)."""
    return split_of(f"absent:{question}")


def load_absent(path: Path) -> list[str]:
    """Questions about topics no set's library covers (one JSON object a line, `query`)."""
    return [json.loads(line)["query"] for line in path.open(encoding="utf-8") if line.strip()]


def load_pubmedqa(path: Path, absent: Sequence[str] = ()) -> QuestionSet:
    """PubMedQA's questions over their abstracts (contexts + long_answer), split by pmid."""
    documents: list[LibraryDocument] = []
    questions: list[Question] = []
    for line in path.open(encoding="utf-8"):
        if not line.strip():
            continue
        row = json.loads(line)
        pmid = str(row["pmid"])
        text = " ".join([*row["contexts"], row.get("long_answer", "")]).strip()
        documents.append(LibraryDocument(key=pmid, text=text))
        questions.append(Question(qid=pmid, text=row["question"], split=split_of(pmid), sources=(pmid,), kind="yes/no"))
    return QuestionSet("pubmedqa", documents, questions, list(absent), [path])


def load_fulltext(
    path: Path, data_root: Path, absent: Sequence[str] = (), name: str = "fulltext", held_out: bool = False
) -> QuestionSet:
    """Hand-written full-text questions; `doc` paths are relative to `data_root`; split by paper,
    or all `heldout` (a set nothing is fitted on: the questions in other languages)."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    documents = [LibraryDocument(key=doc, path=data_root / doc) for doc in dict.fromkeys(r["doc"] for r in rows)]
    questions = [
        Question(
            qid=r["id"],
            text=r["question"],
            split="heldout" if held_out else split_of(r["doc"]),
            sources=(r["doc"],),
            spans=tuple(normalise_span(s) for s in r["spans"]),
            kind=r.get("kind", ""),
            page=r.get("page"),
            lang=r.get("lang", ""),
        )
        for r in rows
    ]
    return QuestionSet(name, documents, questions, list(absent), [path])


def load_scifact(
    corpus_jsonl: Path, claims_csv: Path, sentences_jsonl: Path, absent: Sequence[str] = (),
    claims: int = SCIFACT_CLAIMS, distractors: int = SCIFACT_DISTRACTORS,
) -> QuestionSet:  # fmt: skip
    """SciFact claims with rationales: the claims' abstracts plus distractor abstracts make the library."""
    from workbench.bench.critic import load_claims
    from workbench.bench.evidence import load_rationales

    gold = load_rationales(sentences_jsonl, claims_csv)
    answerable = [c for c in load_claims(claims_csv) if c.label != "NEI" and gold.get(c.claim_id)]
    answerable.sort(key=lambda c: hashlib.sha256(c.claim_id.encode()).hexdigest())
    chosen = answerable[:claims]
    wanted = {d for c in chosen for d in c.doc_ids}
    rows = [json.loads(line) for line in corpus_jsonl.open(encoding="utf-8")]
    others = sorted((r for r in rows if str(r["_id"]) not in wanted), key=lambda r: _hash(str(r["_id"])))
    keep = wanted | {str(r["_id"]) for r in others[:distractors]}
    documents = [
        LibraryDocument(key=str(r["_id"]), title=r.get("title", ""), text=r.get("text", ""))
        for r in rows
        if str(r["_id"]) in keep
    ]
    questions = [
        Question(
            qid=c.claim_id,
            text=c.text,
            split="fit" if c.split == "train" else "heldout",
            sources=tuple(c.doc_ids),
            gold_sentences=tuple(gold[c.claim_id]),
            kind="claim",
        )
        for c in chosen
    ]
    return QuestionSet("scifact", documents, questions, list(absent), [corpus_jsonl, claims_csv])


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sources_of(questions: Iterable[Question]) -> set[str]:
    """The library keys the questions draw on."""
    return {s for q in questions for s in q.sources}
