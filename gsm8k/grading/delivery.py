"""Whether an answer the rules found was delivered: loops and cuts after it (docs/grading.md).

The policy, for a generation that ran to the token limit:

- **A loop after a final answer keeps it.** When the text ends in a loop, the answer is read from
  the text before the loop and the loop's first copy. It stands when an explicit rule (not the
  last-number guess) finds it there and no copy of the loop states another value: `ANSWER: 18`
  followed by `Question: ` to the limit, `\\boxed{5}` followed by `Final Answer:` repeated, a
  whole answer block regenerated with the same value, the answer followed by escapes or template
  garbage, the answer restated while the model debates its units.
- **A loop that began before any answer, or that states other values, has none**: a loop of
  working with no explicit answer before or in it (an `Answer:` line that opens working the loop
  broke into counts as none), a loop that alternates between values, a loop that states a value
  other than the one stated just before it.
- **A tentative answer in cut text is not delivered.** In a generation cut at the limit (a stop
  reason says so, or it ends in a loop), an answer phrase (`So the answer is probably 240.`), or
  any answer inside a thinking section that no answer section followed, that is followed by more
  reasoning (words, not only markup or the same value again) is a draft the model went on to
  question.

Everything here reads bounded windows of the loop's passage or the text after the answer, so it
stays linear in the completion's length.
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.numbers import same_number
from gsm8k.grading.phrases import ANSWER_PHRASES
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.rules import ANSWER_LABEL
from gsm8k.grading.sections import ENDS_IN_LOOP, Sections

LOOP_STATES_OTHER = "the generation ends in a loop that states another answer: none was delivered"
TENTATIVE = (
    "an answer in cut-off text followed by more reasoning is a draft, not a delivered answer"
)

# Where a loop's passage states an answer: the marks of the explicit rules, each with its value
# close after it (a bare answer word in working is not a statement).
_STATED = re.compile(
    rf"(?:{ANSWER_LABEL}|####|\\boxed[ \t]*\{{"
    rf"|[\"'](?:final[_ ])?answer[\"'][ \t]*:|<answer>|(?:{ANSWER_PHRASES}))"
    r"[^\n\w]{0,20}+(?=[-−]?\d)",
    re.IGNORECASE | re.MULTILINE,
)
DOUBTED_DRAFT = (
    "an answer stated once, then doubted in text cut off mid-sentence: a draft, not delivered"
)
# Words that take a stated answer back or start the working again: `Wait`, `Hmm`, `Actually`
# opening a sentence, `let me re-read`, `I misread`. Courtesies after a delivered answer (`let me
# know if anything is wrong`) are not doubt.
_DOUBT = re.compile(
    r"(?:^|[.!?:]\s++|\n)[ \t*_]*+(?:but[ \t,]++)?(?:wait|hmm+|actually|oops|no,|however)\b"
    r"|\blet(?:'s|[ \t]+me)[ \t]+(?:re-?|double-?check|check[ \t]+(?:again|that|this|my)|verify"
    r"|recalculate|recompute|redo|restart|start[ \t]+over)"
    r"|\bI[ \t]+(?:misread|misunderstood)"
    r"|(?<!if[ \t])\b(?:that|this)(?:'s|[ \t]+is)[ \t]+(?:wrong|incorrect|not[ \t]+right)",
    re.IGNORECASE | re.MULTILINE,
)
_VALUE_WINDOW = 80
"""Characters after a mark in a loop's passage in which its value is read."""
_REASONING_WINDOW = 2_000
"""Characters after a cut-off answer searched for more reasoning."""
# Words that show reasoning going on. Markup around an answer is not: chat tokens, tags, LaTeX
# commands, and answer headings restated with the answer.
_NOT_REASONING = re.compile(
    r"<\|[^|<>\n]{0,40}\|>|<[|｜][^<>\n]{0,40}[|｜]>|</?[A-Za-z_]{1,20}>|\\[A-Za-z]+"
    r"|\b(?:final|answer|the|is|question|problem|user|human|assistant|system)\b",
    re.IGNORECASE,
)
# An answer phrase written as a heading (`Final Answer: 5`, `Ответ: 5`) delivers its answer; a
# sentence of reasoning (`so the answer is probably 240`) may be a draft.
_HEADING = re.compile(
    r"\A[^\d]*?(?:[:：]|final[ \t]+answer|endgültige|respuesta[ \t]+final|réponse[ \t]+finale"
    r"|la[ \t]+mwisho|คำตอบสุดท้าย)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]{2}|[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff]")


def undelivered(found: Found | None, rule: str, text: str, sections: Sections, cut: bool) -> str:
    """Why ``found`` was not delivered (a note), or ``""`` when it stands.

    Args:
        found: The value and snippet the rules found in ``text``, or ``None``.
        rule: The rule that found it.
        text: The answer-bearing text the rules read.
        sections: The completion's sections (``loop`` is the passage it repeats to its end).
        cut: Whether a stop reason says the generation was cut at the token limit.
    """
    looped = bool(sections.loop)
    if found is None or (looped and rule == "last_number"):
        return ENDS_IN_LOOP if looped else ""
    value, snippet = found
    if looped and rule == "answer_line" and _opens_working(snippet):
        # `Answer: Joe's bag holds 25 bars and 80 apples …` then a word repeated to the limit:
        # the line opened the working the loop broke into; it was not a final answer.
        return ENDS_IN_LOOP
    if looped and _states_other_value(sections.loop, _before_loop(text, sections.loop), value):
        return LOOP_STATES_OTHER
    tentative_rule = (rule == "answer_is" and not _HEADING.search(snippet)) or sections.thinking
    if not ((cut or looped) and tentative_rule):
        return ""
    # A loop comes after the answer: its words are more reasoning too, unless it restates the
    # answer (a regenerated answer block, a units debate that ends on the same value).
    followed = _reasoning_follows(text, snippet) or (
        looped
        and _has_reasoning(sections.loop)
        and not _stated_values(sections.loop * 2, len(sections.loop))
    )
    return TENTATIVE if followed else ""


def _before_loop(text: str, passage: str) -> str:
    """The text before the loop's first copy (the copy is read only when it holds a number)."""
    return text[: len(text) - len(passage)] if text.endswith(passage) else text


def _states_other_value(passage: str, before: str, value: Decimal) -> bool:
    """Whether a loop's passage states, by an explicit mark, a value other than the answer.

    The answer is ``value``, and also the last value stated before the loop began (`\\boxed{18}`
    then a loop of `or is it \\boxed{20}?` alternates between the two). The passage is read twice
    over, so a mark that the loop's period happens to cut in two is still read whole.
    """
    answers = [value]
    # A value stated right where the loop begins (`So the answer is` | ` 109.`) is read whole.
    earlier = _stated_values(before + passage, len(before))
    if earlier:
        answers.append(earlier[-1])
    twice = passage + passage
    return any(
        not same_number(stated, answer)
        for stated in _stated_values(twice, len(passage))
        for answer in answers
    )


def _stated_values(text: str, starting_before: int) -> list[Decimal]:
    """The values stated after an explicit mark that starts before ``starting_before``."""
    reader = Reader(text)
    values = []
    for mark in _STATED.finditer(text, 0, len(text)):
        if mark.start() >= starting_before:
            break
        stated = reader.value_of(text[mark.end() : mark.end() + _VALUE_WINDOW].split("\n")[0])
        if stated is not None:
            values.append(stated)
    return values


def _opens_working(snippet: str) -> bool:
    """Whether an answer line's text starts with words before its first number."""
    value = snippet.split(":", 1)[-1].split("：", 1)[-1]
    first_digit = _DIGIT.search(value)
    before = value if first_digit is None else value[: first_digit.start()]
    return len(_LETTERS.findall(before)) >= _OPENING_LETTERS


_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]")
_OPENING_LETTERS = 8
"""Letters before an answer line's first number from which it opens working (`Answer: Joe's
bag …`), rather than labels its value (`ANSWER: $18`, `Answer: x = 18`)."""


def _reasoning_follows(text: str, snippet: str) -> bool:
    """Whether words of reasoning follow the last place ``snippet`` is stated in ``text``."""
    stated = text.rfind(snippet)
    if stated < 0:
        return False
    # The rest of the answer's own sentence is its unit or a restatement (`\\boxed{18} dollars.`).
    sentence_end = SENTENCE_END.search(text, stated + len(snippet))
    if sentence_end is None:
        return False
    return _has_reasoning(text[sentence_end.end() : sentence_end.end() + _REASONING_WINDOW])


def _has_reasoning(text: str) -> bool:
    """Whether ``text`` has words other than markup, headings and template garbage."""
    return _WORD.search(_NOT_REASONING.sub(" ", text[:_REASONING_WINDOW])) is not None


def doubted_draft(text: str, value: Decimal, snippet: str) -> bool:
    """Whether an answer stated once was then doubted in the text after it (which the caller
    knows to stop mid-sentence): `\\boxed{18}. Wait, I misread. Let me restart: …`.

    A value that answer marks state at least twice, and no mark states another, was delivered
    however the checks after it were cut: a long reasoning run that keeps boxing 18 gave 18.
    """
    stated = text.rfind(snippet)
    if stated < 0 or _HEADING.search(snippet):
        return False  # `Final Answer: 240` is a heading, delivered however the text runs on
    after = text[stated + len(snippet) : stated + len(snippet) + _REASONING_WINDOW]
    if _DOUBT.search(after) is None:
        return False
    values = _stated_values(text, len(text))
    repeated = len(values) >= 2 and all(same_number(stated, value) for stated in values)
    return not repeated
