"""Is a "sentence" prose, or the text of a table, a figure's labels or a header run together?

A PDF's text layer reads a table row, a diagram's labels ("Hash01 Hash2 Block Header Merkle
Root Prev Hash Nonce …"), axis ticks ("500 1000 0 5000 Input (MB/s) …"), a reference list or a
journal's running header as one long "sentence". Quoted as evidence it says nothing and takes
the place of a sentence that might. In a script with letter case, prose runs on lower-case
words (articles, verbs, prepositions: "the", "der", "и", "και"); such runs have almost none.
Scripts without case (Chinese, Japanese, Korean, Thai, Arabic …) are never judged by this.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[^\W_][\w'’.-]*")
MIN_TOKENS = 8  # shorter runs are judged by other rules (too few words to quote)
# A cased-script sentence with fewer lower-case words than this share of its tokens is a label
# run. Chosen a priori; on the candidate sentences of the fit questions (full text and SciFact,
# 4,073 sentences) 0.1-0.25 drop 10-27 sentences and no answer-bearing one, 0.3 drops one; on the
# held-out questions' 2,261, 0.2 drops 7 and no answer-bearing one.
LOWER_SHARE = 0.2


@lru_cache(maxsize=16384)  # asked of every candidate sentence at every pick
def is_label_run(text: str) -> bool:
    """A long run of capitalised words and numbers in a script with letter case (see the module)."""
    tokens = _TOKEN.findall(text)
    if len(tokens) < MIN_TOKENS:
        return False
    letters = [c for c in text if c.isalpha()]
    cased = [c for c in letters if c.lower() != c.upper()]
    if not letters or 2 * len(cased) < len(letters):
        return False  # mostly a script without case: not judged
    lower = sum(1 for t in tokens if t[0].islower())
    return lower < LOWER_SHARE * len(tokens)
