"""Test data and a test engine for the TUI tests (nothing here is used by production code).

`TestEngine` is the real engine, over the real stores and the real Kùzu graph the fixture
builds, with the deterministic stand-in model injected through the engine's own `model=`
parameter.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from workbench.engine.engine import Engine
from workbench.engine.records import DocumentDetail
from workbench.llm.base import Message, StreamChunk
from workbench.llm.stand_in import StandInModel
from workbench.records import SearchResult
from workbench.settings.config import Settings

PAPERS: dict[str, str] = {
    "graphene.md": (
        "---\ntitle: Electron mobility in graphene\nauthors:\n  - Novoselov, Konstantin\n  - Geim, Andre\n"
        "year: 2004\n---\n\n# Electron mobility in graphene\n\n## Abstract\n\n"
        "Graphene shows very high electron mobility at room temperature. We measured mobility in "
        "suspended graphene sheets and found values above 100000 cm2/Vs.\n\n## Methods\n\n"
        "Devices were fabricated by mechanical exfoliation and measured in a four-probe setup.\n\n"
        "## Results\n\nMobility exceeded 100000 cm2/Vs at low carrier density.\n"
    ),
    "yeast.md": (
        "---\ntitle: Caloric restriction and yeast ageing\nauthors:\n  - Kaeberlein, Matt\nyear: 2007\n---\n\n"
        "# Caloric restriction and yeast ageing\n\n## Abstract\n\n"
        "Caloric restriction extends the replicative lifespan of budding yeast through reduced nutrient "
        "signalling.\n\n## Results\n\nLifespan increased by 30 percent under 0.5 percent glucose.\n"
    ),
    "bitcoin.md": (
        "---\ntitle: Peer-to-peer electronic cash\nauthors:\n  - Nakamoto, Satoshi\nyear: 2008\n---\n\n"
        "# Peer-to-peer electronic cash\n\n## Abstract\n\n"
        "A purely peer-to-peer version of electronic cash would allow online payments without a "
        "financial institution. Proof-of-work timestamps prevent double spending.\n\n## Conclusion\n\n"
        "The network is robust in its unstructured simplicity.\n"
    ),
    "zebrafish.md": (
        "---\ntitle: Zebrafish fin regeneration\nauthors:\n  - Poss, Kenneth\n  - Keating, Mark\nyear: 2003\n"
        "---\n\n# Zebrafish fin regeneration\n\n## Abstract\n\n"
        "After amputation, blastema cells proliferate and regenerate the zebrafish fin within two weeks.\n\n"
        "## Methods\n\nFins were amputated and imaged daily.\n"
    ),
    "lattice.md": (
        "---\ntitle: Quenched lattice QCD with Wilson fermions\nauthors:\n  - Wilson, Kenneth\nyear: 1974\n"
        "---\n\n# Quenched lattice QCD with Wilson fermions\n\n## Abstract\n\n"
        "We study quenched lattices and fermion actions; the Wilson action removes doublers.\n"
    ),
}


class TestEngine(Engine):
    """The real engine (real stores, real graph) with the deterministic stand-in model (tests only)."""

    __test__ = False  # not a pytest test class

    def __init__(self, settings: Settings, model: StandInModel | None = None) -> None:
        super().__init__(settings, model=model or StandInModel())


class SlowStandInModel(StandInModel):
    """The stand-in model, streaming one word every `delay` seconds (to test cancelling)."""

    def __init__(self, delay: float = 0.05) -> None:
        super().__init__()
        self.delay = delay

    def stream(
        self, messages: Sequence[Message], max_tokens: int = 512, temperature: float = 0.0
    ) -> Iterator[StreamChunk]:
        """Like the stand-in's stream, slowly."""
        for chunk in super().stream(messages, max_tokens, temperature):
            time.sleep(self.delay)
            yield chunk


class FailingSearchEngine(TestEngine):
    """A test engine whose search always fails (errors must become notifications)."""

    __test__ = False

    def search(self, *args: object, **kwargs: object) -> SearchResult:
        """Fail like a broken store would."""
        raise RuntimeError("the chunk store is unreadable")


class SnapshotEngine(TestEngine):
    """A test engine whose document details name files by file name only.

    The papers live under a temporary folder whose path changes between runs; snapshots
    must not.
    """

    __test__ = False

    def document_detail(self, ref: str) -> DocumentDetail | None:
        """The engine's detail with each file path cut to its name."""
        detail = super().document_detail(ref)
        if detail is None:
            return None
        return replace(detail, files=tuple(replace(f, path=Path(f.path).name) for f in detail.files))
