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
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.bench.aspects_data import (
    LabelledAbstract,
    document_name,
    indexed_abstracts,
    label_aspects,
    load_abstracts,
    sentence_label,
)
from workbench.engine.engine import Engine
from workbench.query.summary import SENTENCES_PER_DEPTH
from workbench.records import ASPECTS

SPLITS = ("fit", "heldout")


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
    counts: dict[str, dict[str, list[int]]] = {
        split: {a: [0, 0, 0, 0] for a in ASPECTS} for split in SPLITS
    }  # sentences right, sentences, first right, abstracts
    unmatched = 0
    extractor = bench.internals().asker.aspects
    for abstract, rows in indexed_abstracts(bench, abstracts):
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
    engine: Engine, dataset: Path, depth: str = "comprehensive", fit: bool = False,
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
        bench.internals().asker.aspects.models = models
    report = aspect_choice_report(bench, abstracts, depth)
    sizes = {split: sum(a.split == split for a in abstracts) for split in SPLITS}
    out = {"benchmark": "aspects", "dataset": str(dataset), "abstracts": sizes, **report}
    if fitted:
        out["classifier"] = fitted
    if papers is not None:
        from workbench.bench.aspects_papers import research_question_report

        out["full_papers"] = research_question_report(engine, papers, data_root or papers.parent, depth)
    return out
