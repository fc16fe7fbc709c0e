"""The part of a search hit to show beside it: where the passage meets the query.

A passage's opening says little about why it was found ("6. Incentive By convention, the first
transaction in a block…" for "double spending"). The snippet is the passage's sentence that
shares most of the query's content words (hyphenated words count whole and by their parts,
Chinese, Japanese and Korean by character pairs), followed by the next sentences while they fit;
with no word shared (a hit found by meaning alone), the passage's opening. A table of
contents' dot leaders ("5.4 运动控制与追踪策略的研究 ........ 57") are shown as " … ".
"""

from __future__ import annotations

import re

from workbench.query.critic.claims import split_sentences
from workbench.query.critic.grounding import content_stems

SNIPPET_CHARS = 200
_LEADER = re.compile(r"\s*(?:[.．·…]\s*){5,}")  # five or more dots: a table of contents' leader


def _stems(text: str) -> set[str]:
    return {*content_stems(text), *content_stems(text.replace("-", " "))}


def snippet(text: str, query: str, width: int = SNIPPET_CHARS) -> str:
    """At most `width` characters of `text`, from the sentence that best matches `query` (see the module)."""
    flat = _LEADER.sub(" … ", " ".join(text.split()))
    wanted = _stems(query)
    # Sentences from the text as stored: a heading's paragraph break ends the heading's "sentence".
    sentences = [" ".join(s.split()) for s in split_sentences(_LEADER.sub(" … ", text))] if wanted else []
    shared = [len(wanted & _stems(s)) for s in sentences]
    if not shared or max(shared) == 0:
        return _shorten(flat, width)
    start = shared.index(max(shared))
    shown = sentences[start]
    for following in sentences[start + 1 :]:
        if len(shown) + 1 + len(following) > width:
            break
        shown = f"{shown} {following}"
    return _shorten(shown, width)


def _shorten(text: str, width: int) -> str:
    """The text cut to `width` characters at a word boundary where there is one, with "…"."""
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    if " " in cut[width // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + "…"
