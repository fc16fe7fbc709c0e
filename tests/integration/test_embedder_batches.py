"""The offline embedder on its own onnxruntime session: order kept, batching changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.llm.embed import OFFLINE_MODEL, Embedder
from workbench.settings.paths import default_models_dir

pytestmark = pytest.mark.integration

TEXTS = [
    "Caloric restriction extends the replicative lifespan of yeast.",
    "Suspended graphene " * 60,  # truncated at 256 tokens
    "Wilson fermions remove doublers in quenched lattice simulations of quantum chromodynamics.",
    "Proof of work.",
]


def test_vectors_keep_the_input_order_and_do_not_depend_on_the_batching() -> None:
    small = Embedder(OFFLINE_MODEL, default_models_dir(), batch_size=32, max_batch_tokens=256)
    large = Embedder(OFFLINE_MODEL, default_models_dir(), batch_size=32, max_batch_tokens=4096)
    together = small.embed_passages(TEXTS)
    assert together.shape == (4, 384)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    one_by_one = np.stack([small.embed_passages([t])[0] for t in TEXTS])
    assert np.allclose(together, one_by_one, atol=1e-5)
    assert np.allclose(together, large.embed_passages(TEXTS), atol=1e-5)
    # a query is the same text embedded alone, and the nearest passage is its own
    query = small.embed_query(TEXTS[2])
    assert int(np.argmax(together @ query)) == 2


def test_the_offline_model_needs_no_fastembed_import() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from workbench.llm.embed import Embedder, OFFLINE_MODEL; from workbench.settings.paths import "
        "default_models_dir; Embedder(OFFLINE_MODEL, default_models_dir()).embed_query('x'); "
        "print('fastembed' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
