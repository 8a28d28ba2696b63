from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading.numbers import (
    normalize,
    parse_gold,
    parse_number,
    same_number,
    uses_dot_thousands,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("18", "18", id="integer"),
        pytest.param("$1,080", "1080", id="currency-thousands-not-080"),
        pytest.param("1{,}234", "1234", id="latex-thousands"),
        pytest.param("-3 degrees", "-3", id="negative"),
        pytest.param("−3", "-3", id="unicode-minus"),
        pytest.param("18.00", "18", id="trailing-zeros"),
        pytest.param(".5", None, id="bare-leading-dot-not-a-number-start"),
        pytest.param("0.50", "0.5", id="decimal"),
        pytest.param("3/4", "0.75", id="plain-fraction"),
        pytest.param("\\frac{3}{4}", "0.75", id="latex-fraction"),
        pytest.param("16-3", "16", id="subtraction-not-a-sign"),
        pytest.param("no digits", None, id="no-number"),
        pytest.param("5/0", None, id="zero-denominator"),
        pytest.param("1\\,234", "1234", id="latex-thin-space-thousands"),
        pytest.param("¥1,200", "1200", id="yen"),
        pytest.param("₹1,00,000", "100000", id="rupee-indian-grouping"),
        pytest.param("5e-05", "0.00005", id="scientific-small"),
        pytest.param("3E+16", "30000000000000000", id="scientific-large"),
        pytest.param("x2 H2O", None, id="digits-after-latin-letters-are-not-numbers"),
        pytest.param("答案是5", "5", id="digits-after-cjk-are-numbers"),
        pytest.param("18 000", "18000", id="space-thousands"),
        pytest.param("16,50", "16.5", id="decimal-comma"),
        pytest.param("1,2,3", "1", id="list-is-not-a-decimal-comma"),
    ],
)
def test_parse_number(text: str, value: str | None) -> None:
    parsed = parse_number(text)
    assert (None if parsed is None else normalize(parsed)) == value


@pytest.mark.parametrize(
    ("text", "dot_thousands", "value"),
    [
        pytest.param("1.596", False, "1.596", id="english-decimal"),
        pytest.param("1.596", True, "1596", id="dot-thousands-text"),
        pytest.param("1.5", True, "1.5", id="one-decimal-is-never-thousands"),
    ],
)
def test_dot_before_three_digits_follows_the_text(
    text: str, dot_thousands: bool, value: str
) -> None:
    parsed = parse_number(text, dot_thousands)
    assert parsed is not None and normalize(parsed) == value


@pytest.mark.parametrize(
    ("text", "dot_thousands"),
    [
        pytest.param("Er zahlt 2,50 € für 1.596 Stück.", True, id="decimal-comma-evidence"),
        pytest.param("1.234.567 Einwohner", True, id="dot-groups-evidence"),
        pytest.param(
            "It costs 2.50 for 1.596 kg, or 2,50 in Europe.", False, id="mixed-is-english"
        ),
        pytest.param("It is 1.596 km.", False, id="no-evidence-is-english"),
    ],
)
def test_the_text_decides_its_convention(text: str, dot_thousands: bool) -> None:
    assert uses_dot_thousands(text) is dot_thousands


def test_normalize_is_exact_beyond_the_int_string_limit() -> None:
    digits = "9" * 5_000
    assert normalize(Decimal("-" + digits + ".000")) == "-" + digits


@pytest.mark.parametrize("value", ["Infinity", "NaN"])
def test_non_finite_values_are_refused(value: str) -> None:
    with pytest.raises(ValueError, match="not a finite number"):
        normalize(Decimal(value))
    assert not same_number(Decimal(value), Decimal("18"))


@pytest.mark.parametrize(
    ("answer", "target", "same"),
    [
        pytest.param(
            "123459", "123456", False, id="integers-exact-no-5-significant-digit-rounding"
        ),
        pytest.param("2880004", "2880000", False, id="millions-exact"),
        pytest.param("18.0", "18", True, id="integral-decimal-equals-integer"),
        pytest.param("17.999999999999996", "18", True, id="float-noise-within-tolerance"),
        pytest.param("17.99", "18", False, id="beyond-tolerance"),
        pytest.param("0.3333334", "0.3333333", True, id="decimal-within-1e-6"),
    ],
)
def test_same_number(answer: str, target: str, same: bool) -> None:
    assert same_number(Decimal(answer), Decimal(target)) is same


@pytest.mark.parametrize("gold", ["1,450,000", "-10", "18", "2.5"])
def test_parse_gold_accepts_numbers(gold: str) -> None:
    assert parse_gold(gold) == Decimal(gold.replace(",", ""))


@pytest.mark.parametrize("gold", ["", "18 dollars", "$18", "1/2", "eighteen"])
def test_parse_gold_rejects_anything_else(gold: str) -> None:
    with pytest.raises(ValueError, match="is not a number"):
        parse_gold(gold)
