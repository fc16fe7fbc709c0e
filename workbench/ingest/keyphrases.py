"""Deterministic keyphrases for the graph's Concept nodes: no model, well under a second a paper.

Candidates are RAKE-style: the text is cut at punctuation and stopwords, and every run of
content words yields its 1-3 word n-grams. A phrase scores by how often it occurs, how much
of it is content (RAKE's degree/frequency word scores), a bonus per extra word (multi-word
phrases name concepts, single words are mostly generic) and where it appears (title and
abstract count more). Phrases are lower-cased and their last word lightly singularised, so
"Neural Networks" and "neural network" are one concept. A phrase inside a better-scoring
longer one is dropped unless it is much more frequent on its own. Weights are scaled to
(0, 1] with the best phrase at 1.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import regex

from workbench.records import Section
from workbench.text.accents import repair_accents
from workbench.text.fts_text import WORD_CHARS, has_cjk, has_unspaced

DEFAULT_TOP_N = 12
MAX_WORDS = 3
_MAX_CHARS = 400_000  # about 60 pages; the rest of a very long text adds little


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS = _word_set(
    """
    a about above across after again against all almost alone along already also although always am among an and
    another any anyone anything anywhere are around as at away back be became because become becomes been before
    being below beside besides between beyond both but by can cannot could did do does doing done down during each
    either else enough etc even ever every everything except few for from further had has have having he her here
    hers herself him himself his how however i if in into is it its itself just least less many may me might more
    most mostly much must my myself neither never nevertheless no nobody none nor not nothing now of off often on
    once one only onto or other others otherwise our ours ourselves out over own per perhaps rather same several
    shall she should since so some something sometimes still such than that the their theirs them themselves then
    there thereby therefore these they this those though through throughout thus to together too toward towards
    under until up upon us very via was we well were what whatever when whenever where whereas whether which while
    who whom whose why will with within without would yet you your yours yourself yourselves like unlike vs
    e.g i.e et al fig figs figure figures table tables eq eqs equation section sections ref refs supplementary
    doi http https www org com pp vol
    """
)
# Words too generic to begin or end a concept, or to stand alone as one.
_GENERIC = _word_set(
    """
    able according achieve achieved addition additional approach approaches based best better case cases certain
    change changes compared comparison consider considered contrast current currently data demonstrate demonstrated
    describe described different difference differences due effect effects example examples existing find finding
    findings first found further general given good great high higher highly important include included including
    increase increased increasing indicate indicated investigate investigated key known large larger last level
    levels like likely low lower main major make making many method methods more new non novel number numbers
    observed obtained overall paper part particular possible potential present presented previous previously
    propose proposed provide provided purpose recent recently related relative relatively report reported represent
    respectively result results reveal revealed role second see show showed shown shows significant significantly
    similar similarly simple single small specific strong studied studies study suggest suggests three total two
    type types use used uses using various versus way ways whole within work works year years one four five six
    across able allow allows associated available common commonly different due despite further however identified
    known low often order performed present required several since specific total various whether yet
    according being having including involving leading making providing regarding resulting showing using
    following existing remaining underlying corresponding increasing decreasing indicating suggesting
    """
)
# A word (letters, digits and their combining marks, so "परिवर्तन" is one) or a delimiter.
_TOKEN = regex.compile(rf"[{WORD_CHARS}](?:[{WORD_CHARS}_'’\-]*[{WORD_CHARS}])?|[.,;:!?()\[\]{{}}\"“”<>=/|+*&%$#@~^]")
_DELIMITERS = frozenset('.,;:!?()[]{}"“”<>=/|+*&%$#@~^')
_HAS_LETTER = re.compile(r"[^\W\d_]")
_LATIN_PLURAL_KEEP = ("ss", "us", "is", "ics", "ous", "ess")
# Past participles and adverbs at a phrase's edge are verbs/modifiers far more often than
# concepts ("-ing" words are not: "machine learning", "signaling pathway").
_VERB_ENDINGS = ("ed", "ly")
_IRREGULAR = {
    "matrices": "matrix",
    "indices": "index",
    "vertices": "vertex",
    "species": "species",
    "series": "series",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "mice": "mouse",
    "children": "child",
    "women": "woman",
    "men": "man",
    "teeth": "tooth",
    "feet": "foot",
}
_ADJECTIVE_ENDINGS = ("al", "ar", "ic", "ous", "ive", "ful", "less", "able", "ible", "ary", "ant", "ent")
_LENGTH_BONUS = {1: 0.8, 2: 1.6, 3: 1.9}
_ABSORB_SHARE = 0.6  # a fragment seen this often inside one longer phrase is that phrase


@functools.lru_cache(maxsize=65_536)
def singular(word: str) -> str:
    """A light English singular: "networks" → "network", "studies" → "study", "analyses" → "analysis"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or not word.isalpha() or word.endswith(_LATIN_PLURAL_KEEP):
        return word
    if word.endswith(("yses", "theses")):
        return word[:-2] + "is"
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _runs(text: str) -> Iterable[list[str]]:
    """Runs of content words (original case) between punctuation and stopwords."""
    run: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if has_cjk(token):  # a clause without spaces: its words, each a candidate of its own
            if run:
                yield run
                run = []
            yield from ([word] for word in _cjk_words(token))
            continue
        if has_unspaced(token):  # Thai, Lao, Khmer, Burmese: no segmenter bundled, so no concept
            if run:
                yield run
                run = []
            continue
        if (
            token in _DELIMITERS
            or token.lower() in _STOPWORDS
            or len(token) > 40
            or (len(token) == 1 and not token.isupper())
            or not _HAS_LETTER.search(token)
        ):
            if run:
                yield run
                run = []
            continue
        run.append(token)
    if run:
        yield run


# Chinese words as generic as "based on", "study", "carry out": never concepts.
_CJK_GENERIC = _word_set(
    """基于 研究 进行 通过 一种 本文 我们 以及 方法 实现 采用 利用 对于 由于 其中 可以 一个 这种 问题 分析 结果
    提出 使用 具有 能够 之间 同时 根据 因此 然后 如果 主要 一些 所示 如图 表示 得到 需要 没有 已经"""
)


def _cjk_words(token: str) -> list[str]:
    """The words of a run of Chinese (or Japanese kanji) text, by jieba's dictionary; two characters or more."""
    import rjieba

    words = rjieba.cut(token)
    return [w for w in words if len(w) >= 2 and _HAS_LETTER.search(w) and w.lower() not in _STOPWORDS | _CJK_GENERIC]


@functools.lru_cache(maxsize=65_536)
def _unigram_ok(original: str, lowered: str) -> bool:
    if has_cjk(original):
        return len(original) >= 2  # a Chinese word of two characters is a word ("视觉", vision)
    if any(c.isdigit() for c in original) or sum(c.isupper() for c in original) >= 2:
        return len(original) >= 2  # acronyms and identifiers: "MRI", "SH3", "GPT-4"
    return len(lowered) >= 4 and not lowered.endswith(_ADJECTIVE_ENDINGS)


@dataclass
class _Counts:
    tf: Counter[tuple[str, ...]]
    boost: dict[tuple[str, ...], float]
    word_freq: Counter[str]
    word_degree: Counter[str]


def _count(fields: Sequence[tuple[str, float]]) -> _Counts:
    counts = _Counts(Counter(), {}, Counter(), Counter())
    budget = _MAX_CHARS
    for text, weight in fields:
        if budget <= 0:
            break
        for run in _runs(repair_accents(text[:budget])):
            lowered = [w.lower().replace("’", "'") for w in run]
            degree = min(len(run), MAX_WORDS)
            for word in lowered:
                stem = singular(word)
                counts.word_freq[stem] += 1
                counts.word_degree[stem] += degree
            edges = [w not in _GENERIC and not w.endswith(_VERB_ENDINGS) for w in lowered]
            for start in range(len(run)):
                if not edges[start]:
                    continue
                for size in range(1, min(MAX_WORDS, len(run) - start) + 1):
                    last = start + size - 1
                    if not edges[last]:
                        continue
                    if size == 1:
                        if not _unigram_ok(run[start], lowered[start]):
                            continue
                        phrase: tuple[str, ...] = (singular(lowered[start]),)
                    else:
                        words = lowered[start : last + 1]
                        if len(set(words)) < size:
                            continue
                        phrase = (*words[:-1], singular(words[-1]))
                    counts.tf[phrase] += 1
                    if counts.boost.get(phrase, 0.0) < weight:
                        counts.boost[phrase] = weight
        budget -= len(text)
    return counts


def extract_keyphrases(
    fields: Sequence[tuple[str, float]],
    top_n: int = DEFAULT_TOP_N,
) -> tuple[tuple[str, float], ...]:
    """The top phrases of weighted text fields (e.g. title ×3, abstract ×2, body ×1)."""
    if top_n <= 0:
        return ()
    counts = _count(fields)
    if not counts.tf:
        return ()
    long_text = sum(counts.word_freq.values()) > 400
    scores: dict[tuple[str, ...], float] = {}
    for phrase, count in counts.tf.items():
        boost = counts.boost[phrase]
        if long_text and count == 1 and boost <= 1.0:
            continue  # a one-off phrase deep in a long text is noise
        stems = [singular(w) for w in phrase]
        rake = sum(counts.word_degree[w] / max(1, counts.word_freq[w]) for w in stems) / len(phrase)
        scores[phrase] = (1.0 + math.log(count)) * _LENGTH_BONUS[len(phrase)] * boost * math.log1p(rake)
    chosen = _select(scores, counts.tf, top_n)
    if not chosen:
        return ()
    best = chosen[0][1]
    return tuple((" ".join(phrase), round(score / best, 4)) for phrase, score in chosen)


def _select(
    scores: dict[tuple[str, ...], float], tf: Counter[tuple[str, ...]], top_n: int
) -> list[tuple[tuple[str, ...], float]]:
    """Best phrases first; a fragment that mostly occurs inside a longer phrase lifts that one."""
    merged = dict(scores)
    absorbed: set[tuple[str, ...]] = set()
    for size in range(1, MAX_WORDS):
        owners: dict[tuple[str, ...], tuple[str, ...]] = {}
        for longer in (q for q in merged if len(q) == size + 1):
            head = (*longer[:-2], singular(longer[-2]))
            for part in (head, longer[1:]):
                fits = part in merged and tf[longer] >= _ABSORB_SHARE * tf[part]
                if fits and (part not in owners or tf[longer] > tf[owners[part]]):
                    owners[part] = longer
        for part, longer in owners.items():
            absorbed.add(part)
            merged[longer] = max(merged[longer], merged[part])
    ranked = sorted(((p, v) for p, v in merged.items() if p not in absorbed), key=lambda item: (-item[1], item[0]))
    chosen: list[tuple[tuple[str, ...], float]] = []
    for phrase, score in ranked:
        if len(chosen) >= top_n:
            break
        if any(_overlaps(phrase, other, tf) for other, _ in chosen):
            continue
        chosen.append((phrase, score))
    return chosen


def _overlaps(phrase: tuple[str, ...], other: tuple[str, ...], tf: Counter[tuple[str, ...]]) -> bool:
    if len(phrase) < len(other) and _contains(other, phrase):
        return tf[phrase] < 3 * tf[other]  # a word that also stands on its own a lot survives
    return len(phrase) > len(other) and _contains(phrase, other)


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    size = len(shorter)
    return any(longer[i : i + size] == shorter for i in range(len(longer) - size + 1))


def document_keyphrases(
    title: str,
    abstract: str = "",
    sections: Sequence[Section] = (),
    top_n: int = DEFAULT_TOP_N,
) -> tuple[tuple[str, float], ...]:
    """Keyphrases of a paper: title and abstract weigh more; references are left out."""
    fields: list[tuple[str, float]] = [(title, 3.0), (abstract, 2.0)]
    for section in sections:
        if section.name in ("references", "title") or (section.name == "abstract" and abstract):
            continue
        fields.append((section.text, 2.0 if section.name == "abstract" else 1.0))
    return extract_keyphrases([(text, weight) for text, weight in fields if text], top_n)
