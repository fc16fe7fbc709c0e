"""Which part of a paper a sentence states: background, objective, methods, results or conclusions.

A multinomial logistic model over the sentence's own features, the same for an abstract and a
full paper: its position in its block of text (an abstract, or any section that is not a named
part of the body; unknown elsewhere, and the model is fitted both ways), cue phrases ("we
propose", "to determine whether", "were randomised", "we conclude"), tense, numbers,
percentages and p-values, hedges ("may", "suggest"), its length, and the embedder's vector of
the sentence (the summary computes it anyway). The weights are fitted by `workbench bench
aspects --fit` on the `fit` part of PubMedQA's labelled abstracts (split by pmid,
`bench.question_sets.split_of`) and shipped as `workbench/assets/aspects/sentence_model.json`:
one model with the vector (used when the index's embedder is the one it was fitted with) and
one without it (any other embedder).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from workbench.text.fts_text import word_count

CLASSES: tuple[str, ...] = ("background", "objective", "methods", "results", "conclusions")
# The classes each aspect stands for; the research question is first what the authors set out to do.
ASPECT_CLASSES: Mapping[str, tuple[str, ...]] = {
    "research_question": ("objective", "background"),
    "methodology": ("methods",),
    "findings": ("results",),
    "conclusions": ("conclusions",),
}
MODEL_ASSET = "sentence_model.json"

_F = re.IGNORECASE
CUES: Mapping[str, re.Pattern[str]] = {
    "cue_objective": re.compile(
        r"\b(we (propose|present|introduce|ask|investigate|examine|explore|study|address|test|sought|aim|aimed|"
        r"hypothesi[sz]ed?|set out|wanted|evaluated? whether|describe)|in this (paper|study|work|article|report)|"
        r"this (paper|study|work|article|report) (aims?|proposes|presents|investigates|examines|describes|"
        r"reports|addresses|evaluates|assesses|explores|was designed)|(aim|goal|purpose|objective)s? (of|was|is|were)|"
        r"designed to|sought to|to (determine|assess|evaluate|investigate|examine|compare|test|explore|identify|"
        r"describe|establish|analy[sz]e|clarify|ascertain|characteri[sz]e|quantify) (whether|if|the|how|what)|"
        r"we ask(ed)? whether|hypothes[ie]s)\b",
        _F,
    ),
    "cue_background": re.compile(
        r"\b(little is known|remains? (unclear|unknown|controversial|to be)|is unclear|is unknown|"
        r"has (been|become)|have been|is (a|an|the) (common|major|leading|important|frequent|rare)|"
        r"is associated|are associated|recent(ly)?|however|although|widely|commonly|often|increasingly)\b",
        _F,
    ),
    "cue_methods": re.compile(
        r"\b(were (measured|collected|recruited|analy[sz]ed|performed|used|randomi[sz]ed|assessed|enrolled|"
        r"included|obtained|evaluated|compared|examined|divided|assigned|reviewed|studied|treated|identified|"
        r"followed)|was (measured|performed|used|assessed|calculated|obtained|defined|conducted|recorded)|"
        r"we (used|performed|measured|collected|trained|designed|built|implemented|recruited|analy[sz]ed|"
        r"conducted|applied|developed|reviewed|enrolled|define|use)|retrospective(ly)?|prospective(ly)?|"
        r"cohort|randomi[sz]ed|questionnaire|database|records|regression|enrolled|consecutive|"
        r"criteria|protocol|dataset|data set|algorithm|procedure)\b",
        _F,
    ),
    "cue_results": re.compile(
        r"\b(we (found|find|observed|show|showed|demonstrate|report|identified)|results? (show|showed|indicate|"
        r"revealed?)|significant(ly)?|increased|decreased|reduced|improved|higher|lower|greater|"
        r"compared (with|to)|versus|vs|odds ratio|hazard ratio|confidence interval|outperform\w*|achiev\w*)\b",
        _F,
    ),
    "cue_conclusions": re.compile(
        r"\b(we conclude|in conclusion|in summary|to conclude|taken together|overall|these (results|findings|data) "
        r"(suggest|indicate|show|demonstrate|support)|our (results|findings|data) (suggest|indicate|show|support)|"
        r"implications?|should be|future (work|research|studies)|further (research|studies|study)|"
        r"warranted|recommend\w*|needed|useful|may (be|help|provide|play|represent)|could (be|help))\b",
        _F,
    ),
}
_PAST = re.compile(r"\b(was|were|had|did|\w{3,}ed)\b", _F)
_PRESENT = re.compile(r"\b(is|are|has|have|does|do|can|remains?)\b", _F)
_HEDGE = re.compile(r"\b(may|might|could|suggests?|suggested|likely|possibl[ey]|appears?|seems?|potential(ly)?)\b", _F)
_NUMBER = re.compile(r"(?<![A-Za-z])\d+(?:[.,]\d+)?")
_PERCENT = re.compile(r"\d\s*%|\bpercent\b", _F)
_STATISTIC = re.compile(
    r"\b[pP]\s*[<=>≤]\s*0?\.\d|\b(95%|CI|OR|RR|HR|SD|IQR)\b|\bn\s*=\s*\d|\(\s*\d+(\.\d+)?\s*[-–]\s*\d", re.UNICODE
)
_WE = re.compile(r"\b(we|our|us)\b", _F)
_INFINITIVE_START = re.compile(r"^\s*(To|In order to)\s+[a-z]+")

FEATURE_NAMES: tuple[str, ...] = (
    "position", "position_squared", "first", "last", "positioned", "length",
    *CUES, "past", "present", "hedge", "numbers", "percent", "statistic", "we", "infinitive_start", "question",
)  # fmt: skip
POSITION_FEATURES = 5  # the first five: position, its square, first, last, positioned


def _share(pattern: re.Pattern[str], text: str, words: int) -> float:
    return min(1.0, len(pattern.findall(text)) / max(1, words) * 5.0)


def sentence_features(sentence: str, index: int, count: int, positioned: bool = True) -> list[float]:
    """One sentence's hand-made features, in `FEATURE_NAMES` order (the vector goes beside them).

    `index` of `count` is its place in its block of text; without `positioned` (a sentence of a
    methods, results, ... section) the position features are all 0, as the model was also fitted
    on every sentence without its position (`unpositioned`).
    """
    words = max(1, word_count(sentence))
    if positioned:
        position = index / (count - 1) if count > 1 else 0.0
        first, last = float(index == 0), float(index == count - 1)
    else:
        position, first, last = 0.0, 0.0, 0.0
    return [
        position, position * position, first, last, float(positioned), math.log1p(words) / 4.0,
        *(float(bool(p.search(sentence))) for p in CUES.values()),
        _share(_PAST, sentence, words), _share(_PRESENT, sentence, words), _share(_HEDGE, sentence, words),
        min(1.0, len(_NUMBER.findall(sentence)) / 6.0), float(bool(_PERCENT.search(sentence))),
        float(bool(_STATISTIC.search(sentence))), float(bool(_WE.search(sentence))),
        float(bool(_INFINITIVE_START.match(sentence))), float(sentence.rstrip().endswith("?")),
    ]  # fmt: skip


def unpositioned(features: np.ndarray) -> np.ndarray:
    """The same sentences' features as if their position were unknown."""
    out = np.array(features, dtype=np.float64)
    out[:, :POSITION_FEATURES] = 0.0
    return out


def block_features(sentences: Sequence[str], positioned: bool = True, start: int = 0, total: int = 0) -> np.ndarray:
    """The features of consecutive sentences of a block, one row each: the first is sentence `start`
    of the block's `total` (default: the sentences are the whole block)."""
    total = max(total, start + len(sentences))
    rows = [sentence_features(s, start + i, total, positioned) for i, s in enumerate(sentences)]
    return np.asarray(rows, dtype=np.float64).reshape(len(sentences), len(FEATURE_NAMES))


def _digits(value: float) -> float:
    """Six significant digits (a tiny scale must not round to 0)."""
    return float(f"{float(value):.6g}")


@dataclass(frozen=True)
class SentenceModel:
    """A fitted multinomial logistic model: P(class | features[, vector]) = softmax(W·z + b)."""

    classes: tuple[str, ...]
    feature_names: tuple[str, ...]
    mean: np.ndarray  # of every input (hand-made features, then the vector), for standardising them
    scale: np.ndarray
    weights: np.ndarray  # (classes, features + dimension)
    bias: np.ndarray  # (classes,)
    embedder: str = ""  # the embedding model whose vectors the weights read ("" = no vector)
    dimension: int = 0

    def inputs(self, features: np.ndarray, vectors: np.ndarray | None) -> np.ndarray:
        """The model's input rows, standardised: the features, then the sentence vectors if it reads them."""
        raw = np.asarray(features, dtype=np.float64)
        if self.dimension:
            if vectors is None or vectors.shape != (raw.shape[0], self.dimension):
                raise ValueError(f"the aspect model needs {self.dimension}-dimensional sentence vectors")
            raw = np.hstack([raw, np.asarray(vectors, dtype=np.float64)])
        return np.asarray((raw - self.mean) / self.scale)

    def probabilities(self, features: np.ndarray, vectors: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities per sentence, columns in `classes` order."""
        logits = self.inputs(features, vectors) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the shipped asset)."""
        return {
            "classes": list(self.classes),
            "feature_names": list(self.feature_names),
            "mean": [_digits(x) for x in self.mean],
            "scale": [_digits(x) for x in self.scale],
            "weights": [[_digits(x) for x in row] for row in self.weights],
            "bias": [_digits(x) for x in self.bias],
            "embedder": self.embedder,
            "dimension": self.dimension,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SentenceModel:
        """The inverse of `to_dict`; a model of other features than this code computes is refused."""
        names = tuple(data["feature_names"])
        if names != FEATURE_NAMES:
            raise ValueError("the aspect model was fitted on other sentence features than this code computes")
        if not all(float(x) > 0 for x in data["scale"]):
            raise ValueError("the aspect model has a scale that is not positive")
        return cls(
            tuple(data["classes"]), names, np.asarray(data["mean"], dtype=np.float64),
            np.asarray(data["scale"], dtype=np.float64), np.asarray(data["weights"], dtype=np.float64),
            np.asarray(data["bias"], dtype=np.float64), str(data.get("embedder", "")), int(data.get("dimension", 0)),
        )  # fmt: skip


@dataclass(frozen=True)
class AspectModels:
    """The shipped pair: with the embedder's sentence vector, and without it."""

    with_vectors: SentenceModel | None
    without_vectors: SentenceModel
    note: str = ""  # how and on what they were fitted

    def for_embedder(self, embedder: str, dimension: int) -> SentenceModel:
        """The model that can read this embedder's vectors, else the one that reads none."""
        model = self.with_vectors
        if model is not None and model.embedder == embedder and model.dimension == dimension:
            return model
        return self.without_vectors

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "note": self.note,
            "with_vectors": self.with_vectors.to_dict() if self.with_vectors else None,
            "without_vectors": self.without_vectors.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AspectModels:
        """The inverse of `to_dict`."""
        with_vectors = data.get("with_vectors")
        return cls(
            SentenceModel.from_dict(with_vectors) if with_vectors else None,
            SentenceModel.from_dict(data["without_vectors"]),
            str(data.get("note", "")),
        )


@cache
def shipped_models() -> AspectModels:
    """The models shipped with the package (`workbench/assets/aspects/sentence_model.json`)."""
    text = resources.files("workbench").joinpath("assets", "aspects", MODEL_ASSET).read_text(encoding="utf-8")
    return AspectModels.from_dict(json.loads(text))
