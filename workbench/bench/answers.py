"""`workbench bench answers`: is the answer in the evidence, and is "not found" a right decision about the library?

For each question set (`workbench.bench.question_sets`) the set's library is indexed once into a
cache folder keyed by the set's files and the index settings (reruns only evaluate). Each
question is then answered the way `workbench ask` answers it (intent, default depth, the
evidence gatherer; no model), and the benchmark reports per set and split:

- `evidence@3`, `evidence@6`: the answer-bearing sentence among the first 3 / 6 evidence
  sentences (`evidence_at_default_depth`: among what the default depth shows);
- `passage_recall`: the answer-bearing passage among the passages the evidence is picked from
  (`passage_recall_30`: among every passage retrieval returned);
- `abstain_answerable`: how often the answer says "not found" although the library has it;
- `not_found_source_removed`: the same questions asked of the library without their source paper
  (every search excludes it, as if it had never been indexed) must say "not found";
- `not_found_absent_topics`: questions on topics no paper covers must say "not found";
- `caution_answerable`: answerable questions answered with the presence model's caution note;
  `not_found_or_caution_source_removed`: source-removed questions that say "not found" or carry it;
- `evidence_seconds` p50/p95: question to evidence block, index and models warm;
- `library_sizes` (full text): the same decisions in libraries of 1 and 3 papers (`bench.answers_sizes`);
- `gold_page` (full text): whether the answer-bearing quote is cited to the labelled page
  (`bench.answer_pages`).

"Not found" is the presence model's decision (`workbench.query.presence`). `--fit` refits the
sentence scorer and fits the presence model on the `fit` parts of all sets at once, prints their
weights, and reports both parts (and, for comparison, the old rule: one cut-off on the best
sentence's score, refitted on the same data); the `heldout` parts are never used for fitting.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench import cache_key, parser_digest
from workbench.bench.answer_pages import gold_page
from workbench.bench.answers_fit import Probe, Run, choose_cutoff, fit_presence, fit_scorer
from workbench.bench.answers_sizes import library_sizes
from workbench.bench.evidence import matches_gold
from workbench.bench.question_sets import Question, QuestionSet, absent_split, contains_span
from workbench.engine.engine import Engine
from workbench.query.critic.grounding import content_stems
from workbench.query.depth import DEPTH_SHAPES
from workbench.query.evidence import FEATURE_NAMES, Candidate, EvidenceFinder, pick
from workbench.query.gather import EvidenceGatherer, SearchFunction, per_paper_cap
from workbench.query.logistic import LogisticWeights
from workbench.query.presence import DEFAULT_PRESENCE, PRESENCE_FEATURE_NAMES, PresenceModel, decide
from workbench.records import Document, Evidence, Filter, Hit, Section

# Sets whose gold marks sentences; the evidence scorer is fitted on these only (PubMedQA's gold
# is a whole abstract: every sentence of it would count as answering).
SENTENCE_GOLD = ("fulltext", "scifact")
SPAN_SETS = ("fulltext", "multilingual")  # gold marked by answer-bearing spans of whole papers


def set_engine(engine: Engine, qs: QuestionSet) -> tuple[Engine, Path, str]:
    """An engine whose stores live in a cache folder keyed by the set's inputs and the index settings."""
    s = engine.settings
    # The inputs by name and content, not path: every checkout of the same files shares one index.
    stats = [(p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in qs.inputs]
    key = cache_key(qs.name, stats, len(qs.documents), s.embedding.model, s.index.chunk_tokens,
                    s.index.max_chunk_tokens, s.index.min_chunk_tokens, s.fts, parser_digest(),
                    "answers-v2")  # fmt: skip
    folder = engine.paths.cache_dir / "bench" / f"answers-{qs.name}-{key}"
    settings = replace(
        s,
        storage=replace(s.storage, data_dir=str(folder / "data"), lancedb_uri=""),
        answer=replace(s.answer, synthesis="never", default_depth="auto"),
        llm=replace(s.llm, use_for_intent=False),
    )
    return Engine(settings), folder, key


def ensure_set_index(engine: Engine, qs: QuestionSet) -> tuple[Engine, dict[str, str], float | None, str]:
    """The set's library indexed (once), and a map from library key to doc id."""
    bench, folder, key = set_engine(engine, qs)
    marker = folder / "complete.json"
    if marker.exists():
        return bench, json.loads(marker.read_text(encoding="utf-8"))["doc_ids"], None, key
    started = time.perf_counter()
    doc_ids: dict[str, str] = {}
    files = [d for d in qs.documents if d.path is not None]
    texts = [d for d in qs.documents if d.path is None]
    if texts:
        items = [
            (
                Document(doc_id=f"{qs.name}:{d.key}", title=d.title, source="bench", item_type="abstract"),
                (Section("abstract", d.text),),
            )
            for d in texts
        ]
        bench.index_documents(items, graph=False)
        doc_ids.update({d.key: f"{qs.name}:{d.key}" for d in texts})
    if files:
        source = folder / "papers"
        source.mkdir(parents=True, exist_ok=True)
        names: dict[str, str] = {}
        for number, document in enumerate(files):
            assert document.path is not None
            name = f"{number:03d}-{document.path.name}"
            shutil.copyfile(document.path, source / name)
            names[name] = document.key
        bench.index_folders([source])
        for doc_id in bench.internals().catalog.doc_ids():
            detail = bench.document_detail(doc_id)
            for entry in detail.files if detail else ():
                name = Path(entry.path).name
                if name in names:
                    doc_ids[names[name]] = doc_id
    seconds = time.perf_counter() - started
    marker.write_text(json.dumps({"seconds": seconds, "doc_ids": doc_ids}), encoding="utf-8")
    return bench, doc_ids, seconds, key


def _searcher(bench: Engine, excluded: Sequence[str]) -> SearchFunction:
    """The engine's search with some documents left out of every query (the library without them)."""
    extra = [Filter("doc", "!=", doc_id) for doc_id in excluded]

    def search(query: str, filters: Sequence[Filter], limit: int) -> list[Hit]:
        return bench.search(query, filters=[*filters, *extra], limit=limit, per_doc=False).hits

    return search


def _gatherer(bench: Engine, excluded: Sequence[str]) -> EvidenceGatherer:
    asker = bench.internals().asker
    return EvidenceGatherer(
        _searcher(bench, excluded), asker.evidence_finder, asker.tools.document_chunks,
        bench.settings.answer.targeted_chunks,
    )  # fmt: skip


def _pool(gatherer: EvidenceGatherer, question: str, depth: str) -> tuple[list[Hit], list[Hit]]:
    """The retrieved passages and the ones a targeted answer picks its evidence from."""
    bench_intent, _ = gatherer.library_intent(question, _intent(question), None)
    hits, _ = gatherer.passages(question, bench_intent, None)
    return hits, gatherer.pool(hits, depth)


def _intent(question: str) -> Any:
    from workbench.query.intent.detect import detect_intent

    return detect_intent(question)


def collect(bench: Engine, qs: QuestionSet, doc_ids: dict[str, str], removal: bool = True) -> list[Run]:
    """Answer every question of the set with its library whole and, if asked, without its source."""
    asker = bench.internals().asker
    finder: EvidenceFinder = asker.evidence_finder
    whole = asker.gatherer
    runs: list[Run] = []
    for question in qs.questions:
        intent = asker.intent(question.text)
        depth = asker.choose_depth(intent, None)
        started = time.perf_counter()
        gathered = whole.gather(question.text, depth, intent, None)
        seconds = time.perf_counter() - started
        hits = gathered.passages
        pool = whole.pool(hits, depth)
        run = Run(question, qs.name, hits, pool, finder.candidates(question.text, pool), seconds=seconds)
        if removal:
            without = _gatherer(bench, [doc_ids[k] for k in question.sources if k in doc_ids])
            run.removed_hits, removed_pool = _pool(without, question.text, depth)
            run.removed = finder.candidates(question.text, removed_pool)
            run.removed_passages = len(removed_pool)
        runs.append(run)
    return runs


def collect_absent(bench: Engine, questions: Sequence[str]) -> list[Probe]:
    """Retrieval and scored sentences for questions whose topic the library does not cover."""
    asker = bench.internals().asker
    out = []
    for text in questions:
        depth = asker.choose_depth(asker.intent(text), None)
        hits, pool = _pool(asker.gatherer, text, depth)
        out.append(Probe(text, absent_split(text), hits, asker.evidence_finder.candidates(text, pool)))
    return out


def gold_check(qs: QuestionSet, doc_ids: dict[str, str]) -> Callable[[Question, str, str], bool]:
    """Does a sentence (or passage) of a document carry the question's answer?"""
    if qs.name == "scifact":
        stems_of: dict[str, list[list[str]]] = {}

        def scifact(question: Question, text: str, doc_id: str) -> bool:
            if question.qid not in stems_of:
                stems_of[question.qid] = [content_stems(s) for s in question.gold_sentences]
            return matches_gold(text, stems_of[question.qid])

        return scifact
    if qs.name == "pubmedqa":
        return lambda question, text, doc_id: doc_id == doc_ids.get(question.source)
    return lambda question, text, doc_id: contains_span(text, question.spans)


def passage_has_gold(qs: QuestionSet, doc_ids: dict[str, str], question: Question, hit: Hit) -> bool:
    """Is the answer-bearing passage this hit (SciFact: any passage of a rationale's abstract)?"""
    if qs.name == "scifact":
        return hit.doc_id.removeprefix("scifact:") in question.sources and any(
            matches_gold(s, [content_stems(g) for g in question.gold_sentences]) for s in _sentences(hit.text)
        )
    if qs.name == "pubmedqa":
        return hit.doc_id == doc_ids.get(question.source)
    return contains_span(hit.text, question.spans)


def _sentences(text: str) -> list[str]:
    from workbench.query.sentences import passage_sentences

    return passage_sentences(text)


def rescore(finder: EvidenceFinder, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates scored by the finder's current weights."""
    return [replace(c, score=finder.score(c.features)) for c in candidates]


def best(candidates: Sequence[Candidate]) -> float:
    """The best sentence's score (0 when none): what the "not found" cut-off is compared with."""
    return max((c.score for c in candidates), default=0.0)


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _rate(values: Sequence[bool]) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


def _pct(values: Sequence[float], q: int) -> float | None:
    return round(float(np.percentile(values, q)), 3) if values else None


NotFound = Callable[[str, Sequence[Hit], Sequence[Candidate]], bool]


def cutoff_rule(cutoff: float) -> NotFound:
    """The old decision: "not found" when the best sentence scores under one cut-off."""
    return lambda question, hits, candidates: best(candidates) < cutoff


def presence_rule(model: PresenceModel, floor: float = 0.0) -> NotFound:
    """The presence model's decision (plus the configured floor on the best sentence's score)."""

    def not_found(question: str, hits: Sequence[Hit], candidates: Sequence[Candidate]) -> bool:
        return not decide(question, hits, candidates, model).found or best(candidates) < floor

    return not_found


def caution_rule(model: PresenceModel) -> NotFound:
    """Whether an answer found by the presence model carries its caution ("may not hold the answer")."""
    return lambda question, hits, candidates: decide(question, hits, candidates, model).uncertain


def shown(candidates: Sequence[Candidate], pool: Sequence[Hit], depth: str = "targeted") -> list[Evidence]:
    """The evidence an answer at `depth` would quote, at least 6 sentences (for `evidence@6`)."""
    shape = DEPTH_SHAPES[depth]
    sentences = max(6, shape.sentences)
    return pick(candidates, sentences, per_paper_cap(pool, shape.per_paper, sentences))


def score_runs(
    qs: QuestionSet, doc_ids: dict[str, str], runs: Sequence[Run], absent: Sequence[Probe], not_found: NotFound,
    depth: str = "targeted", cautioned: NotFound | None = None, by_language: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """The set's numbers per split (`fit`, `heldout`, `all`), and per language where its questions
    name several (`by_language`, every split together)."""
    is_gold = gold_check(qs, doc_ids)
    shape = DEPTH_SHAPES[depth]
    out: dict[str, Any] = {}
    misses: dict[str, list[str]] = {"retrieval": [], "evidence": [], "abstained": []}
    for split in ("fit", "heldout", "all"):
        chosen = [r for r in runs if split == "all" or r.question.split == split]
        at3, at6, at_default, recall, recall30, abstain, removed = [], [], [], [], [], [], []
        caution, flagged = [], []  # answerable questions with the caution; removed ones not found or cautioned
        paged: list[tuple[Question, Evidence]] = []  # the first answer-bearing quote shown, for the page check
        for run in chosen:
            evidence = shown(run.candidates, run.pool, depth)
            found = [is_gold(run.question, e.sentence, e.doc_id) for e in evidence]
            at3.append(any(found[:3]))
            at6.append(any(found[:6]))
            at_default.append(any(found[: shape.sentences]))
            if at_default[-1]:
                paged.append((run.question, next(e for e, f in zip(evidence, found, strict=True) if f)))
            recall.append(any(passage_has_gold(qs, doc_ids, run.question, h) for h in run.pool))
            recall30.append(any(passage_has_gold(qs, doc_ids, run.question, h) for h in run.hits))
            abstain.append(not_found(run.question.text, run.hits, run.candidates))
            removed.append(not_found(run.question.text, run.removed_hits, run.removed))
            if cautioned is not None:
                caution.append(cautioned(run.question.text, run.hits, run.candidates))
                flagged.append(removed[-1] or cautioned(run.question.text, run.removed_hits, run.removed))
            if split == "all" and not at_default[-1]:
                misses["evidence" if recall[-1] else "retrieval"].append(run.question.qid)
            if split == "all" and abstain[-1]:
                misses["abstained"].append(run.question.qid)
        probes = [p for p in absent if split == "all" or p.split == split]
        out[split] = {
            "questions": len(chosen),
            "evidence@3": _rate(at3),
            "evidence@6": _rate(at6),
            "evidence_at_default_depth": _rate(at_default),
            "passage_recall": _rate(recall),
            "passage_recall_30": _rate(recall30),
            "abstain_answerable": _rate(abstain),
            "not_found_source_removed": _rate(removed),
            "not_found_absent_topics": _rate([not_found(p.text, p.hits, p.candidates) for p in probes]),
            "absent_topics": len(probes),
        }
        if cautioned is not None:
            out[split]["caution_answerable"] = _rate(caution)
            out[split]["not_found_or_caution_source_removed"] = _rate(flagged)
        if qs.name in SPAN_SETS:
            out[split]["gold_page"] = gold_page(paged)
    if qs.name in SPAN_SETS:  # small enough to list: which questions the answer missed, and where
        out["missed"] = misses
    seconds = [r.seconds for r in runs]
    out["evidence_seconds"] = {"p50": _pct(seconds, 50), "p95": _pct(seconds, 95)}
    languages = sorted({r.question.lang for r in runs if r.question.lang})
    if by_language and len(languages) > 1:
        out["by_language"] = {
            lang: score_runs(qs, doc_ids, [r for r in runs if r.question.lang == lang], [], not_found, depth,
                             cautioned, by_language=False)["all"]
            for lang in languages
        }  # fmt: skip
    return out


def aspect_choice(engine: Engine, pubmedqa: Path) -> dict[str, Any]:
    """Aspect-choice accuracy over PubMedQA's labelled abstract sections (`workbench bench aspects`)."""
    from workbench.bench.aspects import bench_aspects

    return bench_aspects(engine, pubmedqa)


def bench_answers(
    engine: Engine, question_sets: Sequence[QuestionSet], fit: bool = False, pubmedqa: Path | None = None,
    limit: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Every set's evidence recall, passage recall, abstention and "not found" rates, per split."""
    collected = []
    built: dict[str, Any] = {}
    finder: EvidenceFinder | None = None
    benches: dict[str, Engine] = {}
    for qs in question_sets:
        bench, doc_ids, seconds, key = ensure_set_index(engine, qs)
        if limit and qs.name not in SPAN_SETS:  # a sample (by a hash of the id: both splits keep their share)
            qs = replace(qs, questions=sorted(qs.questions, key=lambda q: _sha(f"sample:{q.qid}"))[:limit])
        bench.internals().asker.gatherer.gather(
            "warm up the embedder", "targeted", _intent("warm up the embedder"), None
        )
        runs = collect(bench, qs, doc_ids)
        absent = collect_absent(bench, qs.absent)
        finder = bench.internals().asker.evidence_finder
        benches[qs.name] = bench
        collected.append((qs, doc_ids, runs, absent))
        built[qs.name] = {"index_key": key, "documents": len(doc_ids), "index_build_seconds":
                          None if seconds is None else round(seconds, 1)}  # fmt: skip
    assert finder is not None
    result: dict[str, Any] = {"benchmark": "answers", "default_depth": "targeted", "indexes": built}
    floor = engine.settings.answer.min_evidence_score
    presence = DEFAULT_PRESENCE
    if fit:  # the same collected answers, scored as the unchanged scorer and decision score them
        result["before_fit"] = {
            "weights": _named(FEATURE_NAMES, finder.weights),
            "presence": _presence_json(presence),
            "sets": {qs.name: score_runs(qs, d, runs, absent, presence_rule(presence, floor))
                     for qs, d, runs, absent in collected},
        }  # fmt: skip
        sentence_gold = [(qs, d, r) for qs, d, r, _ in collected if qs.name in SENTENCE_GOLD]
        fitted = fit_scorer(finder, sentence_gold, gold_check, shown)
        for index, (qs, doc_ids, runs, absent) in enumerate(collected):
            for run in runs:
                run.candidates = rescore(finder, run.candidates)
                run.removed = rescore(finder, run.removed)
            collected[index] = (qs, doc_ids, runs, [replace(p, candidates=rescore(finder, p.candidates))
                                                    for p in absent])  # fmt: skip
        fit_runs = [r for _, _, runs, _ in collected for r in runs if r.question.split == "fit"]
        cutoff = choose_cutoff(fit_runs)
        result["cutoff_only"] = {  # the old decision, refitted on the same data, for comparison
            "min_evidence_score": cutoff,
            "sets": {qs.name: _decisions(score_runs(qs, d, runs, absent, cutoff_rule(cutoff)))
                     for qs, d, runs, absent in collected},
        }  # fmt: skip
        presence, fitted["presence"] = fit_presence([(qs.name, runs, absent) for qs, _, runs, absent in collected])
        floor = 0.0
        result["fitted"] = fitted
    result["presence"] = _presence_json(presence)
    result["min_evidence_score"] = floor
    result["sets"] = {
        qs.name: score_runs(qs, d, runs, absent, presence_rule(presence, floor), cautioned=caution_rule(presence))
        for qs, d, runs, absent in collected
    }
    for qs, doc_ids, _, _ in collected:
        if qs.name == "fulltext":  # the decision in a library of 1 and of 3 papers
            result["sets"][qs.name]["library_sizes"] = sized(benches[qs.name], qs, doc_ids, presence, finder.weights)
    result["weights"] = _named(FEATURE_NAMES, finder.weights)
    result["aspect_choice"] = aspect_choice(engine, pubmedqa) if pubmedqa else {"status": "no PubMedQA path"}
    return result


def sized(
    bench: Engine, qs: QuestionSet, doc_ids: dict[str, str], presence: PresenceModel, weights: LogisticWeights
) -> dict[str, Any]:
    """The full-text questions asked of small libraries (`bench.answers_sizes`)."""
    asker = bench.internals().asker
    asker.evidence_finder.weights = weights  # the scorer as fitted (`--fit` refits another set's finder)
    is_gold = gold_check(qs, doc_ids)

    def ask_without(question: Question, excluded: Sequence[str]) -> tuple[list[Hit], list[Hit], list[Candidate]]:
        depth = asker.choose_depth(asker.intent(question.text), None)
        hits, pool = _pool(_gatherer(bench, excluded), question.text, depth)
        return hits, pool, asker.evidence_finder.candidates(question.text, pool)

    def shows_gold(question: Question, pool: Sequence[Hit], candidates: Sequence[Candidate]) -> bool:
        quoted = shown(candidates, pool)[: DEPTH_SHAPES["targeted"].sentences]
        return any(is_gold(question, e.sentence, e.doc_id) for e in quoted)

    return library_sizes(qs.questions, doc_ids, ask_without, shows_gold, presence)


def _named(names: Sequence[str], weights: LogisticWeights) -> dict[str, float]:
    return {"bias": weights.bias, **dict(zip(names, weights.weights, strict=True))}


def _presence_json(model: PresenceModel) -> dict[str, Any]:
    return {
        kind: {"threshold": c.threshold, "caution": c.caution, "weights": _named(PRESENCE_FEATURE_NAMES, c.weights)}
        for kind, c in model.calibrations.items()
    }


def _decisions(scored: dict[str, Any]) -> dict[str, Any]:
    """Only the "not found" decisions of a set's numbers, per split."""
    keys = ("abstain_answerable", "not_found_source_removed", "not_found_absent_topics")
    return {split: {k: scored[split][k] for k in keys} for split in ("fit", "heldout", "all")}
