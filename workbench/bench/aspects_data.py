"""PubMedQA's structured abstracts as a labelled set for aspect choice (`bench aspects`).

Each abstract's sections in order with their printed labels (BACKGROUND, OBJECTIVE, METHODS,
RESULTS, ...; the authors' conclusion, given apart as `long_answer`, last as CONCLUSIONS), the
aspects a label stands for, and the label a quoted sentence came from. Split by the project's
hash of the pmid (`question_sets.split_of`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.bench.question_sets import split_of

if TYPE_CHECKING:
    from workbench.engine.engine import Engine

CONCLUSION = "CONCLUSIONS"  # the label given to `long_answer`
# A label's words → the aspects its sentences may stand for (a label may name two: "METHODS AND RESULTS").
_LABEL_WORDS: Mapping[str, tuple[str, ...]] = {
    "research_question": (
        "BACKGROUND", "OBJECTIVE", "PURPOSE", "INTRODUCTION", "AIM", "HYPOTHES", "CONTEXT", "RATIONALE",
        "QUESTION", "OBJECT", "IMPORTANCE", "PROBLEM",
    ),
    "methodology": (
        "METHOD", "DESIGN", "SETTING", "PATIENT", "PARTICIPANT", "SUBJECT", "INTERVENTION", "MEASURE",
        "MATERIAL", "POPULATION", "DATA SOURCE", "STUDY SELECTION", "DATA EXTRACTION", "PROCEDURE", "SAMPLE",
        "OUTCOME", "END POINT", "ANIMALS", "TECHNIQUE",
    ),
    "findings": ("RESULT", "FINDING", "DATA SYNTHESIS"),
    "conclusions": ("CONCLUSION", "DISCUSSION", "LIMITATION", "IMPLICATION", "INTERPRETATION"),
}  # fmt: skip


def label_aspects(label: str) -> frozenset[str]:
    """The aspects a labelled section may stand for ("METHODS AND RESULTS" → methodology, findings)."""
    upper = label.upper()
    return frozenset(a for a, words in _LABEL_WORDS.items() if any(w in upper for w in words))


@dataclass(frozen=True)
class LabelledAbstract:
    """One PubMedQA abstract: its labelled sections in order (the conclusion last)."""

    pmid: str
    title: str
    sections: tuple[tuple[str, str], ...]  # (label, text)
    split: str

    @property
    def text(self) -> str:
        """The abstract as one unlabelled paragraph."""
        return " ".join(" ".join(body.split()) for _, body in self.sections)

    def label_at(self, offset: int) -> str:
        """The label of the section holding character `offset` of `text`."""
        position = 0
        for label, body in self.sections:
            position += len(" ".join(body.split())) + 1
            if offset < position:
                return label
        return self.sections[-1][0]


def load_abstracts(path: Path) -> list[LabelledAbstract]:
    """PubMedQA records as labelled abstracts (`long_answer` is the CONCLUSIONS section)."""
    out: list[LabelledAbstract] = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            sections = [(str(label), str(text)) for label, text in zip(row["labels"], row["contexts"], strict=True)]
            sections.append((CONCLUSION, str(row["long_answer"])))
            pmid = str(row["pmid"])
            out.append(LabelledAbstract(pmid, str(row["question"]), tuple(sections), split_of(pmid)))
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def sentence_label(abstract: LabelledAbstract, sentence: str) -> str | None:
    """The label of the section a chosen sentence was quoted from (None if it is not found)."""
    text = abstract.text
    probe = _squash(sentence.replace(" …", ""))
    for length in (len(probe), 60, 30):
        at = text.find(probe[:length])
        if at >= 0:
            return abstract.label_at(at)
    return None


def document_name(abstract: LabelledAbstract) -> str:
    """The file name an abstract is indexed under."""
    return f"pubmedqa-{abstract.pmid}.txt"


def indexed_abstracts(
    bench: Engine, abstracts: Sequence[LabelledAbstract]
) -> Iterator[tuple[LabelledAbstract, list[dict[str, Any]]]]:
    """Each labelled abstract the bench library indexed, with its chunk rows (vectors included), by doc id."""
    by_name = {document_name(a): a for a in abstracts}
    for doc_id in sorted(bench.internals().catalog.doc_ids()):
        abstract = by_name.get(doc_id.rsplit("/", 1)[-1].removeprefix("file:"))
        if abstract is not None:
            yield abstract, bench.internals().chunks.document_chunks(doc_id, with_vectors=True)
