"""Find the final answer in a model's completion, and say how it was found.

First, what is not an answer is set aside (:mod:`gsm8k.grading.sections`, README "Scoring"):
reasoning blocks and thinking sections are working; when chat-template markers divide the text,
only the answer section is read; a reasoning block never closed or a generation cut off while
thinking never delivered an answer, whatever it says. A loop to the limit, or a cut, after an
answer is judged by the delivery policy (:mod:`gsm8k.grading.delivery`). An
invented follow-up (a new "Question:" in any of the MGSM languages, a chat role marker) after
the first stated answer is cut off. Invisible characters inside numbers are dropped
(:func:`gsm8k.grading.glyphs.join_split_numbers`).

Two final statements are read first: an answer line or heading in words with no digit after it
(``ANSWER: eighteen`` is 18; words without a number are no answer), and a final-answer heading in
any MGSM language after every other mark (``**Endgültige Antwort:** 5 Äpfel``). A completion that
opens with a ``#### N`` guess and reasons to another mark is read at that mark
(:mod:`gsm8k.grading.marks`). Then rules are tried in a fixed order and the first that yields a
number wins:

1. ``answer_line`` – the requested ``ANSWER: <number>`` line (any case, markdown emphasis allowed);
   the LAST such line counts, so a model that corrects itself is read at its correction. An
   ``Answer:`` line that opens an explanation (words before its first number) with a
   ``\\boxed{}`` after it is a heading: the boxed value at the end of the explanation is the
   answer, not the first number of the explanation.
2. ``json`` – a JSON-style ``"answer": <value>`` field (the last one).
3. ``answer_tag`` – ``<answer>…</answer>``.
4. ``hash_line`` – ``#### <number>``, GSM8K's own solution format.
5. ``boxed`` – ``\\boxed{<number>}``.
6. ``answer_is`` – an answer phrase in any MGSM language ("the answer is", "Die Antwort lautet",
   "La réponse est", "Ответ:", "答案是", …) directly followed by a number on the same line.
7. ``a_line`` – a final line ``A: <number>``.
8. ``last_number`` – the last number in the completion that is not a label (``#12``, a list
   marker) or part of a question; a program's printed result wins when the closing prose
   restates it. Not used for truncated completions, whose last number is wherever generation
   happened to stop. With the sample's question, a closing sentence's number that restates a
   quantity of the question gives way to the number the sentence computed.

An ``ANSWER:`` line holding the literal placeholder (``ANSWER: $ANSWER``) ends the search with no
answer when no explicit answer follows it: the model left its answer slot empty. Followed by a
``\boxed{}`` or another stated answer, it was the format line echoed before the working.
Only rule 1 counts as following the requested format.

Every pattern here runs in time linear in the completion's length: no quantifier can rescan
text that another start position already scanned, and values are read from bounded windows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, cast, get_args

from gsm8k.grading.closing import find_closing_number
from gsm8k.grading.delivered import deliver, set_aside
from gsm8k.grading.delivery import DOUBTED_DRAFT, doubted_draft, undelivered
from gsm8k.grading.disclaimed import DISCLAIMED, disclaimed
from gsm8k.grading.doubt import without_courtesy
from gsm8k.grading.endings import (
    CUT_TEXT_LENGTH,
    cut_mid_number,
    ends_unfinished,
    left_as_draft,
    stops_mid_sentence,
    strip_padding,
)
from gsm8k.grading.follow_ups import EXPLICIT_ANSWER, cut_continuation
from gsm8k.grading.glyphs import join_split_numbers
from gsm8k.grading.json_answer import find_json
from gsm8k.grading.marks import (
    cut_restatement,
    final_heading_start,
    opening_guess,
    without_dangling_marker,
    without_example_marks,
)
from gsm8k.grading.numbers import normalize
from gsm8k.grading.phrases import find_answer_is
from gsm8k.grading.reader import PLACEHOLDER, Found, Reader
from gsm8k.grading.remarks import without_cut_remark, without_remarks
from gsm8k.grading.ruled_out import ends_struck, without_struck
from gsm8k.grading.rules import (
    ANSWER_LINE,
    NoAnswer,
    boxed_spans,
    find_a_line,
    find_answer_line,
    find_answer_tag,
    find_boxed,
    find_hash_line,
)
from gsm8k.grading.rules import NOT_A_NUMBER_BOXED as NOT_A_NUMBER_BOXED
from gsm8k.grading.sections import (
    CUT_AFTER_DRAFT,
    EMPTY_ANSWER,
    ENDS_IN_LOOP,
    Sections,
    answer_sections,
)
from gsm8k.grading.sections import UNCLOSED_REASONING as UNCLOSED_REASONING
from gsm8k.grading.sections import split_reasoning as split_reasoning
from gsm8k.grading.spelled import final_words

Rule = Literal[
    "answer_line",
    "json",
    "answer_tag",
    "hash_line",
    "boxed",
    "answer_is",
    "a_line",
    "last_number",
    "none",
]

RULES: tuple[Rule, ...] = get_args(Rule)
"""Every rule, in the order they are tried; ``none`` means no answer was found."""

ONLY_REASONING = "nothing outside the reasoning block: the model gave no final answer"
PLACEHOLDER_ANSWER = "the ANSWER line holds the template's placeholder, not a number"
ENDS_STRUCK = "the text ends on text it strikes through: its last statement withdrawn"
TRUNCATED_IN_JSON_REASONING = (
    "output truncated inside the JSON reasoning field: the model did not reach its answer"
)
TRUNCATED_NO_FALLBACK = "output cut off: the last-number fallback is not used"

_JSON_REASONING_OPEN = re.compile(
    r"[\"'](?:reasoning|thoughts?|thinking|explanation|steps|solution)[\"'][ \t]*:[ \t]*\"",
    re.IGNORECASE,
)
# The rest of a JSON string up to its closing quote, escapes included (one pass, no backtracking
# into the alternation: each character is either plain or the second of an escape).
_JSON_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


_STATED_MARK = re.compile(r"\\boxed|####[ \t*_$\\]*[-−]?\d|<answer>")
"""A numeric answer mark that a later statement in words does not take back."""


@dataclass(frozen=True)
class Extraction:
    """What :func:`extract_answer` found.

    Attributes:
        value: The answer as a number, or ``None`` when no answer was found.
        rule: The rule that produced it (``none`` when nothing did).
        format_followed: Whether it came from the requested ``ANSWER:`` line.
        text: The snippet the number was read from, for explanations.
        note: Why there is no answer, or what else a reader should know (empty when nothing).
    """

    value: Decimal | None
    rule: Rule
    format_followed: bool
    text: str
    note: str = ""

    @property
    def answer(self) -> str | None:
        """The answer in canonical form (``"18"``, ``"-3"``, ``"0.5"``), or ``None``."""
        return None if self.value is None else normalize(self.value)


def extract_answer(
    completion: str, truncated: bool = False, question: str | None = None
) -> Extraction:
    """Extract the final numeric answer from a completion.

    Args:
        completion: The model's text.
        truncated: Whether generation stopped at the token limit; then the last-number fallback
            is not used, since an unfinished solution has no final number.
        question: The sample's question, when known: a number a concluding sentence copies from
            it is not read as the answer when the sentence computes another one.

    Returns:
        The answer, the rule that found it, and whether the requested format was followed.
    """
    unpadded = strip_padding(completion)
    if unpadded is not None:
        # A finished last sentence, then `\n\n\n…` or end-of-text tokens to the limit: the model
        # delivered what it wrote before the padding.
        completion, truncated = unpadded, False
    # Struck-through text first, before the overlays that strike digits are dropped from numbers.
    sections = answer_sections(join_split_numbers(without_struck(completion)), truncated)
    if sections.note == EMPTY_ANSWER:
        # `\boxed{12}.Final Answer:`: the boxed answer was complete; the marker adds nothing.
        kept = without_dangling_marker(completion)
        spans = boxed_spans(kept) if kept else []
        if kept and spans and spans[-1][1] == len(kept) - 1:
            return extract_answer(kept, truncated, question)
    if sections.note:
        return Extraction(None, "none", False, "", sections.note)
    if ends_struck(completion):
        return Extraction(None, "none", False, "", ENDS_STRUCK)
    visible = without_example_marks(sections.text)
    reader = Reader(visible, question)
    stated = cut_continuation(visible)  # an invented follow-up is no reasoning towards an answer
    guess = opening_guess(stated)
    if guess is not None:
        # `#### 18` first, then reasoning to a final mark: the guess is not the final answer.
        later = _apply_rules(
            reader.with_text(stated[guess:]), completion, sections, truncated, False
        )
        at = stated.rfind(later.text) if later is not None and later.text else -1
        if later is not None and not (at >= 0 and set_aside(stated, at)):
            return later  # not `Note that \\boxed{1800} is the monthly figure …` after it
    found = _apply_rules(reader, completion, sections, truncated, True)
    if found is not None:
        return found
    if sections.loop:
        return Extraction(None, "none", False, "", ENDS_IN_LOOP)
    note = ONLY_REASONING if sections.reasoning and not visible.strip() else ""
    return Extraction(None, "none", False, "", note)


def _apply_rules(
    reader: Reader, completion: str, sections: Sections, truncated: bool, fallback: bool
) -> Extraction | None:
    """The rules in order on a reader's text; ``None`` when none found an answer (and, with
    ``fallback``, the last-number fallback found none either)."""
    text = without_courtesy(cut_continuation(reader.text, reader.question_text))
    if truncated and _inside_json_reasoning(text):
        return Extraction(None, "none", False, "", TRUNCATED_IN_JSON_REASONING)
    reader = reader.with_text(text)
    in_words = final_words(reader)
    if isinstance(in_words, tuple):
        rule: Rule = "answer_line" if ANSWER_LINE.match(in_words[1]) else "answer_is"
        return _found(reader, rule, in_words, completion, text, sections, truncated)
    if in_words is not None and stops_mid_sentence(text):
        # `Therefore, April has 10 plant pots left over.\n\nFinal answer: April has` and the cut:
        # the finished sentence it was restating holds the delivered answer.
        restated = cut_restatement(reader)
        if restated is not None:
            return _found(reader, "last_number", restated, completion, text, sections, False)
    if in_words is not None and _STATED_MARK.search(text) is None:
        # `ANSWER: eighteen dollars`, `最终答案：无法确定。` after numeric working: the model's
        # final statement holds no number, and the working's numbers are not its answer.
        return Extraction(None, "none", False, "", in_words)
    heading = final_heading_start(text)
    if heading is not None:
        # `**Endgültige Antwort:** 5 Äpfel` after a `\boxed{}` of the working: the last word.
        stated = find_answer_is(reader.with_text(text[heading:]))
        if isinstance(stated, NoAnswer):
            return Extraction(None, "none", False, "", str(stated))
        if stated is not None:
            return _found(reader, "answer_is", stated, completion, text, sections, truncated)
    for rule, finder in _FINDERS:
        if rule == "last_number" and not fallback:
            return None
        kept = None if truncated or rule != "last_number" else without_cut_remark(text)
        if kept is not None:
            # `So Weng earned $10.` then `Side note: …, which`: the cut falls in a remark after
            # a finished statement, which stands.
            text = kept
            reader = reader.with_text(text)
        elif rule == "last_number" and (
            truncated
            or stops_mid_sentence(completion, CUT_TEXT_LENGTH)
            or ends_unfinished(completion)
        ):
            # Cut off, by the stop reason or visibly in a long text: its last number is
            # wherever generation happened to stop.
            note = ENDS_IN_LOOP if sections.loop else TRUNCATED_NO_FALLBACK
            return Extraction(None, "none", False, "", note)
        if rule == "last_number":
            # `Siobhan has 23 jewels. By comparison, Aaron has 25 and Raymond has 40.`: remarks
            # after the closing statement are no statement of the answer.
            text = without_remarks(text, reader.question_text)
            reader = reader.with_text(text)
        if rule == "json":
            placeholder = _placeholder_end(text)
            if placeholder is not None:
                if EXPLICIT_ANSWER.search(text, placeholder) is None:
                    # `ANSWER: $ANSWER` is an answer slot left empty, not an invitation to guess.
                    return Extraction(None, "none", False, "", PLACEHOLDER_ANSWER)
                # An echoed format line before the working: what is stated after it counts.
                text = text[placeholder:]
                reader = reader.with_text(text)
        found = finder(reader)
        if isinstance(found, NoAnswer):
            return Extraction(None, "none", False, "", str(found))
        if found is not None:
            return _found(reader, rule, found, completion, text, sections, truncated)
    return None


def _found(
    reader: Reader,
    rule: Rule,
    found: Found,
    completion: str,
    text: str,
    sections: Sections,
    truncated: bool,
) -> Extraction:
    # What follows the answer statement decides what it delivers (gsm8k.grading.delivered).
    delivered = deliver(reader, rule, found, truncated)
    if isinstance(delivered, NoAnswer):
        return Extraction(None, "none", False, "", str(delivered))
    if delivered is not None:
        rule = cast(Rule, delivered[0])
        found = delivered[1]
    value, snippet = found
    at = text.rfind(snippet)
    if at < 0:
        at = len(text)  # `printed 18`: a program's output, delivered by the closing prose
    if disclaimed(text, at, at + len(snippet), reader.question_text):
        return Extraction(None, "none", False, "", DISCLAIMED)  # `I'm stuck. 28 is a wild guess.`
    if not sections.loop and stops_mid_sentence(completion):
        if left_as_draft(text, snippet):
            return Extraction(None, "none", False, "", CUT_AFTER_DRAFT)
        if rule in _DRAFT_RULES and doubted_draft(text, value, snippet):
            # `\boxed{18}.\n\nWait, I misread. Let me restart: …` and the cut: stated once, then
            # doubted; a value restated by answer marks through the checks was delivered.
            return Extraction(None, "none", False, "", DOUBTED_DRAFT)
    elif not sections.loop and rule in _DRAFT_RULES and cut_mid_number(text, snippet):
        return Extraction(None, "none", False, "", CUT_AFTER_DRAFT)
    # A loop or cut after the answer keeps it only when it delivered it (gsm8k.grading.delivery).
    note = undelivered(found, rule, text, sections, truncated)
    if note:
        return Extraction(None, "none", False, "", note)
    if rule == "last_number":  # the explicit rules read their value in the asked unit already
        value = reader.in_asked_unit_at(value, snippet)
    return Extraction(reader.signed(value, snippet), rule, rule == "answer_line", snippet)


_DRAFT_RULES = frozenset(("boxed", "answer_is", "last_number"))
"""Rules whose answer, stated once and then doubted in cut-off text, is a draft: a box or an
answer phrase written in the working. An answer line, `####`, tag or JSON field is the format's
final statement, delivered however the text runs on."""


def _inside_json_reasoning(text: str) -> bool:
    """Whether the text ends inside the string of a JSON ``"reasoning"`` field (never closed)."""
    last_open = -1
    for opened in _JSON_REASONING_OPEN.finditer(text):
        last_open = opened.end()
    return last_open >= 0 and _JSON_STRING_REST.match(text, last_open) is None


def _placeholder_end(text: str) -> int | None:
    """Where the last ``ANSWER: $ANSWER`` line (the template's placeholder) ends, if any."""
    ends = [m.end() for m in ANSWER_LINE.finditer(text) if PLACEHOLDER.fullmatch(m.group("value"))]
    return ends[-1] if ends else None


_FINDERS: tuple[tuple[Rule, Callable[[Reader], Found | NoAnswer | None]], ...] = (
    ("answer_line", find_answer_line),
    ("json", find_json),
    ("answer_tag", find_answer_tag),
    ("hash_line", find_hash_line),
    ("boxed", find_boxed),
    ("answer_is", find_answer_is),
    ("a_line", find_a_line),
    ("last_number", find_closing_number),
)
