"""The embedder's batches are bounded by padded tokens, so indexing memory stays bounded."""

from __future__ import annotations

import random

from workbench.llm.embed import plan_batches
from workbench.settings.config import Settings


def test_every_text_lands_in_exactly_one_batch() -> None:
    lengths = [random.Random(seed).randint(1, 256) for seed in range(300)]
    batches = plan_batches(lengths, max_texts=32, max_tokens=512)
    assert sorted(i for batch in batches for i in batch) == list(range(300))


def test_padded_tokens_and_texts_per_batch_stay_under_the_bounds() -> None:
    lengths = [random.Random(seed).randint(1, 256) for seed in range(500)]
    for batch in plan_batches(lengths, max_texts=32, max_tokens=512):
        assert len(batch) <= 32
        assert len(batch) * max(lengths[i] for i in batch) <= 512


def test_short_texts_share_a_batch_and_long_ones_do_not() -> None:
    lengths = [10] * 40 + [256] * 4
    batches = plan_batches(lengths, max_texts=32, max_tokens=512)
    assert [len(b) for b in batches] == [32, 8, 2, 2]


def test_a_text_longer_than_the_budget_is_a_batch_of_its_own() -> None:
    assert plan_batches([600, 5], max_texts=32, max_tokens=512) == [[1], [0]]


def test_the_default_budget_is_two_full_chunks() -> None:
    settings = Settings()
    assert settings.embedding.max_batch_tokens // settings.index.max_chunk_tokens == 2
