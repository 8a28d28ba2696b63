"""Values the model rules out: negated, called wrong or struck through (docs/grading.md).

The principle: a value the model itself negates (`not 18`, `anything but 18`, `cannot be 18`,
`nicht 18`, `不是18`), calls wrong (`18 is incorrect`, `18 (wrong)`, `18 ❌`, `18, but that was
wrong`) or strikes through (`~~18~~`, `\\cancel{18}`, `<s>…18…</s>`, `1̶8̶`) is not a value it
states. A statement whose only values are ruled out states none, and closing words that rule
out the very value the working reached leave no answer: the model has said it is not the answer.
"""

from __future__ import annotations

import re

_VALUE = r"[-−]?\\?[$£€¥₹]?[ \t]?\d[\d,.]*+"
# What negates the value after it, in the languages models answer in.
_NEGATION = (
    r"(?:(?<!\bif[ \t])\bnot[ \t]++(?:quite[ \t]++|even[ \t]++)?|n['’]t[ \t]++|(?:≠|!=|¬)[ \t]*+"
    r"|\b(?:anything|everything)[ \t]++(?:but|except)[ \t]++|\b(?:hardly|never)[ \t]++"
    r"|\bby[ \t]++no[ \t]++means[ \t]++|\bneither[ \t]++|\brather[ \t]++than[ \t]++"
    r"|\binstead[ \t]++of[ \t]++"
    r"|\bcan(?:not|['’]t|[ \t]+not)[ \t]++(?:possibly[ \t]++)?be[ \t]++"
    r"|\b(?:rejected|rul(?:ed|es|ing)[ \t]++out)[ \t]++"
    r"|\binitially[ \t]++(?:got|thought|said|wrote)[ \t]++"
    r"|\bnicht[ \t]++|\bno[ \t]++(?:es|son|era|sería)[ \t]++"
    r"|\bn['’](?:est|était|serait)[ \t]++pas[ \t]++"
    r"|\bnon[ \t]++è[ \t]++|\bnão[ \t]++(?:é[ \t]++)?|\bне[ \t]++|不是[ \t]*+|ではない|じゃない)"
)
# A negation covers the list it opens: `not 75 or 180`, `neither 75 nor 180`, `not 5, 6 or 7`.
_LISTED = (
    r"(?:[ \t]*+(?:,[ \t]*+(?:or[ \t]++|nor[ \t]++)?|or[ \t]++|nor[ \t]++)" + _VALUE + r"){0,4}"
)
NEGATED_NUMBER = re.compile(_NEGATION + _VALUE + _LISTED, re.IGNORECASE)
_LISTED_BEFORE = re.compile(
    r"(?<![\d,.])(?P<value>" + _VALUE + r")[ \t]*+(?:,[ \t]*+(?:or[ \t]++|nor[ \t]++)?|or[ \t]++"
    r"|nor[ \t]++)[-−]?\\?[$£€¥₹]?[ \t]?\Z"
)
_NEGATED_BEFORE = re.compile(_NEGATION + r"[-−]?\\?[$£€¥₹]?[ \t]?\Z", re.IGNORECASE)
_LOOK = 24  # characters before a number in which its negation is looked for
"""A negated value: `not 18`, `isn't 18`, `≠ 18`, `anything but 18`, `cannot be 18`."""
# What calls the value before it wrong: `18 is incorrect`, `18 (wrong)`, `18 ❌`, `18 — wrong`,
# `18? No.`, `18, but that's wrong`, `\\boxed{18} is what a careless solver would write`.
_CALLED_WRONG = (
    r"[ \t]*+\}?(?:[ \t]*+[A-Za-z]{2,12}(?<!\bis)(?<!\bwas)(?![A-Za-z]))?[ \t]*+"
    r"(?:(?:is|was|would[ \t]++be|seems)[ \t]++(?:incorrect|wrong|not[ \t]++(?:right|correct|it"
    r"|the[ \t]++answer))\b"
    r"|\([ \t]*+(?:wrong|incorrect|not[ \t]++(?:right|correct)|rejected|ruled[ \t]++out"
    r"|just[ \t]++kidding|jk)\b|[❌✗✘]|[—–-][ \t]*+(?:incorrect|wrong)\b|\?[ \t]*+(?:no|not|nope)\b"
    r"|,?[ \t]++but[ \t]++(?:that|this|it)(?:['’]s|[ \t]++is|[ \t]++was)[ \t]++(?:wrong|incorrect"
    r"|not[ \t]++(?:right|correct))"
    r"|is[ \t]++what[^.\n]{0,40}\b(?:would|might)\b|by[ \t]++(?:mistake|accident)\b)"
)
CALLED_WRONG = re.compile(_CALLED_WRONG, re.IGNORECASE)
_VALUE_CALLED_WRONG = re.compile(
    r"(?<![\d,.])" + _VALUE + r"(?:[ \t]*+%)?" + _CALLED_WRONG, re.IGNORECASE
)
_HINTS: tuple[str, ...] = (
    "not",
    "n't",
    "n’t",
    "≠",
    "!=",
    "¬",
    "but",
    "except",
    "hardly",
    "never",
    "means",
)
_HINTS += ("be ", "neither", "não", "reject", "rule", "initially", "nicht", "no ", "n'", "n’")
_HINTS += ("non", "не", "rather than", "instead of")
_HINTS += ("不是", "ない", "incorrect", "wrong", "kidding", "jk", "❌", "✗", "✘", "?", "what")
_HINTS += ("mistake", "accident")
_HINT = re.compile("|".join(map(re.escape, _HINTS)))
"""A part of every ruling-out form, in lower case: most stated values have none."""
# Struck-through text: markdown, LaTeX, HTML.
_STRUCK = re.compile(
    r"~~[^~\n]{1,200}~~|\\(?:cancel|bcancel|xcancel|sout|st|xout)\{[^{}\n]{0,200}\}"
    r"|<(del|strike)>[^<]{0,400}</\1>",
    re.IGNORECASE,
)
_STRUCK_HINTS = ("~~", "cancel{", "\\sout{", "\\st{", "\\xout{", "<del>", "<strike>")
"""A part of every struck span, case-folded."""
# Digits drawn struck through with combining overlays (`1̶8̶`), written as markdown strikes.
_OVERLAID = re.compile("(?:[\\d.,][\u0335-\u0338]+)+")


def without_ruled_out(stated: str) -> str:
    """A stated answer with the values it rules out blanked (`not 18 but 20` states 20)."""
    folded = stated.lower()
    if _HINT.search(folded) is None:
        return stated
    return _VALUE_CALLED_WRONG.sub(" ", NEGATED_NUMBER.sub(" ", stated))


WRONG_HINT = re.compile(
    r"wrong|incorrect|right|correct|answer|kidding|jk|reject|ruled|what|mistake|accident|[❌✗✘?]",
    re.IGNORECASE,
)
"""A part of every form that calls a value wrong after it: a sentence with none calls none."""


def ruled_out_at(
    text: str, start: int, end: int, called_wrong: bool = True, listed: int = 4
) -> bool:
    """Whether the number ``text[start:end]`` is negated before it or called wrong after it
    (``called_wrong=False``: its sentence holds no word that calls a value wrong), or follows
    a negated value in a list (`not 75 or 180`; up to ``listed`` values back)."""
    before = text[max(0, start - _LOOK) : start].rstrip(" \t$£€¥₹\\-−")
    opening = _BOX_OPENING.search(before) if before.endswith("{") else None
    if opening is not None:  # `not \boxed{7}`: the negation before the box
        start -= len(before) - opening.start()
        before = before[: opening.start()].rstrip(" \t$")
    if listed and before.endswith((",", "or", "nor")):
        previous = _LISTED_BEFORE.search(text, max(0, start - _LOOK), start)
        if previous is not None:
            value = previous.group("value")
            begin = previous.start("value") + len(value) - len(value.lstrip(" \t"))
            if ruled_out_at(text, begin, previous.end("value"), False, listed - 1):
                return True
    # The negation ends right before the number: a word or a sign, never a digit or an operator
    # (the common case, found at once), and its last word says whether it can negate.
    if before and (before[-1].isalpha() or before[-1] in "≠=¬"):
        last = before.rsplit(None, 1)[-1].lower()
        if (last in _LAST_WORDS or last.endswith(_LAST_MARKS)) and _NEGATED_BEFORE.search(
            text, max(0, start - _LOOK), start
        ):
            return True
    if before.endswith("=") and _NEGATED_WORKING.search(text, max(0, start - 2 * _LOOK), start):
        return True  # `(4 hours × 2 cm, not 5 hours × 2 cm = 10 cm)`: working ruled out whole
    return called_wrong and CALLED_WRONG.match(text, end) is not None


_BOX_OPENING = re.compile(r"\\boxed[ \t]*\{\Z")
# A clause that opens on `not` and works out the value it rules out, up to its `=`.
_NEGATED_WORKING = re.compile(r"(?:^|[(,;—–])[ \t]*not[ \t]+[^(),;—–=\n.!?]*=[ \t$£€¥₹\\]*\Z", re.I)
_LAST_WORDS = frozenset(
    (
        "not", "quite", "even", "but", "except", "hardly", "never", "means", "be", "rejected",
        "out", "got", "thought", "said", "wrote", "nicht", "es", "son", "era", "sería", "pas",
        "è", "не", "neither", "não", "é", "than", "of",
    )
)  # fmt: skip
_LAST_MARKS = ("n't", "n’t", "≠", "!=", "¬", "不是", "ではない", "じゃない")


def without_struck(text: str) -> str:
    """The text with struck-through spans blanked: what the model strikes out it withdraws."""
    if not text.isascii() and any(overlay in text for overlay in "\u0335\u0336\u0337\u0338"):
        text = _OVERLAID.sub(lambda m: " " * len(m.group(0)), text)
    if "~~" not in text and "\\" not in text and "<" not in text:
        return text
    folded = text.casefold()
    if not any(hint in folded for hint in _STRUCK_HINTS):
        return text  # LaTeX or `<` but no strike command or tag (the common case, found cheaply)
    return _STRUCK.sub(_struck_out, text)


def ends_struck(text: str) -> bool:
    """Whether the text ends on struck-through text (`~~The answer is 294.~~`): its last statement
    withdrawn, and nothing after it."""
    start = max(0, len(text) - _END_LOOK)
    if text.find("~~", start) < 0 and text.find("<", start) < 0:
        return False  # neither a markdown strike nor a tag in the tail (the common case)
    tail = text[start:].casefold()
    if "~~" not in tail and "<del>" not in tail and "<strike>" not in tail:
        return False  # `<<48/2=24>>` and other brackets, no strike (found cheaply)
    struck = _STRUCK_END.search(text, start)
    if struck is None:
        return False
    value = _STRUCK_VALUE.fullmatch(struck.group(1))
    if value is None:
        return True
    # A bare value struck at the end withdraws the statement it strikes (`Answer: 7` then
    # `~~7~~`); another value is ruled out (`**Answer: 7 dozen**` then `~~84~~` reads `not 84`).
    before = _LAST_DIGITS.search(text, max(0, struck.start() - _END_LOOK), struck.start())
    return before is not None and before.group(1).replace(",", "") == _DIGITS.sub(
        "", value.group(1)
    )


_STRUCK_END = re.compile(
    r"((?:~~[^~\n]{1,200}~~|<(del|strike)>[^<]{0,400}</\2>))[\s.*_]*\Z", re.IGNORECASE
)
_END_LOOK = 500
_LAST_DIGITS = re.compile(r"(\d[\d,]*(?:\.\d+)?)(?!.*\d)", re.DOTALL)
_DIGITS = re.compile(r"[^\d.]")


def _struck_out(struck: re.Match[str]) -> str:
    # A struck value is one the model rules out (`~~18~~` reads `not 18`); struck prose goes.
    inner = _STRUCK_VALUE.fullmatch(struck.group(0))
    return f" not {inner.group(1)} " if inner else " " * len(struck.group(0))


_STRUCK_VALUE = re.compile(
    r"(?:~~|\\[a-z]{2,7}\{|<(?:del|strike)>)[ \t]*([-−]?\\?[$£€¥₹]?[ \t]?\d[\d,.]*)[ \t]*"
    r"(?:~~|\}|</(?:del|strike)>)",
    re.IGNORECASE,
)
