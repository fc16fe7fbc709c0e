"""Regenerate `workbench/assets/lexicon/person_names.txt` and `given_names.txt` from Faker's lists
of personal names.

Faker (MIT licence) keeps given, family, middle and romanised names for 86 locales, gathered from
census and name-frequency lists. The title page's author test (`workbench.ingest.prose_names`)
asks one question of them: is this word somebody's name anywhere? So the file keeps every word of
every name, lower-cased, in the Latin script (the test reads Latin words only), one per line.
The name-list reader (`workbench.ingest.name_lists`) asks one more: can this word open a
person's name, a given name anywhere? `given_names.txt` keeps the words of the given-name lists.
Faker's licence travels with it in `LICENSE-Faker.txt`.

    pip install faker==40.63.0
    python tools/person_names.py
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib import metadata
from pathlib import Path

import regex

OUT = Path(__file__).resolve().parent.parent / "workbench" / "assets" / "lexicon"
_LATIN_WORD = regex.compile(r"[\p{Latin}\p{M}'’.-]+")


def name_words(given_only: bool = False) -> set[str]:
    """Every Latin-script word of every name list of every locale Faker's person provider has
    (of its given-name lists only, with `given_only`)."""
    import faker.providers.person as person  # a tool's dependency, not the workbench's

    words: set[str] = set()
    for module_info in pkgutil.iter_modules(person.__path__):
        provider = getattr(importlib.import_module(f"{person.__name__}.{module_info.name}"), "Provider", None)
        for cls in getattr(provider, "__mro__", ()):
            for attribute, value in vars(cls).items():
                if "names" not in attribute or attribute.startswith("language") or "format" in attribute:
                    continue
                if given_only and not attribute.startswith("first_"):
                    continue
                if isinstance(value, dict):
                    value = list(value)
                if isinstance(value, (list, tuple, set, frozenset)):
                    words.update(_words(value))
    return words


def _words(values: object) -> set[str]:
    found: set[str] = set()
    for value in values if isinstance(values, (list, tuple, set, frozenset)) else ():
        if isinstance(value, tuple):  # pairs of a name and its reading
            found.update(_words(value))
        elif isinstance(value, str):
            for word in value.replace("-", " ").split():
                if _LATIN_WORD.fullmatch(word) and any(c.isalpha() for c in word):
                    found.add(word.lower().strip(".'’"))
    return found - {""}


def main() -> int:
    version = metadata.version("faker")
    words = sorted(name_words())
    header = f"# Words of personal names in Faker {version}'s 86 locales, lower-cased; see tools/person_names.py\n"
    (OUT / "person_names.txt").write_text(header + "\n".join(words) + "\n", encoding="utf-8")
    given = sorted(name_words(given_only=True))
    header = f"# Words of given names in Faker {version}'s 86 locales, lower-cased; see tools/person_names.py\n"
    (OUT / "given_names.txt").write_text(header + "\n".join(given) + "\n", encoding="utf-8")
    licence = next(f for f in metadata.files("faker") or () if f.name.upper().startswith("LICEN"))
    (OUT / "LICENSE-Faker.txt").write_text(licence.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"{len(words)} name words, {len(given)} of given names, from Faker {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
