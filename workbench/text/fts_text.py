"""Keyword-search text for every script: CJK runs become overlapping character bigrams.

LanceDB's BM25 tokenizer cuts text at spaces and punctuation. Chinese and Japanese put no
spaces between words, so a whole clause became one token (and tokens over 40 bytes were
dropped), and Korean words carry particles. The standard remedy of search engines (Lucene's
CJKBigramFilter, Elasticsearch's `cjk_bigram`) is applied here, on both sides: every run of
Han, kana or Hangul characters is written as its overlapping two-character grams
("中文检索" -> "中文 文检 检索"), before the text is indexed and before a query is matched.
A query then matches wherever its characters occur in sequence, without a dictionary, in
all three languages. Text in other scripts passes through unchanged, so English BM25 (stemming
and stop words) is exactly what it was; accented Latin, Cyrillic and Greek are handled by the
tokenizer's lower-casing and ASCII folding.

LanceDB's own n-gram tokenizer would split English words into n-grams too (losing stemming),
and its jieba/lindera tokenizers need language-model files downloaded at run time.
"""

from __future__ import annotations

import re

# Bump when the text written to the FTS column changes: it is part of the index fingerprint.
FTS_TEXT_VERSION = 1
CJK_MODE = "bigram"

_CJK_RANGES = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9f"  # halfwidth katakana
    "\U00020000-\U0003134f"  # CJK Extensions B-G
)
_CJK_RUN = re.compile(f"[{_CJK_RANGES}]+")
_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")


def has_cjk(text: str) -> bool:
    """Whether the text holds Han, kana or Hangul characters."""
    return _CJK_RUN.search(text) is not None


def cjk_bigrams(run: str) -> list[str]:
    """The overlapping two-character grams of a run of CJK characters (a lone character stays)."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def word_units(text: str) -> list[str]:
    """The words of a text in any script, CJK runs as their bigrams (for overlap and length measures)."""
    out: list[str] = []
    for token in _WORD.findall(text):
        if has_cjk(token):
            for part in _CJK_RUN.split(token):
                if part:
                    out.append(part)
            out.extend(gram for run in _CJK_RUN.findall(token) for gram in cjk_bigrams(run))
        else:
            out.append(token)
    return out


def word_count(text: str) -> int:
    """How many words a text holds: its whitespace-separated tokens, or in text with CJK runs its
    `word_units` (a Chinese sentence has no spaces, so it would count as one word however long)."""
    return len(word_units(text)) if has_cjk(text) else len(text.split())


def fts_text(text: str) -> str:
    """The text as the BM25 index should see it: CJK runs as bigrams, everything else as it is."""
    if not has_cjk(text):
        return text
    return _CJK_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", text)


def describe() -> str:
    """The part of the FTS fingerprint this module decides."""
    return f"cjk={CJK_MODE} fts_text={FTS_TEXT_VERSION}"
