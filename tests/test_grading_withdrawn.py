"""Answers the model withdraws or never settles on deliver nothing (docs/grading.md, "The
delivered answer"): a value ruled out in any form (negated, called wrong, struck through), an
answer followed by words that it cannot choose or is not sure, a retraction with nothing after
it, values per case, ranges in words, listed candidates, and two values joined in another
language or glyph. Every row is written after the working reaches the gold, 18: the grader must
not fall back on the working's number either.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

JANET = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with "
    "four. She sells the rest for $2 per egg. How much in dollars does she make every day?"
)
WORKING = "16 - 3 - 4 = 9 eggs are left, and 9 * 2 = 18.\n"

ENDINGS = [
    pytest.param("ANSWER: 18 is incorrect", id="answer-line-called-incorrect"),
    pytest.param("ANSWER: 18 (wrong)", id="answer-line-called-wrong-in-brackets"),
    pytest.param("ANSWER: 18 ❌", id="answer-line-crossed-mark"),
    pytest.param("ANSWER: anything but 18", id="anything-but"),
    pytest.param("ANSWER: ¬18", id="logical-not"),
    pytest.param("ANSWER: 1̶8̶", id="digits-struck-with-overlays"),
    pytest.param("ANSWER: \\cancel{18}", id="latex-cancel"),
    pytest.param("The answer is ~~18~~.", id="answer-phrase-struck"),
    pytest.param("It's definitely not 18.", id="closing-negation-of-the-working-value"),
    pytest.param("I initially got 18 but that was wrong.", id="closing-value-called-wrong"),
    pytest.param("The answer is hardly 18.", id="hardly"),
    pytest.param("Die Antwort ist nicht 18.", id="german-negation"),
    pytest.param("\\boxed{18} is what a careless solver would write.", id="box-called-careless"),
    pytest.param("The answer is not 18.", id="answer-phrase-only-rules-out"),
    pytest.param("ANSWER: 18\n\nBut honestly 20 is equally likely.", id="equally-likely"),
    pytest.param("ANSWER: 18\n\nEither answer (18 or 20) should be accepted.", id="either-answer"),
    pytest.param("\\boxed{18}\n\nIt's a coin flip between 18 and 20.", id="coin-flip"),
    pytest.param("ANSWER: 18 (I'm equally happy with 20)", id="equally-happy-in-brackets"),
    pytest.param("ANSWER: 18\n\nI'm not sure.", id="not-sure-at-the-end"),
    pytest.param('{"answer": 18, "answer_2": 20}', id="second-answer-field"),
    pytest.param("answer: 18\nalternative_answer: 20", id="alternative-answer-line"),
    pytest.param(
        "So I'd lean towards 18, though 20 isn't out of the question.", id="not-out-of-the-question"
    ),
    pytest.param(
        "The total comes to 18, although 20 would also be a reasonable reading.",
        id="also-reasonable",
    ),
    pytest.param(
        "In the first case the answer is 18, in the second case 20, so it depends.", id="it-depends"
    ),
    pytest.param("ANSWER: 18\n\nI retract that answer.", id="retract"),
    pytest.param("ANSWER: 18\n\nDisregard the above.", id="disregard-the-above"),
    pytest.param("ANSWER: 18\n\nI take that back.", id="take-that-back"),
    pytest.param("So 18.\nNo wait. That can't be right.", id="closing-number-taken-back"),
    pytest.param(
        "The answer is 18.\n\nErm, ignore that answer, it's not right.", id="ignore-that-answer"
    ),
    pytest.param(
        "Answer: 18. Hmm, scratch that, I think I made an arithmetic error somewhere.",
        id="scratch-that-on-the-line",
    ),
    pytest.param("\\boxed{18}\n\nUgh, no, scrap that. I need to redo this.", id="scrap-and-redo"),
    pytest.param("ANSWER: 18\n\nHmm, I no longer trust that number.", id="no-longer-trusted"),
    pytest.param("ANSWER: 18\n\nEdit: this is incorrect.", id="edit-this-is-incorrect"),
    pytest.param("Candidates: 18, 20.", id="candidates-label"),
    pytest.param("Scenario A: 18\nScenario B: 20", id="per-scenario-lines"),
    pytest.param("For part (a): 18. For part (b): 20.", id="per-part"),
    pytest.param("At least 18, at most 20.", id="bounds-pair"),
    pytest.param("It's 18 up to 20.", id="up-to"),
    pytest.param("Possible answers:\n- 18\n- 20", id="possible-answers-list"),
    pytest.param("ANSWER: 18\nANSWER: 20\nANSWER: 18\nANSWER: 20", id="alternating-answer-lines"),
    pytest.param("\\boxed{20} \\quad \\boxed{18}", id="boxes-side-by-side"),
    pytest.param(
        "So we get 20 in the first case and 18 in the second case.", id="per-case-sentence"
    ),
    pytest.param("$18 is one answer, $20 is another.", id="one-answer-another"),
    pytest.param("The answer is $18 (alt. $20).", id="alt-abbreviation"),
    pytest.param("ANSWER: 18⁓20", id="swung-dash"),
    pytest.param("ANSWER: 18 ≈ 20", id="approximately-another-value"),
    pytest.param("ANSWER: 18 oppure 20", id="italian-or"),
    pytest.param("ANSWER: 18 eller 20", id="swedish-or"),
    pytest.param("ANSWER: 18または20", id="japanese-or"),
    pytest.param("Die Antwort ist 18, vielleicht 20.", id="german-maybe"),
    pytest.param("La respuesta es 18 o tal vez 20.", id="spanish-or-maybe"),
    pytest.param("答案是18，也可能是20。", id="chinese-or-maybe"),
    pytest.param("ANSWER: eighteen or twenty", id="number-words-or"),
    pytest.param("ANSWER: not eighteen", id="number-words-negated"),
    pytest.param(
        "\\boxed{18 \\text{ (or maybe } 9 \\times 2 + 2)}", id="arithmetic-alternative-in-a-box"
    ),
    pytest.param("ANSWER: 18 plus/minus 2", id="plus-slash-minus"),
    pytest.param("ANSWER: 20 → 18?", id="questioned-after-a-correction"),
    pytest.param("I'm not sure how much she makes.", id="not-sure-of-the-asked-quantity"),
    pytest.param("ANSWER: whatever the key says (18?)", id="only-a-questioned-bracket"),
]


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_withdrawn_or_undecided_answer_delivers_nothing(ending: str) -> None:
    verdict = grade(WORKING + ending, "18", question=JANET)
    assert verdict.answer is None, verdict.rule
