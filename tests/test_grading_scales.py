"""Scale words in any spacing and in other languages multiply the value (gsm8k/grading/numbers)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade


@pytest.mark.parametrize(
    ("stated", "answer"),
    [
        ("ANSWER: $18 bn", "18000000000"),
        ("ANSWER: $1.8 mil", "1800000"),
        ("ANSWER: $1.8 mln.", "1800000"),
        ("ANSWER: ₹18 lakh", "1800000"),
        ("ANSWER: 1.5 crore", "15000000"),
        ("ANSWER: 18万元", "180000"),
        ("ANSWER: 1.8亿", "180000000"),
        ("ANSWER: 18 mil dólares", "18000"),
        ("ANSWER: 18 millones de dólares", "18000000"),
        ("ANSWER: 18 Tausend Euro", "18000"),
        # Not a scale: no currency sign with an abbreviation, a unit, a word that starts alike.
        ("ANSWER: 18 mil", "18"),
        ("ANSWER: 18 bn", "18"),
        ("ANSWER: 18m", "18"),
        ("ANSWER: 18千克", "18"),
        ("ANSWER: 18 millers", "18"),
    ],
)
def test_a_scale_word_multiplies_the_value(stated: str, answer: str) -> None:
    assert grade(stated, answer).answer == answer
