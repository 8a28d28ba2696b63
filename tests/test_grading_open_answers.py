"""Answers the model leaves open, and remarks after a committed result (docs/grading.md, "The
delivered answer"): a disclaimed answer, values per case, ranges, values none of which is
committed, retractions in any words, and a result statement that asides do not displace."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

EGGS = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes "
    "muffins for her friends every day with four. She sells the remainder at the farmers' market "
    "daily for $2 per fresh duck egg. How much in dollars does she make every day at the "
    "farmers' market?"
)
WORK = "She sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = $18.\n"


def _answer(ending: str, question: str = EGGS) -> str | None:
    return grade(WORK + ending, "18", question=question).answer


# The model says it does not know its answer, is guessing, cannot choose: no answer.
DISCLAIMED = [
    pytest.param("I'm not sure, but maybe 18.", id="not-sure-then-maybe"),
    pytest.param("I genuinely don't know the answer. Possibly 18.", id="does-not-know-before"),
    pytest.param("Honestly, I'm stuck. 18 is a wild guess.", id="stuck-wild-guess"),
    pytest.param("Not confident at all, perhaps 18.", id="not-confident"),
    pytest.param("I cannot determine the answer with certainty. 18?", id="cannot-determine"),
    pytest.param("I'm unable to solve this reliably; a rough guess would be 18.", id="unable"),
    pytest.param("So 18. Or was it 20? I keep going back and forth.", id="back-and-forth"),
    pytest.param("The total is 18. Or is it 20? Hard to say.", id="hard-to-say"),
    pytest.param("I get 18. It might be 20, but I might have been right the first time.", id="w"),
    pytest.param("I'll go with 18. Or 20. Whichever is right.", id="whichever-is-right"),
    pytest.param("ANSWER: 18\nTake this with a grain of salt.", id="grain-of-salt"),
    pytest.param("La respuesta es 18, pero no estoy seguro.", id="spanish"),
    pytest.param("Jawabannya 18, saya tidak yakin.", id="indonesian"),
    pytest.param("The answer might be 18. Or 20. I genuinely cannot tell.", id="adverb-cannot"),
    pytest.param(
        "Totals vary (18 and 20). Sorry, I can't give a confident answer.", id="confident"
    ),
    pytest.param("She makes $18.\nI'm unable to provide a final answer.", id="unable-to-provide"),
    pytest.param("She makes $18.\nThis is a trick, so I will not provide a number.", id="will-not"),
    pytest.param(
        "She makes $18.\nThe question is vague, so no single answer exists.", id="no-single"
    ),
    pytest.param("She makes $18.\nI'd rather not give a final number.", id="rather-not"),
    pytest.param("With all eggs: 18. With half: 9. I'll leave the choice to you.", id="leave-it"),
    pytest.param("ANSWER: 18\nBoth 18 and 20 are reasonable, so any of those.", id="any-of-those"),
    pytest.param("ANSWER: 18\nThough 20 is just as defensible.", id="just-as-defensible"),
]


@pytest.mark.parametrize("ending", DISCLAIMED)
def test_a_disclaimed_answer_delivers_none(ending: str) -> None:
    assert _answer(ending) is None


# Not the model's doubt about its answer: a courtesy, modesty with a check, the question's own
# words, a doubt the working settles.
NOT_DISCLAIMED = [
    pytest.param(
        "So she makes $18 every day.\nLet me know if you're not sure about a step.", id="c"
    ),
    pytest.param("The answer is 18. I might be wrong, but I checked each step twice.", id="modest"),
    pytest.param("I can't be more certain about the answer: 18.", id="more-certain"),
    pytest.param("We don't know her costs, so we only count sales: $18.", id="premise-unknown"),
]


@pytest.mark.parametrize("ending", NOT_DISCLAIMED)
def test_a_courtesy_or_a_settled_doubt_keeps_the_answer(ending: str) -> None:
    assert _answer(ending) == "18"


def test_the_question_s_own_words_are_no_doubt() -> None:
    question = "Tim guesses 20 beans and Ann guesses 16. What is their average guess?"
    completion = "(20 + 16) / 2 = 18.\nTheir average guess is 18 beans."
    assert grade(completion, "18", question=question).answer == "18"


# With no answer mark, the sentence that states the working's last result is the answer
# statement; remarks after it leave it standing.
REMARKS = [
    pytest.param(
        "She makes $18 a day. In percentage terms, that's about 56% of the value.", id="pct"
    ),
    pytest.param("She makes $18 a day. That's 9 eggs at $2 each.", id="working-restated"),
    pytest.param("She makes $18 a day. Note that 16 is the number laid, not the answer.", id="n"),
    pytest.param("She makes $18 a day. Some people answer $32, which is wrong.", id="others"),
    pytest.param("She makes $18 a day. If she ate no eggs, she'd make $26.", id="hypothetical"),
    pytest.param("She makes $18 a day. Per week, that's $126.", id="another-period"),
    pytest.param("She makes $18 a day. Reminder: she eats 3 and bakes with 4.", id="reminder"),
]


@pytest.mark.parametrize("ending", REMARKS)
def test_remarks_after_the_result_statement_leave_it(ending: str) -> None:
    assert _answer(ending) == "18"


# What is not a remark: a plain new value, a conclusion, working in words, a value per case.
NOT_REMARKS = [
    pytest.param("She makes $18 a day. She makes $20 on Sundays.", "20", id="plain-new-value"),
    pytest.param("She makes $18 a day. So she makes $126 a week.", "126", id="conclusion"),
    pytest.param("She makes $18 a day. Then we multiply 18 by 7 to get 126.", "126", id="words"),
    pytest.param("She has 9 left.\nEdit: after re-checking, it is 20.", "20", id="edit-corrects"),
]


@pytest.mark.parametrize(("ending", "answer"), NOT_REMARKS)
def test_a_new_value_or_more_working_is_no_remark(ending: str, answer: str) -> None:
    assert _answer(ending) == answer


# Values per case, ranges, values none of which is committed: no answer.
OPEN = [
    pytest.param("If she sells at $2 per egg: $18.\nIf she sells at $3 per egg: $27.", id="if-if"),
    pytest.param("Plan A profit: $18. Plan B profit: $20.", id="relabelled"),
    pytest.param("- If rounding down: 18\n- If rounding up: 20", id="bulleted-cases"),
    pytest.param("Assuming whole eggs, 18. Allowing halves, 20.", id="participles"),
    pytest.param("If the question means per day, 18; if it means per week, 126.", id="semicolon"),
    pytest.param("Si se cuenta todo, 18; si no, 20.", id="spanish-cases"),
    pytest.param("The answer is 18 if she sells all, 20 if she keeps none.", id="one-sentence"),
    pytest.param("The answer is 18 with 60% probability, 20 with 40%.", id="probabilities"),
    pytest.param("She makes $18 to $20 a day.", id="range-to"),
    pytest.param("She makes $18, give or take a few ($16-$20).", id="range-dash"),
    pytest.param("The answer is any number from 16 to 20, e.g. 18.", id="any-number-from"),
    pytest.param("Final answer: 18? 20? 25?", id="questioned-values"),
    pytest.param("Final: 18?? 20??", id="questioned-no-mark"),
    pytest.param("So she makes $18... I think? Maybe $20.", id="asked-then-hedged"),
    pytest.param("20 — no wait, 18 — no, hmm, 20? Let me leave it there.", id="taken-back"),
    pytest.param("Final answer: 18 and/or 20", id="and-or"),
    pytest.param("答案是18，或者20。", id="chinese-or"),
    pytest.param("The answer is ±18.", id="plus-minus"),
    pytest.param('{"literal": 18, "intended": 20}', id="keyed-object"),
    pytest.param('{"answer": 20, "confidence": 0.5}\n{"answer": 18, "confidence": 0.5}', id="j"),
    pytest.param("She still makes $20, possibly $18.", id="comma-possibly"),
    pytest.param("It was $20 a day, if not $18.", id="if-not"),
    pytest.param("She made around $20, conceivably $18.", id="conceivably"),
    pytest.param("- 6 eggs sold: $12\n- 9 eggs sold: $18", id="relabelled-by-a-number"),
    pytest.param("Her take is 18 ± 2 dollars.", id="tolerance"),
    pytest.param("Final answers: 18 / 20", id="final-answers-listed"),
    pytest.param("Final answer: x, where x ∈ {16, 18, 20}.", id="a-set"),
    pytest.param("ANSWER: A) 18  B) 20", id="lettered-options"),
    pytest.param("ANSWER: 16,18,20", id="a-comma-list"),
    pytest.param("#### 16/18/20", id="a-slash-chain"),
    pytest.param("ANSWER: 18/20", id="unreduced-fraction"),
    pytest.param("Final: 16 ≤ answer ≤ 20", id="between-bounds"),
    pytest.param("She makes somewhere in 16...20 dollars.", id="ellipsis-range"),
    pytest.param("She makes $18, unless one egg broke, in which case $16.", id="in-which-case"),
    pytest.param("La réponse est soit 18, soit 20.", id="soit-soit"),
    pytest.param("ANSWER: 18 (60% confidence), 20 (40% confidence)", id="confidence-split"),
    pytest.param("She makes $18, give or take two.", id="give-or-take-two"),
    pytest.param("She makes $18.\nThe problem has no solution as stated.", id="no-solution"),
    pytest.param("She makes $18.\nThe answer depends on assumptions not given.", id="assumptions"),
]


@pytest.mark.parametrize("ending", OPEN)
def test_an_answer_left_open_delivers_none(ending: str) -> None:
    assert _answer(ending) is None


# Not open: a change from one value to another, working chains, labels that name the working,
# ruled-out lists.
NOT_OPEN = [
    pytest.param("Her income rose from $16 to $18.", "18", id="a-change"),
    pytest.param("Monday: $16.\nTuesday: $18.", "18", id="days-not-cases"),
    pytest.param("The answer is 18, not 20 or 32.", "18", id="ruled-out-list"),
    pytest.param("It is neither 16 nor 20 but 18.", "18", id="neither-nor"),
    pytest.param("She could sell 9 eggs + 0 more = 18 dollars' worth.", "18", id="computed"),
]


@pytest.mark.parametrize(("ending", "answer"), NOT_OPEN)
def test_a_change_a_chain_or_a_ruled_out_list_is_not_open(ending: str, answer: str) -> None:
    assert _answer(ending) == answer


# Retractions in any words only one's own answer takes, and a hedged value after one.
RETRACTED = [
    pytest.param("\\boxed{18}\n\nHold on, I think I messed up the egg count.", id="messed-up"),
    pytest.param("**Answer: $18**\n\nUpon reflection, my egg count is flawed.", id="flawed"),
    pytest.param("**Answer: $18**\n\nPlease disregard the answer above.", id="disregard"),
    pytest.param("Resposta: 18.\n\nEspera, errei o cálculo...", id="portuguese"),
    pytest.param("Therefore 18. Correction: maybe 20.", id="hedged-correction"),
    pytest.param("Definitely not 18. Not 9 either.", id="every-value-ruled-out"),
    pytest.param("**Answer: 18**\n\nWait — I think I got the price backwards.", id="backwards"),
    pytest.param("<answer>18</answer>\nI now realize that is wrong.", id="now-realize"),
    pytest.param("\\boxed{18}\n\nOn reflection this is incorrect.", id="on-reflection"),
    pytest.param("The answer is $18.\n\nHold on, that can't be correct.", id="cannot-be-correct"),
    pytest.param("She makes $18. Wait... is that right? No, let me reconsider.", id="reconsider"),
    pytest.param("<final_answer>None</final_answer>", id="final-answer-tag-none"),
    pytest.param("The answer: not enough data to say.", id="not-enough-data"),
    pytest.param("She makes $18. Wait, I think I inverted the egg counts...", id="inverted"),
    pytest.param("ANSWER: 18 — disregard this, I made an error somewhere.", id="dash-retraction"),
]


@pytest.mark.parametrize("ending", RETRACTED)
def test_a_retracted_answer_delivers_none(ending: str) -> None:
    assert _answer(ending) is None


# Honest endings after a result that read the result.
HONEST = [
    pytest.param("She makes $18 a day. Some might say $32, but that counts every egg.", id="some"),
    pytest.param(
        "She makes $18. We don't want 32, which forgets the eggs she eats.", id="dont-want"
    ),
    pytest.param(
        "She makes $18. It's tempting to answer 32, but that ignores the muffins.", id="t"
    ),
    pytest.param("She makes $18. An answer of 32 would count every egg.", id="an-answer-of"),
    pytest.param(
        "She makes $18; the $32 you might see elsewhere counts every egg.", id="elsewhere"
    ),
    pytest.param("She makes $18 a day. Over a 30-day month that adds up to $540.", id="month"),
    pytest.param(
        "She makes $18 a day. Hope this helps! Let me know if you want 2 or 3 more.", id="c"
    ),
    pytest.param("She makes $18, i.e. 1,800 cents.", id="another-unit"),
    pytest.param("\\boxed{\\text{eighteen}}", id="boxed-words"),
    pytest.param("<final_answer>18</final_answer>", id="final-answer-tag"),
    pytest.param("ANSWER: 6\nActually, on re-reading, the real total is 18.", id="real-total"),
    pytest.param(
        "The answer is 18, not 32 as one might get by counting every egg.", id="one-might"
    ),
    pytest.param("She makes $18 a day. Check: 9 × 2 = 18 ✓ (16 − 3 − 4 = 9)", id="check-line"),
    pytest.param("She makes $18 a day. Step recap: 16 → 9 → 18.", id="recap"),
    pytest.param("She makes $18, rather than $32 — she eats and bakes 7 eggs.", id="rather-than"),
    pytest.param("Draft answer: 16\nFinal answer: 18", id="draft-then-final"),
    pytest.param("答案是20。不对，应该是18。", id="chinese-correction"),
    pytest.param("Antwort: 20. Korrektur: 18.", id="german-correction"),
]


@pytest.mark.parametrize("ending", HONEST)
def test_honest_endings_read_the_result(ending: str) -> None:
    assert _answer(ending) == "18"


def test_a_courtesy_about_mistakes_retracts_nothing() -> None:
    assert _answer("ANSWER: 18\nLet me know if I made a mistake.") == "18"


def test_an_unhedged_correction_on_the_answer_line_corrects() -> None:
    assert _answer("ANSWER: 6 -- sorry, typo, I mean 18.") == "18"


def test_a_hedged_alternative_after_a_plain_sentence_leaves_its_value() -> None:
    ending = "She makes $18.\nIf she sold 10 eggs, the answer would be 20."
    assert _answer(ending) == "18"


ROCKS = (
    "Adam has $100 and buys rocks for $5 each and sells them for $7 each. If he only sells 60% "
    "of them, how much money does he lose?"
)
ROCK_WORK = "He buys 20 rocks and sells 12 for $84, so he loses 100 - 84 = 16.\n"


@pytest.mark.parametrize(
    ("ending", "answer"),
    [
        pytest.param("Net result: -$16.", "16", id="net-negative-is-the-loss"),
        pytest.param("ANSWER: -16", "16", id="negative-answer-line"),
        pytest.param("He makes a profit of $16.", "-16", id="a-profit-is-no-loss"),
        pytest.param("He made a loss of $16.", "16", id="a-loss-is-the-loss"),
    ],
)
def test_a_loss_asked_for_reads_the_loss(ending: str, answer: str) -> None:
    assert grade(ROCK_WORK + ending, "16", question=ROCKS).answer == answer
