"""Evidence selection without models: sentence splitting, scoring inputs, MMR, the per-paper cap,
near-duplicates, the vector cache, and grouping by paper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from workbench.formats.answers import group_by_paper
from workbench.query.critic.grounding import content_stems
from workbench.query.evidence import Candidate, EvidenceFinder, pick, quoted_vector, sentence_features
from workbench.query.sentences import SentenceVectors, passage_sentences
from workbench.records import Hit
from workbench.stores.sentence_cache import SentenceVectorCache


def hit(doc: str, text: str, section: str = "results", chunk: str | None = None, title: str = "") -> Hit:
    return Hit(chunk or f"{doc}-{abs(hash(text)) % 10_000}", doc, title or doc.upper(), section, text, 3, 3, 1.0,
               "hybrid")  # fmt: skip


def candidate(doc: str, sentence: str, score: float, vector: Sequence[float]) -> Candidate:
    v = np.asarray(vector, dtype=np.float32)
    return Candidate(hit(doc, sentence), sentence, v / np.linalg.norm(v), (score,), score)


class BagOfWords:
    """A deterministic embedder: counts of a fixed vocabulary (enough to make similarity meaningful)."""

    VOCAB = ("graphene", "mobility", "yeast", "lifespan", "phonon", "temperature", "protein", "cm2")

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        rows = [[t.lower().count(w) + 0.01 for w in self.VOCAB] for t in texts]
        return np.asarray(rows, dtype=np.float32)

    def query(self, text: str) -> np.ndarray:
        return self([text])[0]


def test_passage_sentences_drop_fragments_and_the_title() -> None:
    text = (
        "Graphene mobility. Fig. 2 shows the Hall bar we measured at low temperature. 12.5 ± 3. "
        "Electron Transport In Graphene."
    )
    sentences = passage_sentences(text, title="Electron transport in graphene")
    assert sentences == ["Fig. 2 shows the Hall bar we measured at low temperature."]


def test_a_script_s_own_full_stop_ends_a_sentence() -> None:
    # Before, a danda was no full stop: two Hindi sentences were one, and a short one ending its
    # paragraph read as a heading and was never quoted.
    text = "गेहूं का उत्पादन बारह प्रतिशत घट गया।\n\nवर्षा के पैटर्न में बदलाव से फसल उत्पादन प्रभावित होता है। अध्ययन तीस वर्षों का है।"
    assert passage_sentences(text) == [
        "गेहूं का उत्पादन बारह प्रतिशत घट गया।",
        "वर्षा के पैटर्न में बदलाव से फसल उत्पादन प्रभावित होता है।",
        "अध्ययन तीस वर्षों का है।",
    ]
    assert len(passage_sentences("ရာသီဥတု ပြောင်းလဲမှု သည် စပါး အထွက်နှုန်း ကို လျော့ကျစေသည်။ နောက်ထပ် လေ့လာမှု များ လိုအပ်သည်။")) == 2


def test_features_reward_question_words_and_names() -> None:
    stems = content_stems("graphene mobility")
    features = sentence_features(0.5, stems, {"brca1"}, "BRCA1 raises graphene mobility.", 0, "abstract")
    assert features[1] == 1.0 and features[2] == 1.0
    weaker = sentence_features(0.5, stems, {"brca1"}, "It is purple.", 3, "references")
    assert weaker[1] == 0.0 and weaker[2] == 0.0 and weaker[3] < features[3]


def test_pick_caps_each_paper_and_numbers_in_order() -> None:
    candidates = [
        candidate("a", "A one.", 0.9, [1, 0, 0]),
        candidate("a", "A two.", 0.8, [0, 1, 0]),
        candidate("a", "A three.", 0.7, [0, 0, 1]),
        candidate("b", "B one.", 0.6, [1, 1, 0]),
    ]
    chosen = pick(candidates, limit=3, per_paper=2)
    assert [e.sentence for e in chosen] == ["A one.", "A two.", "B one."]
    assert [e.marker for e in chosen] == ["1", "2", "3"]
    assert chosen[0].doc_id == "a" and chosen[0].page_start == 3


def test_pick_skips_near_duplicates_and_weak_sentences() -> None:
    candidates = [
        candidate("a", "Mobility is 15000.", 0.9, [1, 0, 0]),
        candidate("b", "The mobility is 15000.", 0.85, [1, 0.01, 0]),  # the same statement in another paper
        candidate("c", "Something else entirely.", 0.5, [0, 1, 0]),
        candidate("d", "Barely related.", 0.15, [0, 0, 1]),  # under the relative floor
    ]
    chosen = pick(candidates, limit=5, per_paper=3)
    assert [e.sentence for e in chosen] == ["Mobility is 15000.", "Something else entirely."]


def test_diversity_weighs_the_same_whatever_the_scale_of_the_scores() -> None:
    # A hard question's scores are small; an easy one's large. Which sentences are picked, and in
    # what order, must not depend on that scale: a fixed penalty for resembling a kept sentence
    # outweighed the whole score of a weak answer and pushed it out for an unrelated sentence.
    def chosen(scale: float) -> list[str]:
        candidates = [
            candidate("a", "Garbage collection keeps the sets small.", 0.12 * scale, [1, 0, 0]),
            candidate("a", "A gossip-based collector runs in the background.", 0.09 * scale, [0.6, 0.8, 0]),
            candidate("b", "Cells of the embryo form tissue.", 0.06 * scale, [0, 0, 1]),
        ]
        return [e.sentence for e in pick(candidates, limit=2, per_paper=3)]

    assert chosen(1.0) == chosen(7.0)
    assert chosen(1.0) == [
        "Garbage collection keeps the sets small.",
        "A gossip-based collector runs in the background.",  # resembles the first, scores above the third
    ]


def test_a_sentence_well_below_a_confident_first_one_is_still_evidence() -> None:
    # The answer often scores a third of the sentence that restates the question (fulltext fit set):
    # the relative floor must not cut the evidence down to that one sentence.
    candidates = [
        candidate("a", "Crazy Stone won the 10th KGS computer-Go tournament.", 0.285, [1, 0, 0]),
        candidate("a", "It won ahead of 8 participants, including GNU Go.", 0.064, [0, 1, 0]),
    ]
    chosen = pick(candidates, limit=6, per_paper=6)
    assert len(chosen) == 2


def test_finder_ranks_the_answering_sentence_first_and_caches_vectors(tmp_path: Path) -> None:
    embed = BagOfWords()
    cache = SentenceVectorCache(tmp_path, "bag", len(BagOfWords.VOCAB))
    finder = EvidenceFinder(embed.query, SentenceVectors(embed, cache))
    hits = [
        hit("g", "Graphene has a mobility of 15000 cm2 at room temperature. The samples were cleaned.", "abstract"),
        hit("y", "Caloric restriction extends yeast lifespan by a third. The effect needs Sir2 protein."),
    ]
    evidence = finder.select("What is the mobility of graphene?", hits, limit=2, per_paper=2)
    assert evidence[0].sentence.startswith("Graphene has a mobility")
    assert evidence[0].section == "abstract"
    calls = embed.calls
    fresh = EvidenceFinder(embed.query, SentenceVectors(embed, cache))  # a new process: only the disk cache
    again = fresh.select("What is the mobility of graphene?", hits, limit=2, per_paper=2)
    assert embed.calls == calls + 1  # the query only; every sentence vector came from the cache
    assert [e.sentence for e in again] == [e.sentence for e in evidence]


def test_cache_ignores_entries_of_the_wrong_shape(tmp_path: Path) -> None:
    cache = SentenceVectorCache(tmp_path, "bag", 4)
    cache.put("c1", np.ones((2, 4)))
    assert cache.get("c1", 2) is not None
    assert cache.get("c1", 3) is None  # the chunk splits differently now: re-embed
    assert cache.get("missing", 1) is None


def test_group_by_paper_orders_papers_by_their_best_sentence() -> None:
    chosen = pick(
        [candidate("a", "A one.", 0.5, [1, 0, 0]), candidate("b", "B one.", 0.9, [0, 1, 0]),
         candidate("a", "A two.", 0.45, [0, 0, 1])],
        limit=3, per_paper=2,
    )  # fmt: skip
    groups = group_by_paper(chosen)
    assert [doc for doc, _ in groups] == ["b", "a"]
    assert [e.sentence for e in groups[1][1]] == ["A one.", "A two."]


def test_no_sentence_is_quoted_twice_when_a_quote_carries_its_neighbour() -> None:
    # The Bitcoin abstract: one sentence is picked alone, and the next one is quoted with it as
    # its subject (it shares no word with the question); the evidence showed the first twice.
    first = "Digital signatures provide part of the solution to payments online."
    second = "We propose a solution using a peer-to-peer network."
    alone = candidate("bitcoin", first, 0.5, [1, 0, 0])
    paired = Candidate(alone.hit, second, np.asarray([0, 1, 0], dtype=np.float32), (0.4, 0.0), 0.4, previous=first)
    assert paired.quoted == f"{first} {second}"  # quoted with the sentence before it
    chosen = pick([alone, paired], limit=6, per_paper=6)
    assert [e.sentence for e in chosen] == [first, second]
    # picked the other way round, the sentence already inside the pair's quote is not shown again
    chosen = pick([replace(alone, score=0.3), paired], limit=6, per_paper=6)
    assert [e.sentence for e in chosen] == [f"{first} {second}"]


def test_a_sentence_in_two_overlapping_passages_is_quoted_once() -> None:
    sentence = "The rate peaks at about 13 GB/s and dies off quickly."
    follows = "All map tasks finish before 200 seconds have elapsed."
    one = replace(candidate("mr", sentence, 0.5, [1, 0, 0]), following=follows)
    other = candidate("mr", follows, 0.45, [0, 1, 0])  # the same paper's next chunk starts with it
    chosen = pick([one, other], limit=6, per_paper=6)
    assert [e.sentence for e in chosen] == [f"{sentence} {follows}"]


def test_a_quote_that_lost_its_neighbour_still_finds_its_sentence_vector() -> None:
    # Callers that pick again (each side of a comparison, each aspect) exclude what was quoted by
    # its vector: a quote shortened by `pick` must still lead back to its own sentence.
    first = "Digital signatures provide part of the solution to payments online."
    second = "We propose a solution using a peer-to-peer network."
    alone = candidate("bitcoin", first, 0.5, [1, 0, 0])
    paired = Candidate(alone.hit, second, np.asarray([0, 1, 0], dtype=np.float32), (0.4, 0.0), 0.4, previous=first)
    chosen = pick([alone, paired], limit=6, per_paper=6)
    assert chosen[1].sentence == second != paired.quoted
    assert quoted_vector(chosen[1], [alone, paired]).tolist() == [0.0, 1.0, 0.0]
    assert quoted_vector(chosen[0], [alone, paired]).tolist() == [1.0, 0.0, 0.0]


def test_a_later_pick_of_the_same_answer_does_not_quote_again_what_an_earlier_one_did() -> None:
    # Each aspect, and each side of a comparison, picks in turn: a sentence inside an earlier quote
    # is not quoted again, alone or as a neighbour.
    first = "Digital signatures provide part of the solution to payments online."
    second = "We propose a solution using a peer-to-peer network."
    earlier = pick([candidate("bitcoin", first, 0.5, [1, 0, 0])], limit=1, per_paper=1)
    paired = replace(candidate("bitcoin", second, 0.4, [0, 1, 0]), features=(0.4, 0.0), previous=first)
    again = candidate("bitcoin", first, 0.6, [0, 0, 1])  # the same sentence from an overlapping passage
    later = pick([again, paired], limit=2, per_paper=2, shown=[e.sentence for e in earlier])
    assert [e.sentence for e in later] == [second]


def test_passage_sentences_leave_out_a_heading_but_not_a_cut_tail() -> None:
    text = (
        "Paxos is a protocol for state machine replication. 2 How and Why Paxos Works\n\n"
        "In order to tolerate f crashes, Paxos needs at least f + 1 replicas. When a client wants to run a command it"
    )
    assert passage_sentences(text) == [
        "Paxos is a protocol for state machine replication.",
        "In order to tolerate f crashes, Paxos needs at least f + 1 replicas.",
        "When a client wants to run a command it",
    ]


def test_passage_sentences_leave_out_the_title_block() -> None:
    # A summary's research question quoted "Paxos Made Moderately Complex Robbert van Renesse Cornell
    # University rvr@cs.cornell.edu March 25, 2011": the front matter, run on into one "sentence".
    title = "Paxos Made Moderately Complex"
    text = (
        "Paxos Made Moderately Complex Robbert van Renesse Cornell University rvr@cs.cornell.edu March 25, 2011\n\n"
        "For anybody who has ever tried to implement it, Paxos is by no means a simple protocol."
    )
    assert passage_sentences(text, title) == [
        "For anybody who has ever tried to implement it, Paxos is by no means a simple protocol."
    ]
    assert passage_sentences("Dynamo is a highly available key-value store.", "Dynamo") != []  # a short title


def test_a_title_block_run_on_into_the_first_sentence_stays() -> None:
    title = "An Industrial-Strength Audio Search Algorithm"
    text = (
        "An Industrial-Strength Audio Search Algorithm Avery Li-Chun Wang Shazam Entertainment, Ltd. "
        "London We have developed and commercially deployed a flexible audio search engine."
    )
    assert [s[-30:] for s in passage_sentences(text, title)] == ["deployed a flexible audio search engine."[-30:]]
