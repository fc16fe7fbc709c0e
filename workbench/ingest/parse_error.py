"""The one exception every parser raises: a file that cannot be read or made sense of.

It lives apart from `parse` so that the format parsers can raise it while `parse` imports them
for its registry.
"""

from __future__ import annotations


class ParseError(Exception):
    """A file could not be parsed; `reason` is one line fit to show to a user."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(reason.split()) or "unknown parse error"
        super().__init__(self.reason)
