"""The evidence scorer's question-aware features: rare question words, neighbours, answer kinds, pairs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.query.evidence import (
    FEATURE_NAMES,
    Candidate,
    EvidenceFinder,
    QuestionContext,
    pick,
    sentence_features,
)
from workbench.query.sentences import SentenceVectors
from workbench.records import Hit

INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}


def hit_with(text: str, doc: str = "d") -> Hit:
    return Hit(chunk_id=f"{doc}#t", doc_id=doc, title="T", section="methods", text=text, score=1.0,
               page_start=4, page_end=4, backend="both")  # fmt: skip


def hit(doc: str = "d") -> Hit:
    return Hit(chunk_id=f"{doc}#0", doc_id=doc, title="T", section="other", text="", score=1.0,
               page_start=4, page_end=4, backend="both")  # fmt: skip


def test_rare_question_words_weigh_more_than_common_ones() -> None:
    sentences = ["The network has nodes.", "The network nodes vote.", "Difficulty follows a moving average."]
    context = QuestionContext.of("How is the network difficulty adjusted?", sentences)
    rare = sentence_features(0.3, context.stems, context.entities, sentences[2], 0, "other", context=context)
    common = sentence_features(0.3, context.stems, context.entities, sentences[0], 0, "other", context=context)
    assert rare[INDEX["idf_coverage"]] > common[INDEX["idf_coverage"]]


def test_the_question_words_of_a_russian_paper_count() -> None:
    from workbench.query.evidence import DEFAULT_WEIGHTS

    sentences = [
        "Сеть состоит из узлов.",
        "Доказательство работы делает изменение прошлого блока слишком дорогим.",
    ]
    context = QuestionContext.of("Как доказательство работы защищает от изменения блока?", sentences)
    answer = sentence_features(0.3, context.stems, context.entities, sentences[1], 0, "other", context=context)
    other = sentence_features(0.3, context.stems, context.entities, sentences[0], 0, "other", context=context)
    assert answer[INDEX["coverage"]] > 0.5 and other[INDEX["coverage"]] == 0.0
    assert answer[INDEX["idf_coverage"]] > other[INDEX["idf_coverage"]]
    assert DEFAULT_WEIGHTS.probability(answer) > DEFAULT_WEIGHTS.probability(other)


def test_answer_kind_neighbours_and_new_words_are_features() -> None:
    context = QuestionContext.of("How many queries does the agent see?")
    assert context.kind == "number"
    answer = sentence_features(0.2, context.stems, context.entities, "It processes a total of 16,000 of them.", 2,
                               "other", context=context, neighbour=0.7, passage=0.7)  # fmt: skip
    echo = sentence_features(0.6, context.stems, context.entities, "The agent sees queries.", 2, "other",
                             context=context)  # fmt: skip
    assert answer[INDEX["answer_type"]] == 1.0 and echo[INDEX["answer_type"]] == 0.0
    assert answer[INDEX["neighbour_similarity"]] == 0.7 and answer[INDEX["passage_similarity"]] == 0.7
    assert answer[INDEX["new_words"]] > echo[INDEX["new_words"]]
    assert len(answer) == len(FEATURE_NAMES)


def test_a_sentence_that_does_not_name_the_subject_is_quoted_with_the_one_before() -> None:
    context = QuestionContext.of("How is the mining difficulty adjusted?")
    features = sentence_features(0.2, context.stems, context.entities, "It follows a moving average.", 0, "other",
                                 context=context)  # fmt: skip
    assert features[INDEX["coverage"]] == 0.0
    vector = np.array([1.0, 0.0], dtype=np.float32)
    lone = Candidate(hit(), "It follows a moving average.", vector, features, 0.9, previous="The difficulty varies.")
    evidence = pick([lone], limit=1, per_paper=1)
    assert evidence[0].sentence == "The difficulty varies. It follows a moving average."
    named = Candidate(hit(), "The difficulty follows a moving average.", vector, (0.2, 0.5), 0.9, previous="X y z.")
    assert pick([named], limit=1, per_paper=1)[0].sentence == "The difficulty follows a moving average."


def toy_finder(modulus: int) -> EvidenceFinder:
    """A finder whose deterministic stand-in embedder reads only a sentence's length."""

    def embed(texts: Sequence[str]) -> np.ndarray:
        return np.asarray([[1.0, float(len(t) % modulus)] for t in texts], dtype=np.float32)

    return EvidenceFinder(lambda q: embed([q])[0], SentenceVectors(embed))


def test_the_next_sentence_is_quoted_when_it_carries_the_answer_the_question_asks_for() -> None:
    passage = (
        "The sort program reads its input from the cluster file system. "
        "The read rate peaks at about 13 GB/s before the map tasks finish. "
        "Output goes to a separate set of machines."
    )
    finder = toy_finder(7)
    found = {c.sentence: c for c in finder.candidates("What was the peak input read rate?", [hit_with(passage)])}
    introduces = found["The sort program reads its input from the cluster file system."]
    assert introduces.quoted.endswith("The read rate peaks at about 13 GB/s before the map tasks finish.")
    answers = found["The read rate peaks at about 13 GB/s before the map tasks finish."]
    assert answers.quoted == answers.sentence  # the next one has no number: quoted alone


def test_a_sentence_that_goes_on_from_this_one_is_quoted_with_it() -> None:
    from workbench.query.evidence import CONTINUES

    assert CONTINUES.match("It stores one copy of each block header.")
    assert CONTINUES.match("To do so, each node keeps a moving average.")
    assert not CONTINUES.match("Nodes keep a moving average.")
    assert not CONTINUES.match("Items are hashed.")  # "It" only as a whole word
    assert CONTINUES.match("To solve this, we proposed a peer-to-peer network using proof-of-work.")
    assert CONTINUES.match("In order to avoid these, the node waits.")
    assert not CONTINUES.match("To show that the bound holds, we use induction.")  # "that" opens a clause


def test_a_compound_matches_the_question_in_either_spelling() -> None:
    sentences = [
        "We implement the proof-of-work by incrementing a nonce.",
        "Honest nodes reject double spending at once.",
        "Each cell of the non-small-cell grid is hashed.",
    ]
    spelled = QuestionContext.of("how does proof of work prevent double spending", sentences)
    pow_sentence = sentence_features(0.3, spelled.stems, spelled.entities, sentences[0], 0, "other", context=spelled)
    assert pow_sentence[INDEX["coverage"]] == 0.4  # "proof" and "work" of five question words
    hyphenated = QuestionContext.of("how does the network stop double-spending", sentences)
    spaced = sentence_features(0.3, hyphenated.stems, hyphenated.entities, sentences[1], 0, "other",
                               context=hyphenated)  # fmt: skip
    assert spaced[INDEX["coverage"]] > 0.0
    # A hyphenated word's parts alone never count: "cell" of "non-small-cell" is not the question's "cell".
    cells = QuestionContext.of("what does a cell store", sentences)
    assert cells.stems_of(sentences[2]) & {"cell"} == {"cell"}  # the plain word "cell" of that sentence
    assert "small" not in QuestionContext.of("how small is a cell", sentences).stems_of(sentences[2])


def test_a_targeted_answer_reads_further_into_the_paper_retrieval_leads_with() -> None:
    from workbench.query.gather import lead_paper_pool

    ranked = [hit_with(f"passage {i}", doc) for i, doc in enumerate("abacbcbadcbbbaab")]
    pool = lead_paper_pool(ranked, read=4, more=3)
    assert [h.text for h in pool[:4]] == ["passage 0", "passage 1", "passage 2", "passage 3"]
    # a and b hold two of the first four each: the tie goes to a, ranked first
    assert [(h.doc_id, h.text) for h in pool[4:]] == [("a", "passage 7"), ("a", "passage 13"), ("a", "passage 14")]
    assert lead_paper_pool(ranked, read=4, more=0) == ranked[:4]
    assert lead_paper_pool([], read=8, more=8) == []
    assert len(lead_paper_pool(ranked[:3], read=8, more=8)) == 3  # nothing past the first read


def test_one_paper_may_fill_the_evidence_when_most_passages_read_come_from_it() -> None:
    from workbench.query.gather import per_paper_cap

    mostly_a = [hit("a"), hit("a"), hit("a"), hit("b")]
    assert per_paper_cap(mostly_a, per_paper=3, sentences=6) == 6
    spread = [hit("a"), hit("b"), hit("c"), hit("a")]
    assert per_paper_cap(spread, per_paper=3, sentences=6) == 6  # half is enough
    assert per_paper_cap([hit("a"), hit("b"), hit("c")], per_paper=3, sentences=6) == 3
    assert per_paper_cap([], per_paper=3, sentences=6) == 3


def test_a_long_chinese_sentence_is_not_a_fragment() -> None:
    context = QuestionContext.of("轮腿式机器人如何保持平衡？")
    sentence = "实验表明该方法使轮腿式机器人在崎岖地面上保持平衡。"
    features = sentence_features(0.3, context.stems, context.entities, sentence, 0, "other", context=context)
    assert features[INDEX["fragment"]] == 0.0
    short = sentence_features(0.3, context.stems, context.entities, "保持平衡。", 0, "other", context=context)
    assert short[INDEX["fragment"]] == 1.0


def test_a_table_row_is_quoted_only_when_it_holds_the_number_asked_for() -> None:
    passage = (
        "Crazy Stone played matches against two programs. "
        "Player Opponent Winning Rate Komi CrazyStone Indigo 2005 61% 6.5 CrazyStone GNU Go 3.6 28% 6.5 Table 2. "
        "The results favour the tree search."
    )
    finder = toy_finder(5)
    table = "Player Opponent Winning Rate"

    def quotes(question: str) -> list[str]:
        return [e.sentence for e in pick(finder.candidates(question, [hit_with(passage)]), 6, 6)]

    assert any(q.startswith(table) for q in quotes("What winning rate did CrazyStone reach against Indigo 2005?"))
    assert not any(q.startswith(table) for q in quotes("Which opponents did CrazyStone play?"))


def test_a_paper_saying_again_what_a_quote_shows_is_not_quoted_twice() -> None:
    def candidate(doc: str, sentence: str, score: float, direction: Sequence[float]) -> Candidate:
        vector = np.asarray(direction, dtype=np.float32)
        return Candidate(hit(doc), sentence, vector / np.linalg.norm(vector), (0.5, 0.5), score)

    longer = ("In this paper, we propose a solution to the double-spending problem using a peer-to-peer "
              "distributed timestamp server to generate computational proof of the chronological order.")  # fmt: skip
    shorter = "We propose a solution to the double-spending problem using a peer-to-peer network."
    other = "Nodes accept the longest chain as proof of what happened."
    same_paper = [candidate("d", longer, 0.9, [1, 0, 0]), candidate("d", shorter, 0.8, [0.8, 0.6, 0]),
                  candidate("d", other, 0.3, [0, 0, 1])]  # fmt: skip
    quoted = [e.sentence for e in pick(same_paper, 3, 3)]
    assert shorter not in quoted and longer in quoted and other in quoted
    # Another paper saying the same corroborates it: both are quoted.
    two_papers = [candidate("d", longer, 0.9, [1, 0, 0]), candidate("e", shorter, 0.8, [0.8, 0.6, 0])]
    assert shorter in [e.sentence for e in pick(two_papers, 3, 3)]
