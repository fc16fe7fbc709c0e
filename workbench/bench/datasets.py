"""Where the benchmarks find their data: the arguments first, then a data root, then the checkout.

Every dataset a benchmark reads is an argument (`--dataset`, `--pubmedqa`, `--questions`...).
One left out is looked up under the data root: `--data-root DIR`, else `$WORKBENCH_BENCH_DATA`,
else `../shared/data` beside a source checkout. The labelled sets the project writes itself
(intent queries, full-text questions, absent topics) are looked up the same way under
`--labels-dir`, else the checkout's `tests/data`. An installed wheel has neither default, so
a benchmark run from one names its data or stops with one line saying which flag to pass.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import UsageError

DATA_ROOT_ENV = "WORKBENCH_BENCH_DATA"
_CHECKOUT = Path(__file__).resolve().parents[2]  # the repository root when run from a source tree


@dataclass(frozen=True)
class DataRoots:
    """The two roots a left-out dataset is looked up under."""

    data: Path  # SciFact, PubMedQA, the shared PDFs and libraries (`../shared/data`)
    labels: Path  # the project's own labelled sets (`tests/data`)

    @classmethod
    def resolve(cls, data_root: Path | None = None, labels_dir: Path | None = None) -> DataRoots:
        """Arguments first, then `$WORKBENCH_BENCH_DATA`, then the checkout's defaults."""
        env = os.environ.get(DATA_ROOT_ENV, "").strip()
        data = data_root or (Path(env).expanduser() if env else _CHECKOUT.parent / "shared" / "data")
        return cls(data=data, labels=labels_dir or _CHECKOUT / "tests" / "data")

    def data_path(self, given: Path | None, relative: str, flag: str) -> Path:
        """`given`, else `relative` under the data root; one clear line when neither exists."""
        return _existing(given, self.data / relative, flag, f"--data-root or ${DATA_ROOT_ENV}")

    def label_path(self, given: Path | None, name: str, flag: str) -> Path:
        """`given`, else the labelled set `name` under the labels directory."""
        return _existing(given, self.labels / name, flag, "--labels-dir")


def _existing(given: Path | None, default: Path, flag: str, root_flag: str) -> Path:
    path = given or default
    if not path.exists():
        how = f"{flag} does not exist" if given else f"no {flag} given and the default is missing"
        raise UsageError(f"{how}: {path} (pass {flag} PATH, or {root_flag} for every dataset)")
    return path
