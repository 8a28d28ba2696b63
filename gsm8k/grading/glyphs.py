"""Characters around and inside numbers that change how they read, set right before any rule.

Invisible and formatting characters inside a number are dropped (``1\\u200b8`` is 18); a minus
sign other than ``-`` and ``−`` right before a number is written as ``-``; text under a
right-to-left override is blanked (it displays reversed); a degree mark (``49^\\circ``,
``\\degree``) is written as ``°``, a unit, never a power; a joiner between two numbers
written in another form (``18 -- 20``, ``18 \\sim 20``, ``18 ～ 20``, ``18 \\& 20``, ``18 \\mp
2``) is written as the one form the rules read (``—``, ``~``, ``&``, ``±``).
"""

from __future__ import annotations

import re

from gsm8k.grading.numbers import MINUS_SIGNS, NOT_BEFORE

# Invisible and formatting characters: zero-width and bidi marks, variation selectors, combining
# marks, C0/C1 controls (NUL among them) other than line breaks and tabs.
_INVISIBLE = (
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\ufe00-\ufe0f\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
    "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
    "\u0591-\u05bd\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
_SPLIT_NUMBER = re.compile(rf"(?<=[\d.,]){_INVISIBLE}++(?=[\d.,])")
# A minus sign other than `-` and `−` right before a number is written as `-`, so that every rule
# reads the sign (`ANSWER: －18`, `"answer": ﹣3`); after a number it is subtraction and stays.
_OTHER_MINUS_SIGNS = "".join(c for c in MINUS_SIGNS if c not in "-\u2212")
_OTHER_MINUS = re.compile(rf"(?<![{NOT_BEFORE}])[{re.escape(_OTHER_MINUS_SIGNS)}](?=\d)")
# A right-to-left override shows what follows it reversed (``\u202e81`` looks like 18): what it
# covers reads one way and displays another, so it is not read at all.
_RIGHT_TO_LEFT_OVERRIDE = re.compile("\u202e[^\u202c\n]*\u202c?")


_DEGREE_MARK = re.compile(r"(?<=\d)[ \t]*+\^[ \t]*+(?:\{[ \t]*+\\circ[ \t]*+\}|\\circ)|\\degree\b")


# A joiner between two numbers in a form other than the one the rules read: a range or
# alternative is the same whatever glyph or markup draws it. A double hyphen is a dash of prose
# (`18 -- 9 eggs at $2 each`) as often as a range: it is read as the em dash, which joins only a
# value that closes the statement.
_JOINER_FORMS = {
    "--": "—", "---": "—", "‒": "–", "―": "—", "⸺": "—", "⸻": "—", "\\sim": "~", "～": "~",
    "〜": "~", "∽": "~", "⁓": "~", "≈": "~", "≃": "~", "\\approx": "~",
    "\\&": "&", "&amp;": "&", "＆": "&", "⋁": "∨", "∓": "±", "\\mp": "±",
}  # fmt: skip
_JOINER_FORM = re.compile(
    r"(?<=\d)([ \t]*+)(?:\\text\{[ \t]*+(-{2,3})[ \t]*+\}|(-{2,3}|[‒―⸺⸻～〜∽⁓≈≃＆⋁∓]|&amp;|\\&"
    r"|\\(?:sim|mp|approx)(?![A-Za-z])))(?=[ \t]*+\\?[$£€¥₹]?[ \t]*+\d)"
)
_JOINER_HINTS: tuple[str, ...] = ("--", "‒", "―", "⸺", "⸻", "\\sim", "～", "〜", "∽", "&", "＆")
_JOINER_HINTS += ("⋁", "∓", "\\mp")
_JOINER_HINTS += ("⁓", "≈", "≃", "\\approx")


def _joiner(match: re.Match[str]) -> str:
    return match.group(1) + _JOINER_FORMS[match.group(2) or match.group(3)]


def join_split_numbers(text: str) -> str:
    """Drop invisible and formatting characters from inside numbers: ``1\\u200b8`` is 18.

    They are not digits, and a number they stand in is read whole, as a reader sees it, never
    cut at them. Elsewhere (inside words of scripts that need joiners and combining marks) the
    text is left as it is. Text under a right-to-left override is blanked: it displays reversed.
    """
    if "\u202e" in text:
        text = _RIGHT_TO_LEFT_OVERRIDE.sub(" ", text)
    text = _SPLIT_NUMBER.sub("", text)
    if any(hint in text for hint in _JOINER_HINTS):  # before the minus signs: `18 ‒ 20` is a range
        text = _JOINER_FORM.sub(_joiner, text)
    if any(minus in text for minus in _OTHER_MINUS_SIGNS):  # a fast scan spares most texts
        text = _OTHER_MINUS.sub("-", text)
    if "\\circ" in text or "\\degree" in text:
        text = _DEGREE_MARK.sub("°", text)  # `49^\\circ` is 49 degrees, never a power of 49
    return text


# Letters of other scripts drawn like Latin ones, and full-width forms: a hedge word written
# with them (`mаybe` with a Cyrillic `а`, `Ｐｒｏｂａｂｌｙ`) is the same word; full-width
# digits are left as the rules read them.
# A look-alike is folded only in a word that also holds a Latin letter (`оr`, `mаybe`): a word
# wholly in Cyrillic or Greek (`Ответ`, `возможно`) is a word of that language.
_FULL_WIDTH = str.maketrans(
    {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F) if not 0xFF10 <= c <= 0xFF19}
)
_LOOKALIKES = str.maketrans(
    dict(
        zip(
            "аеорсухіјԁһѕАВЕКМНОРСТХΑΒΕΖΗΙΚΜΝΟΡΤΥΧοι",
            "aeopcyxijdhsABEKMHOPCTXABEZHIKMNOPTYXoi",
            strict=True,
        )
    )
)
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z]")
# Invisible and formatting characters inside a word (`o\u200br`) are not read: the word is the
# one a reader sees.
_INVISIBLE_IN_WORD = re.compile(r"(?<=\w)[\u00ad\u200b-\u200d\u2060\ufeff\u0300-\u036f]++(?=\w)")


def fold_letters(text: str) -> str:
    """``text`` with its words as a reader sees them, for the rules that read words (hedges, a
    sentence that says there is no answer): look-alike and full-width letters as Latin ones,
    invisible marks inside a word dropped. Numbers are read as :func:`join_split_numbers` left
    them."""
    if text.isascii():
        return text
    text = _INVISIBLE_IN_WORD.sub("", text.translate(_FULL_WIDTH))
    return _WORD.sub(_fold_word, text)


def _fold_word(word: re.Match[str]) -> str:
    return word[0].translate(_LOOKALIKES) if _LATIN.search(word[0]) else word[0]
