"""What each contamination signal says: its verdict, the sentence that reads it, the overall
verdict, and what the evidence cannot show (the numbers are computed in
:mod:`gsm8k.contamination.report`)."""

from __future__ import annotations

from typing import Any

from gsm8k.compare.stats import CONFIDENCE, SIGNIFICANCE
from gsm8k.contamination.stats import POWER

INDICATED = "memorization indicated"
NOT_DETECTED = "not detected"
REVERSED = "reversed"
INCONCLUSIVE = "inconclusive"
NO_EVIDENCE = "no evidence of memorization"

CANNOT_SHOW = (
    "No signal is not proof of a clean model: each signal bounds the effect (a difference "
    "smaller than its detectable size passes unseen), and a model can have seen the test set "
    "and still show none (trained on paraphrases or on solutions only, tuned not to recite, or "
    "solving these problems anyway).",
    "Fresh instances keep each template's wording and change its names and numbers: a drop "
    "says the model does worse on new numbers of the same problem, and the templates themselves "
    "are public since 2024, so a newer model may have seen them too.",
    "A drop can also come from fresh instances being harder than their originals (other "
    "numbers, larger values); GSM-Symbolic (Mirzadeh et al. 2024) reports drops and "
    "instance-to-instance variance even for models unlikely to have memorized.",
    "The probe compares words, not the model's tokens: a chat model that paraphrases, adds a "
    "preamble or refuses shows little recitation whatever it saw. Likelihood signals (Min-K%++) "
    "need the provider's prompt log-probabilities and are not part of this report.",
)


def verdict(signal: dict[str, Any]) -> tuple[str, str]:
    p, difference, detectable = signal["p_adjusted"], signal["difference"], signal["detectable"]
    first, second = signal["first"], signal["second"]
    shown = (
        f"{_points(difference)} ({_interval(signal)}; p={p:.3g}"
        + (", Holm-adjusted" if p != signal["p_value"] else "")
        + ")"
    )
    if p < SIGNIFICANCE and difference > 0:
        values = f"{first} {_value(signal, 'first')} against {second} {_value(signal, 'second')}"
        return INDICATED, f"{values}: {shown}."
    if p < SIGNIFICANCE:
        return REVERSED, (
            f"{second} higher than {first}: {shown}; no sign of memorization here ({second} "
            "texts may be easier)."
        )
    if signal["key"] == "accuracy" and signal["first_value"] <= detectable:
        return INCONCLUSIVE, (
            f"the model solves {signal['first_value']:.0%} of the originals, no more than the "
            f"{_points(detectable)} drop this run detects: a model this weak shows no drop "
            f"whether or not it saw the questions ({shown})."
        )
    return NOT_DETECTED, (
        f"{shown}; this run detects a difference of {_points(detectable)} or more "
        f"{POWER:.0%} of the time."
    )


def supporting_reading(signal: dict[str, Any]) -> str:
    return (
        f"{signal['first']} {_value(signal, 'first')} against {signal['second']} "
        f"{_value(signal, 'second')}: {_points(signal['difference'])} ({_interval(signal)}; "
        f"p={signal['p_value']:.3g}, not adjusted)."
    )


def overall(signals: list[dict[str, Any]]) -> dict[str, str]:
    indicated = [s for s in signals if s["verdict"] == INDICATED]
    accuracy = next((s for s in signals if s["key"] == "accuracy"), None)
    if indicated:
        names = ", ".join(s["name"] for s in indicated)
        if accuracy is not None and accuracy["verdict"] == INDICATED:
            reading = (
                f"the GSM8K originals score {_points(accuracy['difference'])} above fresh "
                "questions of the same templates: part of this model's GSM8K score does not "
                "carry over to new numbers of the same problems."
            )
        else:
            reading = (
                "the model continues GSM8K test texts more closely than texts it cannot have "
                "seen: it has seen the test set (its accuracy drop is "
                + ("not measured" if accuracy is None else accuracy["verdict"])
                + ")."
            )
        return {"verdict": INDICATED, "signals": names, "reading": reading}
    if accuracy is not None and accuracy["verdict"] in (NOT_DETECTED, REVERSED):
        return {
            "verdict": NO_EVIDENCE,
            "signals": "",
            "reading": (
                f"no signal reached significance; an accuracy drop of "
                f"{_points(accuracy['detectable'])} or more would have been seen "
                f"{POWER:.0%} of the time. This bounds the effect; it does not prove the model "
                "never saw the test set."
            ),
        }
    why = (
        "the accuracy drop was not measured"
        if accuracy is None
        else "the model solves too few originals for a drop to show"
    )
    return {
        "verdict": INCONCLUSIVE,
        "signals": "",
        "reading": f"no signal reached significance, but {why}: the evidence supports neither "
        "memorization nor its absence.",
    }


def _points(value: float) -> str:
    return f"{value * 100:+.1f} points"


def _interval(signal: dict[str, Any]) -> str:
    return f"{CONFIDENCE:.0%} CI {signal['ci_low'] * 100:+.1f} to {signal['ci_high'] * 100:+.1f}"


def _value(signal: dict[str, Any], side: str) -> str:
    value = signal[f"{side}_value"]
    return f"{value:.1%}" if signal["key"] == "accuracy" else f"{value:.3f}"
