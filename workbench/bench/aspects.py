"""`workbench bench aspects`: does each summary aspect quote the right part of an abstract?

PubMedQA's 500 expert-labelled abstracts carry their section labels (BACKGROUND, OBJECTIVE,
METHODS, RESULTS, ...; the authors' conclusion is `long_answer`). Each abstract is indexed as
a plain-text document WITHOUT those labels (one paragraph, as a PDF's abstract reads), the
summary's own sentence choice runs on it (`AspectExtractor`, no model), and every chosen
sentence is traced back to the labelled section it came from. Reported per aspect: the share
of chosen sentences whose section belongs to the aspect (BACKGROUND/OBJECTIVE/PURPOSE/... →
research question, METHODS/DESIGN/SETTING/PATIENTS/... → methodology, RESULTS → findings, the
conclusion → conclusions), and the share of abstracts whose first sentence for the aspect is
right. Abstracts are split by the project's hash of the pmid (`question_sets.split_of`: 60%
`fit`, 40% `heldout`) before anything is tuned: the sentence classifier (`--fit`,
`aspects_fit`) is fitted on `fit` only, `heldout` is used for nothing but the report.

`aspect_choice_report` is the callable other benchmarks use (`bench answers`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from workbench.bench.question_sets import split_of
from workbench.engine import Engine
from workbench.models import ASPECTS
from workbench.query.summary import SENTENCES_PER_DEPTH

SPLITS = ("fit", "heldout")

DEFAULT_PUBMEDQA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pubmedqa" / "pqal_dev.jsonl"
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


def ensure_index(engine: Engine, abstracts: Sequence[LabelledAbstract], workdir: Path) -> Engine:
    """An engine over the abstracts as unlabelled plain-text files (indexed once, reused after)."""
    folder = workdir / "abstracts"
    folder.mkdir(parents=True, exist_ok=True)
    for abstract in abstracts:
        path = folder / document_name(abstract)
        body = f"{abstract.title}\n\n{abstract.text}\n"
        if not path.exists() or path.read_text(encoding="utf-8") != body:
            path.write_text(body, encoding="utf-8")
    s = engine.settings
    bench = Engine(
        replace(
            s,
            storage=replace(s.storage, data_dir=str(workdir / "data"), lancedb_uri=""),
            answer=replace(s.answer, synthesis="never"),
        )
    )
    bench.index_folders([folder])
    return bench


def aspect_choice_report(
    bench: Engine, abstracts: Sequence[LabelledAbstract], depth: str = "comprehensive"
) -> dict[str, Any]:
    """Per split and aspect: how often the chosen sentences come from the right labelled section."""
    by_name = {document_name(a): a for a in abstracts}
    counts: dict[str, dict[str, list[int]]] = {
        split: {a: [0, 0, 0, 0] for a in ASPECTS} for split in SPLITS
    }  # sentences right, sentences, first right, abstracts
    unmatched = 0
    extractor = bench.asker.aspects
    for doc_id in sorted(bench.catalog.doc_ids()):
        abstract = by_name.get(doc_id.rsplit("/", 1)[-1].removeprefix("file:"))
        if abstract is None:
            continue
        rows = bench.chunks.document_chunks(doc_id, with_vectors=True)
        chosen = extractor.extract(rows, SENTENCES_PER_DEPTH[depth]) if rows else {}
        for aspect in ASPECTS:
            tally = counts[abstract.split][aspect]
            tally[3] += 1
            for rank, evidence in enumerate(chosen.get(aspect, [])):
                label = sentence_label(abstract, evidence.sentence)
                if label is None:
                    unmatched += 1
                    continue
                right = aspect in label_aspects(label)
                tally[0] += right
                tally[1] += 1
                if rank == 0:
                    tally[2] += right
    splits: dict[str, Any] = {}
    for split, tallies in counts.items():
        splits[split] = {
            aspect: {
                "sentences": n,
                "right_section": round(right / n, 3) if n else None,
                "first_sentence_right": round(first / docs, 3) if docs else None,
                "abstracts": docs,
            }
            for aspect, (right, n, first, docs) in tallies.items()
        }
        splits[split]["min_right_section"] = min(
            (v["right_section"] for v in splits[split].values() if v["right_section"] is not None), default=None
        )
    return {"depth": depth, "sentences_per_aspect": SENTENCES_PER_DEPTH[depth], "unmatched": unmatched, **splits}


def bench_aspects(
    engine: Engine, dataset: Path = DEFAULT_PUBMEDQA, depth: str = "comprehensive", fit: bool = False,
    papers: Path | None = None, data_root: Path | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Index PubMedQA's abstracts without labels (once) and report the aspect choice per split.

    With `fit`, the sentence classifier is fitted on the `fit` abstracts first, written to the
    package's asset (`workbench/assets/aspects/sentence_model.json`) and reported with. With
    `papers` (labelled research questions of full papers, paths under `data_root`), those papers'
    research questions are checked too (`aspects_papers`).
    """
    abstracts = load_abstracts(dataset)
    digest = hashlib.sha256(dataset.read_bytes()).hexdigest()[:12]
    workdir = engine.paths.cache_dir / "bench" / f"aspects-{digest}"
    bench = ensure_index(engine, abstracts, workdir)
    fitted: dict[str, Any] = {}
    if fit:
        from workbench.bench.aspects_fit import fit_aspect_models, sentence_table, write_models

        table = sentence_table(bench, abstracts)
        models, fitted = fit_aspect_models(table, bench.settings.embedding.model)
        fitted["written"] = str(write_models(models))
        bench.asker.aspects.models = models
    report = aspect_choice_report(bench, abstracts, depth)
    sizes = {split: sum(a.split == split for a in abstracts) for split in SPLITS}
    out = {"benchmark": "aspects", "dataset": str(dataset), "abstracts": sizes, **report}
    if fitted:
        out["classifier"] = fitted
    if papers is not None:
        from workbench.bench.aspects_papers import research_question_report

        out["full_papers"] = research_question_report(engine, papers, data_root or papers.parent, depth)
    return out
