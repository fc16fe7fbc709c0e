"""How the same-text threshold sits between real copies and distinct papers (`bench same-text`).

Every file the index would read under the given folders and Zotero storage folders is parsed as
indexing parses it and sketched (`workbench.ingest.text_sketch`); every pair of sketches is
compared. The output lists the pairs at or above `SAME_TEXT` (what indexing would record as one
text), the closest pairs below it, and the distribution, so that the threshold, set before any
measurement, can be checked on libraries it has never seen. Pairs with the same bytes are counted
apart: the content hash catches those already.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from workbench.bench.ingest import peak_rss_mb
from workbench.ingest.parse import SUPPORTED_SUFFIXES, parse_file
from workbench.ingest.parse_error import ParseError
from workbench.ingest.text_sketch import NOT_THE_FILES, SAME_TEXT, text_sketch

CLOSEST_BELOW = 15  # pairs under the threshold listed, the closest first
_FLOOR = 0.3  # pairs under this resemblance are counted, not listed


def _files(zotero_dirs: list[Path], folders: list[Path]) -> list[Path]:
    roots = [d.expanduser() / "storage" for d in zotero_dirs] + [f.expanduser() for f in folders]
    found = {p.resolve() for root in roots for p in root.rglob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES}
    return sorted(p for p in found if p.is_file())


def bench_same_text(zotero_dirs: list[Path], folders: list[Path]) -> dict[str, Any]:
    """Sketch every readable file and report the resemblance of every pair."""
    started = time.perf_counter()
    names: list[str] = []
    rows: list[np.ndarray] = []
    digests: list[str] = []
    too_short = unreadable = 0
    files = _files(zotero_dirs, folders)
    for path in files:
        try:
            parsed = parse_file(path)
        except ParseError:
            unreadable += 1
            continue
        sketch = text_sketch(s.text for s in parsed.sections if s.name not in NOT_THE_FILES)
        if sketch is None:
            too_short += 1
            continue
        names.append(str(path))
        rows.append(np.frombuffer(sketch, dtype="<u4"))
        digests.append(hashlib.sha256(path.read_bytes()).hexdigest())
    matrix = np.vstack(rows) if rows else np.zeros((0, 1), dtype="<u4")
    pairs: list[tuple[float, int, int]] = []
    histogram: Counter[str] = Counter()
    for i in range(len(names)):
        scores = (matrix[i + 1 :] == matrix[i]).mean(axis=1)
        histogram.update(f"{min(int(s * 10), 9) / 10:.1f}" for s in scores)
        pairs.extend((float(scores[k]), i, i + 1 + int(k)) for k in np.nonzero(scores >= _FLOOR)[0])
    pairs.sort(reverse=True)

    def listed(score: float, i: int, j: int) -> dict[str, Any]:
        return {"resemblance": round(score, 3), "a": names[i], "b": names[j], "same_bytes": digests[i] == digests[j]}

    same = [listed(*p) for p in pairs if p[0] >= SAME_TEXT]
    return {
        "threshold": SAME_TEXT,
        "files": len(files),
        "sketched": len(names),
        "too_short": too_short,
        "unreadable": unreadable,
        "pairs": len(names) * (len(names) - 1) // 2,
        "same_text_pairs": len(same),
        "same_text_pairs_other_bytes": sum(not p["same_bytes"] for p in same),
        "same_text": same,
        "closest_below": [listed(*p) for p in pairs if p[0] < SAME_TEXT][:CLOSEST_BELOW],
        "histogram": dict(sorted(histogram.items())),  # pairs by resemblance, in tenths (0.9: 0.9 to 1.0)
        "seconds": round(time.perf_counter() - started, 1),
        "peak_rss_mb": peak_rss_mb(),
    }
