"""Is a "sentence" prose, or the text of a table, a figure's labels or a header run together?

A PDF's text layer reads a table row, a diagram's labels ("Hash01 Hash2 Block Header Merkle
Root Prev Hash Nonce …"), axis ticks ("500 1000 0 5000 Input (MB/s) …"), a reference list or a
journal's running header as one long "sentence". Quoted as evidence it says nothing and takes
the place of a sentence that might. In a script with letter case, prose runs on lower-case
words (articles, verbs, prepositions: "the", "der", "и", "και"); such runs have almost none.
Scripts without case (Chinese, Japanese, Korean, Thai, Arabic …) are never judged by this.

A table of contents is such a run in every script: its entries end in a leader and a page
number ("3.4 坐标变换 … 23"). The dots of a leader are layout, not text: each one is a token to
the embedder, so a page of contents made some forty passages of a line or two each. The PDF
reader collapses every leader to one "…" (`collapse_leaders`), and an entry, or a run of them,
is never quoted (`is_contents_run`), whatever its script.
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from workbench.text.fts_text import WORD_CHARS

_TOKEN = regex.compile(rf"[{WORD_CHARS}][{WORD_CHARS}_'’.-]*")  # combining marks too ("परिवर्तन")
MIN_TOKENS = 8  # shorter runs are judged by other rules (too few words to quote)
# A cased-script sentence with fewer lower-case words than this share of its tokens is a label
# run. Chosen a priori; on the candidate sentences of the fit questions (full text and SciFact,
# 4,073 sentences) 0.1-0.25 drop 10-27 sentences and no answer-bearing one, 0.3 drops one; on the
# held-out questions' 2,261, 0.2 drops 7 and no answer-bearing one.
LOWER_SHARE = 0.2


# A leader: four or more dots, ellipses or middle dots, single spaces allowed between them
# ("........", ". . . .", "……"). Three dots are an ellipsis; one middle dot is a product or a
# derivative ("θ ·"). The dots are any of the characters fonts draw leaders with: the full stop
# and its one- and two-dot leader forms, middle dots (Latin, Greek, katakana, hyphenation point,
# operators) and the sinological dot "ꞏ" that Chinese thesis classes set (a letter to Unicode).
_DOTS = ".․‥…⋯·•‧∙⋅・ꞏ．"
_LEADER = re.compile(rf"[ \t]*(?:[{_DOTS}][ \t]?){{4,}}[ \t]*")
# A contents entry's end: a leader (collapsed or not) and a page number, Arabic or Roman.
_ROMAN = r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})|(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})"
_ENTRY_END = re.compile(rf"(?:…|⋯|(?:[{_DOTS}][ \t]?){{4,}})[ \t]*(?:\d{{1,4}}|{_ROMAN})\b")


def collapse_leaders(text: str) -> str:
    """The text with every leader ("Introduction ........ 1") made one " … " (line breaks kept)."""
    return _LEADER.sub(" … ", text)


def is_contents_run(text: str) -> bool:
    """Entries of a table of contents: two or more leaders each followed by a page number, or
    one that ends the text ("3.3.1 使用 PNP 算法求解外参平移矩阵简述 … 21")."""
    ends = list(_ENTRY_END.finditer(text))
    return len(ends) >= 2 or (bool(ends) and not text[ends[-1].end() :].strip(" .;"))


@lru_cache(maxsize=16384)  # asked of every candidate sentence at every pick
def is_label_run(text: str) -> bool:
    """A long run of capitalised words and numbers in a script with letter case, or entries of a
    table of contents in any script (see the module)."""
    if is_contents_run(text):
        return True
    tokens = _TOKEN.findall(text)
    if len(tokens) < MIN_TOKENS:
        return False
    letters = [c for c in text if c.isalpha()]
    cased = [c for c in letters if c.lower() != c.upper()]
    if not letters or 2 * len(cased) < len(letters):
        return False  # mostly a script without case: not judged
    lower = sum(1 for t in tokens if t[0].islower())
    return lower < LOWER_SHARE * len(tokens)
