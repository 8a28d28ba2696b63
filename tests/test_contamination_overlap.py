"""The probe's measures: words, ROUGE-L, exact match and n-gram accuracy, counted by hand."""

from __future__ import annotations

import pytest

from gsm8k.contamination.overlap import PREAMBLE_WORDS, lcs_length, overlap, rouge_l, words
from gsm8k.contamination.probe import cut, cut_points


def test_words_keep_numbers_whole_and_drop_annotations_and_punctuation() -> None:
    text = "He paid $1,450 for <<2*3=6>>6 apples, then 3.5 more."
    assert words(text) == ["he", "paid", "1,450", "for", "6", "apples", "then", "3.5", "more"]


@pytest.mark.parametrize(
    ("candidate", "reference", "expected"),
    [
        pytest.param("a b c d", "a c d e", 0.75, id="lcs-3-of-4-both-ways"),
        pytest.param("a b", "a b c d", 2 * 1.0 * 0.5 / 1.5, id="prefix-half-recall"),
        pytest.param("x y", "a b", 0.0, id="nothing-in-common"),
        pytest.param("d c b a", "a b c d", 0.25, id="order-matters"),
    ],
)
def test_rouge_l_by_hand(candidate: str, reference: str, expected: float) -> None:
    assert rouge_l(candidate.split(), reference.split()) == pytest.approx(expected)


def test_lcs_of_interleaved_sequences() -> None:
    assert lcs_length(list("abcbdab"), list("bdcaba")) == 4  # the textbook pair: "bcba"


def test_a_verbatim_continuation_scores_one_on_every_measure() -> None:
    result = overlap(
        "the remainder at the market for $2 each.", "the remainder at the market for $2 each"
    )
    assert (result.exact, result.rouge_l, result.ngram) == (1.0, 1.0, 1.0)


def test_text_after_the_reference_is_not_held_against_the_continuation() -> None:
    result = overlap("a b c d e f g and then much more", "a b c d e f g")
    assert (result.exact, result.rouge_l, result.ngram) == (1.0, 1.0, 1.0)


def test_one_changed_number_breaks_exact_match_but_not_the_first_five_words() -> None:
    # 8 reference words, 7 in common in order: ROUGE-L 7/8; the first five agree.
    result = overlap(
        "she sells the rest for 3 dollars each", "she sells the rest for 2 dollars each"
    )
    assert result.exact == 0.0
    assert result.ngram == 1.0
    assert result.rouge_l == pytest.approx(7 / 8)


def test_a_repeat_of_the_shown_text_is_dropped_before_scoring() -> None:
    shown = "Janet has 16 eggs. She sells"
    result = overlap("She sells the rest at the market.", "the rest at the market.", shown)
    assert result.exact == 1.0


def test_a_short_preamble_is_skipped() -> None:
    result = overlap("Sure! Here it is: the rest at the market.", "the rest at the market.")
    assert (result.exact, result.rouge_l, result.ngram) == (1.0, 1.0, 1.0)


def test_text_that_starts_beyond_the_preamble_allowance_misses() -> None:
    # Nine words of preamble: one more than PREAMBLE_WORDS.
    preamble = "w " * (PREAMBLE_WORDS + 1)
    result = overlap(preamble + "the rest at the market", "the rest at the market")
    assert (result.exact, result.ngram) == (0.0, 0.0)
    # Best window starts at word 8: "w the rest at the" shares 4 of 5 words in order.
    assert result.rouge_l == pytest.approx(0.8)


def test_cut_keeps_the_published_text_on_both_sides() -> None:
    text = "one two\nthree four five six"
    assert cut(text, 0.5) == ("one two\nthree", "four five six")
    assert cut("single", 0.5) is None
    assert cut_points(1) == [0.5]
    assert cut_points(3) == [0.25, 0.5, 0.75]


@pytest.mark.parametrize(
    "continuation",
    [
        pytest.param("", id="empty"),
        pytest.param("\x00\ufffd" * 1000, id="nul-and-replacement-characters"),
        pytest.param("the rest " * 200_000, id="a-million-words"),
        pytest.param("<<" * 50_000 + "1" * 100_000, id="unclosed-annotations-and-a-long-number"),
    ],
)
def test_hostile_continuations_score_in_range(continuation: str) -> None:
    result = overlap(continuation, "the rest at the market for $2 each", "She sells")
    for value in (result.exact, result.rouge_l, result.ngram):
        assert 0.0 <= value <= 1.0
    assert result.exact == 0.0
