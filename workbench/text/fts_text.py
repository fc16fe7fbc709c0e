"""Keyword-search text for every script: runs of scripts written without spaces become bigrams.

LanceDB's BM25 tokenizer cuts text at spaces and punctuation. Chinese, Japanese, Thai, Lao,
Khmer and Burmese put no spaces between words, so a whole clause became one token (and tokens
over 40 bytes were dropped), and Korean words carry particles. The standard remedy of search
engines (Lucene's CJKBigramFilter, Elasticsearch's `cjk_bigram`) is applied here, on both sides:
every run of Han, kana, Hangul, Thai, Lao, Khmer or Myanmar characters is written as its
overlapping two-character grams ("中文检索" -> "中文 文检 检索"), before the text is indexed and
before a query is matched. A character is a grapheme cluster, so a Thai vowel or tone mark stays
with its consonant. A query then matches wherever its characters occur in sequence, without a
dictionary. Text in other scripts passes through unchanged apart from NFC composition (a
decomposed "é", as some text layers and macOS file names give it, would be cut in two by the
tokenizer), so English BM25 (stemming and stop words) is exactly what it was; accented Latin,
Cyrillic and Greek are handled by the tokenizer's lower-casing and ASCII folding.

A word (`word_units`) is letters, digits and the combining marks written on them: Devanagari,
Bengali and Tamil vowel signs and viramas, Arabic harakat. Python's `re` word class leaves those
marks out, so "भारत" was read as "भ" and "रत".

LanceDB's own n-gram tokenizer would split English words into n-grams too (losing stemming),
and its jieba/lindera tokenizers need language-model files downloaded at run time.
"""

from __future__ import annotations

import unicodedata

import regex

# Bump when the text written to the FTS column changes: it is part of the index fingerprint.
# 2: Thai, Lao, Khmer and Myanmar runs as bigrams too; bigrams of grapheme clusters; NFC.
FTS_TEXT_VERSION = 2
CJK_MODE = "bigram"
# The longest word the BM25 index keeps, in UTF-8 bytes (what LanceDB's tokenizer counts; its default
# is 40). 40 bytes are 40 Latin letters but only 20 Cyrillic, Greek or Arabic ones and 13 Devanagari
# ones, so "высокопроизводительный" (22 letters) was dropped from the index and from the query alike.
# 160 bytes keep a word of 40 characters in any script.
MAX_TOKEN_BYTES = 160

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
# CJK and the other scripts written without spaces between words (Burmese spaces phrases, not words).
_UNSPACED_RANGES = _CJK_RANGES + (
    "\u0e00-\u0e7f"  # Thai
    "\u0e80-\u0eff"  # Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff"  # Khmer
    "\u19e0-\u19ff"  # Khmer symbols
    "\ua9e0-\ua9ff"  # Myanmar Extended-B
    "\uaa60-\uaa7f"  # Myanmar Extended-A
)
_CJK_RUN = regex.compile(f"[{_CJK_RANGES}]+")
_UNSPACED_RUN = regex.compile(f"[{_UNSPACED_RANGES}]+")
# Letters, digits and their combining marks; inner hyphens and apostrophes keep a word whole.
WORD_CHARS = r"\p{L}\p{N}\p{M}"
_WORD = regex.compile(rf"[{WORD_CHARS}]+(?:[-'’][{WORD_CHARS}]+)*")
_CLUSTER = regex.compile(r"\X")  # a grapheme cluster: a letter with its combining marks
_MARK = regex.compile(r"\p{M}")


def has_cjk(text: str) -> bool:
    """Whether the text holds Han, kana or Hangul characters."""
    return _CJK_RUN.search(text) is not None


def has_unspaced(text: str) -> bool:
    """Whether the text holds a script written without spaces between words (CJK, Thai, Lao, Khmer, Myanmar)."""
    return _UNSPACED_RUN.search(text) is not None


def cjk_bigrams(run: str) -> list[str]:
    """The overlapping two-character grams of a run written without spaces (a lone character stays);
    a character is a grapheme cluster, so combining vowel and tone marks stay with their letter."""
    characters = _CLUSTER.findall(run) if _MARK.search(run) else list(run)  # Han and kana carry no marks
    if len(characters) < 2:
        return ["".join(characters)] if characters else []
    return [characters[i] + characters[i + 1] for i in range(len(characters) - 1)]


def word_units(text: str) -> list[str]:
    """The words of a text in any script, runs written without spaces as their bigrams (for overlap and
    length measures)."""
    out: list[str] = []
    for token in _WORD.findall(text):
        if has_unspaced(token):
            for part in _UNSPACED_RUN.split(token):
                if part:
                    out.append(part)
            out.extend(gram for run in _UNSPACED_RUN.findall(token) for gram in cjk_bigrams(run))
        else:
            out.append(token)
    return out


def word_count(text: str) -> int:
    """How many words a text holds: its whitespace-separated tokens, or in text with runs written
    without spaces its `word_units` (a Chinese sentence would count as one word however long)."""
    return len(word_units(text)) if has_unspaced(text) else len(text.split())


def fts_text(text: str) -> str:
    """The text as the BM25 index should see it: NFC, runs without spaces as bigrams, the rest as it is."""
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    if not has_unspaced(text):
        return text
    return _UNSPACED_RUN.sub(lambda m: " " + " ".join(cjk_bigrams(m.group())) + " ", text)


def describe() -> str:
    """The part of the FTS fingerprint this module decides."""
    return f"cjk={CJK_MODE} fts_text={FTS_TEXT_VERSION} max_token_bytes={MAX_TOKEN_BYTES}"
