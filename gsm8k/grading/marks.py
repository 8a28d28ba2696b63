"""Where the final answer mark is when a completion carries several: which one the model delivered.

- An opening ``#### N`` guess (GRPO-trained models write one before reasoning) is not the final
  answer when the reasoning after it ends in another mark (``\\boxed{}``, a closing ``## N``, a
  later ``#### M``, an answer line or phrase); it stands only when nothing after it states one.
- A markdown heading ``#### Cost of Bread`` (words before any number) is a heading, not the
  GSM8K answer mark; a closing line ``## 20`` (a heading that is only a number) is one.
- A final-answer heading in any MGSM language (``**Final Answer:** 5``, ``**Endgültige Antwort:**
  5 Äpfel``, ``**最終答案：12個**``) at the start of a line, after every other mark, is the final
  statement: it wins over a ``\\boxed{}`` or ``####`` of the working before it.
- A complete ``\\boxed{}`` answer followed only by a dangling answer marker (``\\boxed{12}.Final
  Answer:``, a bare ``<|im_start|>answer``) was delivered: the marker adds nothing.
- The last ``\\boxed{}`` answers of a completion that states one quantity in two units
  (``\\boxed{2} hours, or \\boxed{120} minutes``): the one in the unit the question asks for.
- A final answer line or heading in words, with no digit after it (``ANSWER: eighteen``,
  ``最终答案：无法确定。``): the words are the answer (English number words are read), never a
  number of the working before it.
"""

from __future__ import annotations

import re

from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.reader import Found, Reader
from gsm8k.grading.units import asked_unit, one_quantity, unit_named
from gsm8k.grading.words import number_in_words, words_state_one_value

NOT_A_NUMBER_IN_WORDS = "the final answer is stated in words that hold no number"
NOT_ONE_VALUE_IN_WORDS = "the final answer in words offers two values or rules its value out"
# A courtesy after the final statement, which may hold a digit (`Let me know if you have 2 more
# questions!`): not working, and not a number of the answer.
_COURTESY = re.compile(
    r"(?:let[ \t]+me[ \t]+know|feel[ \t]+free|hope[ \t]+(?:this|that|it)|I[ \t]+hope"
    r"|happy[ \t]+to[ \t]+help|thanks?\b|thank[ \t]+you)[^\n]{0,200}",
    re.IGNORECASE,
)
_COURTESY_LOOK = 400
_ALNUM = re.compile(r"[^\W_]")

_NUMBER_ONLY = re.compile(r"[ \t*_`$\\(]*[-−]?[$£€]?[ \t]?\d[\d,. ]*[ \t*_`)%.]*")
_OPENING_HASH = re.compile(r"\A[ \t\n]*####[ \t]*(?P<value>[^\n]{1,80})\n")
_CLOSING_HASH = re.compile(r"[ \t]*#{1,3}[ \t]*(?P<value>[^\n#]{1,80})")
# A closing mark after the last sentence, on its line (GRPO-tuned models: `… = 15 flowers. ## 15`).
_INLINE_CLOSING = re.compile(r"(?<=[.!?*])[ \t]+#{2,4}[ \t]*(?P<value>[-−$]?\d[^\n#]{0,40})\Z")
_LATER_MARK = re.compile(
    r"\\boxed|####|^[ \t*_#>`-]*answer[ \t*_#>`-]*[:：]|<answer>"
    r"|(?:^|\n)[ \t]*#{1,3}[ \t]*[-−$]?\d|[.!?*][ \t]+#{2,4}[ \t]*[-−$]?\d",
    re.IGNORECASE | re.MULTILINE,
)
_FINAL_WORDS = (
    r"final[ \t]+answer|endgültige[ \t]+antwort|respuesta[ \t]+final|réponse[ \t]+finale"
    r"|окончательный[ \t]+ответ|итоговый[ \t]+ответ|jibu[ \t]+la[ \t]+mwisho|最終答案|最终答案"
    r"|最終的な答え|最終回答|คำตอบสุดท้าย|চূড়ান্ত[ \t]+উত্তর|చివరి[ \t]+సమాధానం"
)
_HEADING_HINTS: tuple[str, ...] = ("inal", "INAL", "ntwort", "NTWORT", "espuesta", "ESPUESTA")
_HEADING_HINTS += ("éponse", "ÉPONSE", "твет", "ТВЕТ", "тоговый", "wisho", "WISHO", "答", "คำตอบ")
_HEADING_HINTS += ("উত্তর", "సమాధానం")
"""A part of every final-answer heading, in either case: substring checks spare most texts the
heading pattern."""
_FINAL_HEADING = re.compile(rf"^[ \t*_#>]*(?:{_FINAL_WORDS})", re.IGNORECASE | re.MULTILINE)
_MARK_AFTER_HEADING = re.compile(
    r"\\boxed|####|^[ \t*_#>`-]*answer[ \t*_#>`-]*[:：]|<answer>|[\"']answer[\"'][ \t]*:",
    re.IGNORECASE | re.MULTILINE,
)
_DANGLING_MARKER = re.compile(
    r"\}[ \t]*(?:\\[)\]]|\$\$?|[ \t.,*_])*[\s*_]*(?:\**final[ \t]+answer[ \t*_]*[:：]"
    r"|<\|im_start\|>[ \t]*answer|\**answer[ \t*_]*[:：])[\s*_]*\Z",
    re.IGNORECASE,
)
_DANGLING_WINDOW = 200
COLON_STATEMENT = re.compile(
    rf"^[ \t*_#>`-]*(?:answer|{_FINAL_WORDS}|antwort|respuesta|réponse|ответ|jibu|答案|答え|答"
    r"|resposta|risposta|정답|답"
    r"|(?-i:A))"
    r"[ \t*_]*[:：][ \t*_]*(?P<value>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
_DIGIT = re.compile(r"\d")
_QUALIFIER_ONLY = re.compile(
    r"[ \t*_$\\]*(?:(?:either|maybe|perhaps|probably|possibly|about|approximately|around"
    r"|roughly|nearly|almost|exactly|just|only|not|at[ \t]+(?:least|most))[ \t*_$\\]*)+",
    re.IGNORECASE,
)
_NUMBERED_STEP = re.compile(r"[ \t*_]*\d{1,2}[.)][ \t]+[^\W\d_]{2}")
_LETTER = re.compile(r"[^\W\d_]")
_UNIT_WORD = re.compile(r"(?:[ \t$]|\\[ ,;]|\\text\{|\\mathrm\{|\})*(?P<unit>[A-Za-z]{2,20})")
_BOX_GAP = 160
"""Most characters between two boxes that state one quantity in two units."""


def is_number_only(value: str) -> bool:
    """Whether a heading's text is a number and nothing but markup (`20`, `**$20**`)."""
    return _NUMBER_ONLY.fullmatch(value.strip()) is not None


def opening_guess(text: str) -> int | None:
    """Where the reasoning after an opening ``#### N`` guess starts, or ``None`` without one."""
    opening = _OPENING_HASH.match(text)
    if opening is None or not is_number_only(opening.group("value")):
        return None
    rest = text[opening.end() :]
    return opening.end() if _LATER_MARK.search(rest) or "answer" in rest.lower() else None


def closing_hash(reader: Reader) -> Found | None:
    """A closing heading that is only a number (`## 20`) on the text's last line."""
    text = reader.text.rstrip()
    line_start = text.rfind("\n") + 1
    closing = _CLOSING_HASH.fullmatch(text, line_start) or _INLINE_CLOSING.search(text, line_start)
    if closing is None or not is_number_only(closing.group("value")):
        return None
    value = reader.value_of(closing.group("value"))
    return None if value is None else (value, closing.group(0).strip())


def is_heading(value: str) -> bool:
    """Whether a ``####`` line's text is a markdown heading: words before any number, or a
    numbered step (`#### 1. Cost of bread`)."""
    if _NUMBERED_STEP.match(value):
        return True
    first_digit = _DIGIT.search(value)
    before = value[: first_digit.start()] if first_digit else value
    if first_digit is not None and _QUALIFIER_ONLY.fullmatch(before):
        return False  # `#### either 18 or 20`, `#### about 18`: a stated value, qualified
    return len(_LETTER.findall(before)) >= 2


def final_heading_start(text: str) -> int | None:
    """Where the last final-answer heading starts, when no other answer mark follows it."""
    if not any(map(text.__contains__, _HEADING_HINTS)):
        return None
    last = None
    for heading in _FINAL_HEADING.finditer(text):
        last = heading
    if last is None or _MARK_AFTER_HEADING.search(text, last.end()):
        return None
    return last.start()


def without_dangling_marker(completion: str) -> str | None:
    """The completion without a dangling answer marker that follows a complete ``\\boxed{}``."""
    start = max(0, len(completion) - _DANGLING_WINDOW)
    dangling = _DANGLING_MARKER.search(completion, start)
    if dangling is None or "\\boxed" not in completion:
        return None
    return completion[: dangling.start() + 1]


def final_line_words(reader: Reader) -> Found | str | None:
    """The final answer stated in words on a closing answer line or heading."""
    text = reader.text
    last_colon = max(text.rfind(":"), text.rfind("："))
    if last_colon < 0:
        return None
    if _DIGIT.search(text, last_colon) and (
        len(text) - last_colon > _COURTESY_LOOK or _COURTESY.search(text, last_colon) is None
    ):
        return None  # every statement has a digit after it (the common case, found cheaply)
    last = None
    for statement in COLON_STATEMENT.finditer(text):
        last = statement
    if last is None or _DIGIT.search(last.group("value")):
        return None
    after = text[last.end() :]
    if _DIGIT.search(after) and not _COURTESY.fullmatch(after.strip()):
        return None  # working after the line: the later rules read it
    value_text = last.group("value").strip(" \t*_`.")
    if not _LETTER.search(value_text):
        # `ANSWER:` alone: the line after it is read by the answer-line rule; `ANSWER: ?` is an
        # answer slot that holds no number, as are dots, underscores or a lone currency sign
        # (`ANSWER: ...`, `ANSWER: $__`) as well.
        raw = last.group("value").strip()
        return NOT_A_NUMBER_IN_WORDS if raw and not _ALNUM.search(raw) else None
    value = number_in_words(value_text)
    if value is not None and not words_state_one_value(value_text):
        return NOT_ONE_VALUE_IN_WORDS  # `ANSWER: sixteen or eighteen`, `ANSWER: not fifty`
    return NOT_A_NUMBER_IN_WORDS if value is None else (value, last.group(0).strip())


def box_in_asked_unit(
    reader: Reader, spans: list[tuple[int, int]], question: str | None
) -> tuple[int, int] | None:
    """Of the last two boxes, the one in the unit the question asks for, when they state one
    quantity in two units (`\\boxed{2} hours or \\boxed{120} minutes`); else ``None``."""
    if not question or len(spans) < 2:
        return None
    (first_start, first_end), (second_start, second_end) = spans[-2], spans[-1]
    text = reader.text
    if second_start - first_end > _BOX_GAP:
        return None
    one = reader.value_of(text[first_start:first_end])
    other = reader.value_of(text[second_start:second_end])
    if one is None or other is None or one == other or min(one.copy_abs(), other.copy_abs()) == 0:
        return None
    first_unit, second_unit = (unit_of(text, start, end) or "" for start, end in spans[-2:])
    if not one_quantity(one, first_unit, other, second_unit):
        return None
    asked = asked_unit(question)
    hits = [asked is not None and unit_named(unit) == asked for unit in (first_unit, second_unit)]
    if hits[0] == hits[1]:
        return None
    return spans[-2] if hits[0] else spans[-1]


def unit_of(text: str, start: int, end: int) -> str | None:
    """The unit word written inside a box after its number, or right after the box."""
    digits = list(_DIGIT.finditer(text, start, end))
    inside = _UNIT_WORD.match(text, digits[-1].end(), end) if digits else None
    if inside is not None:
        return inside.group("unit").lower()
    after = _UNIT_WORD.match(text, end, end + 40)
    return after.group("unit").lower() if after else None


_RESTATED_LOOK = 600
"""Characters before a cut final statement in which the sentence it restates is looked for."""
_OPENING_WORDS = re.compile(
    r"^(?:therefore|so|thus|hence|in[ \t]+total|in[ \t]+conclusion|finally)\b[ \t,]*",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")


def cut_restatement(reader: Reader) -> Found | None:
    """The number of the finished sentence that a final statement cut off in words was restating
    (`Therefore, April has 10 plant pots left over.` then `Final answer: April has`), else
    ``None``. The cut statement's words must open that sentence (after `Therefore`, `So`, …)."""
    text = reader.text
    last = None
    for statement in COLON_STATEMENT.finditer(text):
        last = statement
    if last is None:
        return None
    words = _SPACES.sub(" ", last.group("value").strip(" \t*_`")).lower()
    if len(words.split()) < 2:
        return None
    before = text[max(0, last.start() - _RESTATED_LOOK) : last.start()].rstrip()
    sentence_start = max(before.rfind(mark, 0, len(before) - 1) for mark in ".!\n") + 1
    sentence = before[sentence_start:].strip()
    opening = _SPACES.sub(" ", _OPENING_WORDS.sub("", sentence)).lower()
    if not opening.startswith(words) or _DIGIT.search(sentence) is None:
        return None
    return find_last_number(reader.with_text(sentence))


_MARK = (
    r"(?:####[ \t]*[-−$]?\d[\d,.]*|\\boxed[ \t]*\{[^{}\n]{0,40}\}"
    r"|\{[ \t]*[\"']answer[\"'][ \t]*:[^{}\n]{0,40}\}|answer[ \t]*[:：][ \t]*[-−$]?\d[\d,.]*)"
)
# An answer mark quoted, or given as an example of the format: `The reference solution says
# "#### 18".`, `The expected format is \\boxed{18}.`, `Respond as {"answer": 18}.`
_MARK_PATTERN = re.compile(_MARK, re.IGNORECASE)
_QUOTE_OPENED_BEFORE = re.compile(r"(?:[\"“‘]|(?<![A-Za-z])')[^\"“”‘’'\n]{0,40}\Z")
_QUOTE_CLOSED_AFTER = re.compile(r"[^\"“”‘’'\n]{0,10}?(?:[\"”’]|'(?![A-Za-z]))")
_FORMAT_EXAMPLE_BEFORE = re.compile(
    r"\b(?:format(?:[ \t]+(?:is|would[ \t]+be|should[ \t]+be)|[ \t]*:)"
    r"|in[ \t]+the[ \t]+form(?:[ \t]+of)?|respond[ \t]+(?:as|with|like)|reply[ \t]+(?:as|with|like)"
    r"|such[ \t]+as|for[ \t]+example|for[ \t]+instance|e\.g\.)[ \t:,]*\Z",
    re.IGNORECASE,
)
# A mark the model rules out: `(not \\boxed{18})`, `instead of #### 18`, `A common mistake is to
# forget the eggs she eats, giving \\boxed{18}`, `one might wrongly answer \\boxed{18}`.
_RULED_OUT_BEFORE = re.compile(
    r"(?:\bnot|\binstead[ \t]+of|\brather[ \t]+than)[ \t]*+\(?[ \t]*+\Z"
    r"|\b(?:common|typical|frequent|likely|easy|tempting|possible)[ \t]+(?:mistake|error|pitfall"
    r"|trap)s?\b[^.!?\n]{0,100}\Z"
    r"|\b(?:mistakenly|incorrectly|wrongly|erroneously|wrong[ \t]+answer|incorrect[ \t]+answer)\b"
    r"[^.!?\n]{0,60}\Z",
    re.IGNORECASE,
)
_RULED_OUT_HINTS: tuple[str, ...] = (
    "not",
    "instead",
    "rather",
    "mistake",
    "error",
    "pitfall",
    "trap",
    "wrong",
)
_RULED_OUT_HINTS += ("incorrect",)
"""A part of every ruled-out context, in lower case: most marks have none before them."""
_QUOTE_LOOK = 42
_EXAMPLE_LOOK = 40
_RULED_OUT_LOOK = 120


def without_example_marks(text: str) -> str:
    """The text with quoted answer marks, marks given as format examples and marks the model rules
    out blanked: they show the format, quote someone else or name a wrong value (`The reference
    solution says "#### 18".`, `The expected format is \\boxed{18}.`, `Respond as {"answer":
    18}.`, `(not \\boxed{18})`, `A common mistake is … \\boxed{18}`); they are not the model's
    answer. Each mark is judged by bounded windows around it, so the cost stays linear."""
    spans = []
    for mark in _MARK_PATTERN.finditer(text):
        if mark.group(0).startswith("{"):
            # A JSON answer object: nested in JSON (`{"result": {"answer": 540}}`), the quotes
            # around it are the object's keys; it is quoted only when a quote wraps it directly.
            quoted = text[max(0, mark.start() - 1) : mark.start()] in ("'", '"', "“", "‘")
        else:
            quoted = bool(
                _QUOTE_OPENED_BEFORE.search(text, max(0, mark.start() - _QUOTE_LOOK), mark.start())
                and _QUOTE_CLOSED_AFTER.match(text, mark.end())
            )
        example = _FORMAT_EXAMPLE_BEFORE.search(
            text, max(0, mark.start() - _EXAMPLE_LOOK), mark.start()
        )
        before = text[max(0, mark.start() - _RULED_OUT_LOOK) : mark.start()]
        ruled_out = any(hint in before.lower() for hint in _RULED_OUT_HINTS) and (
            _RULED_OUT_BEFORE.search(before)
        )
        if quoted or example or ruled_out:
            spans.append((mark.start(), mark.end()))
    if not spans:
        return text
    pieces, position = [], 0
    for start, end in spans:
        pieces += [text[position:start], " " * (end - start)]
        position = end
    return "".join([*pieces, text[position:]])
