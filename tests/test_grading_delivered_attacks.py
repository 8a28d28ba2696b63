"""The delivered answer's rules, attacked: the forms of a joiner, closing alternatives in other
words, a committed statement then a hedged alternative, a closing sentence that says there is no
answer in other words, and labels inside a box (docs/grading.md, "The delivered answer").

Each row is a shape written against the rules as a model under test could write it, or its
neighbour that keeps its answer; its id names the principle it pins.
"""

from __future__ import annotations

import pytest

from gsm8k.grading import grade

WORK = "Janet has 16 - 3 - 4 = 9 eggs left, and 9 * 2 = 18.\n"
UNPRICED = "She would make 9 * 2 = 18 if the price were known.\n"

# One joiner, whatever draws it: the statement offers two values (no answer); a dash of prose
# before an explanation, or `±0`, offers none.
JOINERS = [
    pytest.param("The answer is 18 -- 20.", None, id="double-hyphen"),
    pytest.param("The answer is 18 --- 20.", None, id="triple-hyphen"),
    pytest.param("The answer is 18 \\text{--} 20.", None, id="latex-text-dash"),
    pytest.param("The answer is 18 \\sim 20.", None, id="latex-sim"),
    pytest.param("The answer is 18 \\& 20.", None, id="latex-ampersand"),
    pytest.param("The answer is 18 &amp; 20.", None, id="html-ampersand"),
    pytest.param("The answer is 18 ‒ 20.", None, id="figure-dash"),
    pytest.param("The answer is 18 ― 20.", None, id="horizontal-bar"),
    pytest.param("The answer is 18 ～ 20.", None, id="full-width-tilde"),
    pytest.param("The answer is 18 〜 20.", None, id="wave-dash"),
    pytest.param("The answer is 18 ＆ 20.", None, id="full-width-ampersand"),
    pytest.param("The answer is 18 ⋁ 20.", None, id="n-ary-or"),
    pytest.param("The answer is 18 ∓ 2.", None, id="minus-plus"),
    pytest.param("The answer is 18 \\mp 2.", None, id="latex-mp"),
    pytest.param("The answer is 18 -- 9 eggs at $2 each.", "18", id="double-hyphen-explains"),
    pytest.param("---\nThe answer is 18.", "18", id="rule-line-is-no-joiner"),
    pytest.param("The answer is $18 (±$0).", "18", id="plus-minus-zero"),
]

# With no answer mark, the closing sentence's pair offered as alternatives: words and signs that
# offer one (no answer); a change (`from … to`), or an `or` before the statement, offers none.
CLOSING_ALTERNATIVES = [
    pytest.param("She makes 18 to 20 dollars.", None, id="range-to-with-unit"),
    pytest.param("She makes somewhere from $18 to $20.", None, id="range-somewhere-from"),
    pytest.param("She makes $18 — $20.", None, id="em-dash-priced"),
    pytest.param("She makes $18 ~ $20.", None, id="tilde-priced"),
    pytest.param("She makes $18 ∨ $20.", None, id="logical-or-priced"),
    pytest.param("She makes $18 and/or $20.", None, id="and-or"),
    pytest.param("She makes $18 otherwise $20.", None, id="otherwise"),
    pytest.param("She makes $18, alternately $20.", None, id="alternately"),
    pytest.param("She makes $18, unless it's $20.", None, id="unless"),
    pytest.param("She makes $18, possibly more like $20.", None, id="possibly-more-like"),
    pytest.param("She makes $18, then again maybe $20.", None, id="then-again-maybe"),
    pytest.param("She makes $18 or perhaps rather $20.", None, id="or-perhaps-rather"),
    pytest.param("She makes $18; could also be $20.", None, id="could-also-be"),
    pytest.param("She makes $18 (or was it $20).", None, id="or-was-it"),
    pytest.param("She makes $18 o\u200br $20.", None, id="zero-width-inside-or"),
    pytest.param("She makes $18 ó $20.", None, id="spanish-accented-o"),
    pytest.param("Her pay went from $16 to $18.", "18", id="from-to-is-a-change"),
    pytest.param("In 1 or 2 days she makes $18 per day.", "18", id="or-before-the-statement"),
    pytest.param("The price went up by $2 to $20.", "20", id="by-to-is-a-change"),
    pytest.param("So she sends 3 letters to 20 friends.", "20", id="two-quantities-by-to"),
    pytest.param("He walks 18 miles to get 20 miles in all.", "20", id="to-then-a-verb"),
]

# A committed closing statement, then a hedged alternative: the statement stands; two hedged
# guesses deliver none; a hedged value after working is the answer.
COMMITTED_THEN_HEDGED = [
    pytest.param("She makes $18.\nOr maybe $20.", "18", id="or-maybe-next-line"),
    pytest.param("She makes $18. Or $20.", "18", id="or-next-sentence"),
    pytest.param("It's 18. Maybe 20.", "18", id="maybe-next-sentence"),
    pytest.param("Probably 20. Maybe 18.", None, id="two-hedged-guesses"),
    pytest.param("So she has 9 eggs. Probably 18.", "18", id="hedged-value-after-working"),
]

# A closing sentence after the last number that says there is no answer, in other words.
NO_ANSWER_SENTENCES = [
    pytest.param(
        "I don't have enough information to answer this.",
        id="i-don-t-have-enough-information-to-answe",
    ),
    pytest.param("Cannot be determined.", id="cannot-be-determined"),
    pytest.param(
        "There is not enough information to solve the problem.",
        id="there-is-not-enough-information-to-solve",
    ),
    pytest.param(
        "The question can't be answered without the egg price.",
        id="the-question-can-t-be-answered-without-t",
    ),
    pytest.param("No answer can be given.", id="no-answer-can-be-given"),
    pytest.param("Hence the question has no answer.", id="hence-the-question-has-no-answer"),
    pytest.param("The answer is undeterminable.", id="the-answer-is-undeterminable"),
    pytest.param("So, the answer is not clear.", id="so-the-answer-is-not-clear"),
    pytest.param("There's no way to know.", id="there-s-no-way-to-know"),
    pytest.param("Not enough info.", id="not-enough-info"),
    pytest.param("Insufficient data.", id="insufficient-data"),
    pytest.param("Unknown.", id="unknown"),
    pytest.param("N/A", id="n-a"),
    pytest.param(
        "This can't be solved with the given data.", id="this-can-t-be-solved-with-the-given-data"
    ),
    pytest.param("The problem is unsolvable as stated.", id="the-problem-is-unsolvable-as-stated"),
    pytest.param(
        "The problem does not provide enough details.",
        id="the-problem-does-not-provide-enough-deta",
    ),
    pytest.param("I'm unable to solve this problem.", id="i-m-unable-to-solve-this-problem"),
    pytest.param("The answer cannοt be determined.", id="the-answer-cann-t-be-determined"),
    pytest.param("Die Antwort ist unbekannt.", id="die-antwort-ist-unbekannt"),
    pytest.param("La respuesta es desconocida.", id="la-respuesta-es-desconocida"),
    pytest.param("No se puede determinar la respuesta.", id="no-se-puede-determinar-la-respuesta"),
    pytest.param(
        "On ne peut pas déterminer la réponse.", id="on-ne-peut-pas-d-terminer-la-r-ponse"
    ),
    pytest.param("答案不确定。", id="zh-22"),
    pytest.param("无法确定答案。", id="zh-23"),
    pytest.param("Ответ неизвестен.", id="zh-24"),
]

# Not a statement that there is no answer: a question, an offer, an apology, a doubt, a condition,
# an aside about another thing, or the answer in words.
NOT_NO_ANSWER = [
    pytest.param(
        "Let me know if any part of the question is unclear.",
        id="let-me-know-if-any-part-of-the-question",
    ),
    pytest.param(
        "Please let me know if the answer is unclear.",
        id="please-let-me-know-if-the-answer-is-uncl",
    ),
    pytest.param(
        "Feel free to ask if any part of the solution is unclear.",
        id="feel-free-to-ask-if-any-part-of-the-solu",
    ),
    pytest.param("Sorry if the question was unclear.", id="sorry-if-the-question-was-unclear"),
    pytest.param(
        "(The question's wording about muffins is unclear.)",
        id="the-question-s-wording-about-muffins-is",
    ),
    pytest.param(
        "The question is not tricky once the information is known.",
        id="the-question-is-not-tricky-once-the-info",
    ),
    pytest.param(
        "The question doesn't ask for profit, which is not given.",
        id="the-question-doesn-t-ask-for-profit-whic",
    ),
    pytest.param(
        "The answer is not affected by the muffin information.",
        id="the-answer-is-not-affected-by-the-muffin",
    ),
    pytest.param(
        "I can't be more certain about the answer.", id="i-can-t-be-more-certain-about-the-answer"
    ),
    pytest.param(
        "We cannot know the answer for sure without more information.",
        id="we-cannot-know-the-answer-for-sure-witho",
    ),
    pytest.param(
        "Assuming all eggs are sold; otherwise the answer is unknown.",
        id="assuming-all-eggs-are-sold-otherwise-the",
    ),
    pytest.param(
        "The answer can't be negative, so this is determined.",
        id="the-answer-can-t-be-negative-so-this-is",
    ),
    pytest.param(
        "Any remaining ambiguity in the question is not important to the answer.",
        id="any-remaining-ambiguity-in-the-question",
    ),
    pytest.param("The answer is [eighteen].", id="the-answer-is-eighteen"),
    pytest.param(
        "If the question means X, the answer is different.",
        id="if-the-question-means-x-the-answer-is-di",
    ),
    pytest.param("I hope this answer is clear.", id="i-hope-this-answer-is-clear"),
    pytest.param("No other answer is possible.", id="no-other-answer-is-possible"),
    pytest.param(
        "The weekly income cannot be determined.", id="the-weekly-income-cannot-be-determined"
    ),
    pytest.param(
        "I cannot guarantee the answer is correct.", id="i-cannot-guarantee-the-answer-is-correct"
    ),
    pytest.param(
        "The problem didn't say whether she sells all of them, but I assumed so.",
        id="the-problem-didn-t-say-whether-she-sells",
    ),
    pytest.param(
        "The information about the muffins is not needed to solve the problem.",
        id="the-information-about-the-muffins-is-not",
    ),
    pytest.param(
        "It is not clear whether she sells the rest, so I assumed she does.",
        id="it-is-not-clear-whether-she-sells-the-re",
    ),
    pytest.param(
        "This problem can't be solved any other way.", id="this-problem-can-t-be-solved-any-other-w"
    ),
    pytest.param("The data was enough to answer this.", id="the-data-was-enough-to-answer-this"),
    pytest.param(
        "Die Antwort ist also achtzehn Dollar.", id="die-antwort-ist-also-achtzehn-dollar"
    ),
    pytest.param(
        "Si la pregunta es otra, la respuesta no se puede determinar.",
        id="si-la-pregunta-es-otra-la-respuesta-no-s",
    ),
]

# A box holds one value: a label or a rank beside it names something else.
BOX_LABELS = [
    pytest.param(
        "So she makes \\boxed{18 \\text{ (rounded to 2 decimal places)}} every day.",
        id="18-text-rounded-to-2-decimal-places",
    ),
    pytest.param(
        "So she makes \\boxed{18 \\text{ (to the nearest 1)}} every day.",
        id="18-text-to-the-nearest-1",
    ),
    pytest.param(
        "So she makes \\boxed{18 \\text{ (answer to part 1)}} every day.",
        id="18-text-answer-to-part-1",
    ),
    pytest.param("So she makes \\boxed{18 \\text{ (choice 2)}} every day.", id="18-text-choice-2"),
    pytest.param(
        "So she makes \\boxed{18 \\text{ (Janet's 2nd day)}} every day.",
        id="18-text-janet-s-2nd-day",
    ),
    pytest.param(
        "So she makes \\boxed{18 \\text{ students in Grade 3}} every day.",
        id="18-text-students-in-grade-3",
    ),
    pytest.param("So she makes \\boxed{18 \\text{ on day 1}} every day.", id="18-text-on-day-1"),
    pytest.param(
        "So she makes \\boxed{18 \\text{ dollars (a 50\\% increase)}} every day.",
        id="18-text-dollars-a-50-increase",
    ),
    pytest.param(
        "So she makes \\boxed{18 \\text{ dollars (which is 75\\% of the eggs)}} every day.",
        id="18-text-dollars-which-is-75-of-the-eggs",
    ),
    pytest.param(
        "So she makes \\boxed{18 \\text{ (for 9 eggs)}} every day.", id="18-text-for-9-eggs"
    ),
    pytest.param("So she makes \\boxed{18 \\text{ (step 2)}} every day.", id="step-2"),
]


@pytest.mark.parametrize(("completion", "answer"), JOINERS + CLOSING_ALTERNATIVES)
def test_two_values_joined_deliver_none(completion: str, answer: str | None) -> None:
    assert grade(WORK + completion, "20").answer == answer


@pytest.mark.parametrize(("completion", "answer"), COMMITTED_THEN_HEDGED)
def test_a_committed_statement_stands_before_a_hedged_alternative(
    completion: str, answer: str | None
) -> None:
    assert grade(WORK + completion, "18").answer == answer


@pytest.mark.parametrize("completion", NO_ANSWER_SENTENCES)
def test_a_closing_no_answer_sentence_delivers_none(completion: str) -> None:
    assert grade(UNPRICED + completion, "18").answer is None


@pytest.mark.parametrize("completion", NOT_NO_ANSWER)
def test_a_question_offer_doubt_or_aside_keeps_the_answer(completion: str) -> None:
    assert grade(WORK + "So she makes $18 every day.\n" + completion, "18").answer == "18"


@pytest.mark.parametrize("completion", BOX_LABELS)
def test_a_label_in_a_box_is_no_second_value(completion: str) -> None:
    assert grade(WORK + completion, "18").answer == "18"
