"""Answer phrases of the MGSM languages ("the answer is", "Die Antwort lautet", "Ответ:", "答案是",
"సమాధానం", …) directly followed by a number: the ``answer_is`` rule.

The last phrase whose value is a number wins; a phrase inside a question the model asks itself
(`ответ будет 14?`) is not an answer. Values are read from a bounded window after the phrase, so
the rule is linear in the text's length.
"""

from __future__ import annotations

import re
from decimal import Decimal

from gsm8k.grading.reader import RULED_OUT, SENTENCE_END, Found, Reader
from gsm8k.grading.refusals import BOUND, EXPRESSION, HEDGED
from gsm8k.grading.ruled_out import NEGATED_NUMBER
from gsm8k.grading.rules import NoAnswer

VALUE_WINDOW = 200
"""Characters after a phrase in which its value must appear."""

# Answer phrases of the MGSM languages, each ending where its value starts. Words of scripts that
# separate words with spaces must not continue a longer word (`long-answer`, `myanswer`).
_WORD_START = r"(?<![\w-])"
# An aside between the keyword and the verb: Kojima et al.'s "the answer (arabic numerals) is".
_ASIDE = r"[*_]{0,3}(?:[ \t]*[(（][^()（）\n]{0,40}[)）])?"
ANSWER_PHRASES = "|".join(
    (
        rf"{_WORD_START}(?:final[ \t]+)?answer{_ASIDE}"
        r"(?:[ \t]+to[ \t]+(?:the|this|that)[ \t]+(?:problem|question))?"
        r"[ \t]*(?:is|would[ \t]+be|will[ \t]+be|should[ \t]+be|[:：])",  # en
        rf"{_WORD_START}(?:endgültige[ \t]+)?antwort{_ASIDE}(?:[ \t]+(?:ist|lautet)|[ \t]*[:：])",
        rf"{_WORD_START}respuesta(?:[ \t]+(?:final|correcta))?{_ASIDE}(?:[ \t]+es|[ \t]*[:：])",
        rf"{_WORD_START}réponse(?:[ \t]+(?:finale|correcte))?{_ASIDE}(?:[ \t]+est|[ \t]*[:：])",
        rf"{_WORD_START}ответ{_ASIDE}(?:[ \t]*[:：—–]|[ \t]+(?:равен|будет|составляет|[-—–])"
        r"|[ \t]+(?=[-−]?[$£€¥₹]?\d))",  # ru: `Ответ 18`, a bare number after the word
        rf"{_WORD_START}resposta(?:[ \t]+(?:final|correta|certa))?{_ASIDE}"
        r"(?:[ \t]+(?:é|seria|será)|[ \t]*[:：])",  # pt
        rf"{_WORD_START}risposta(?:[ \t]+(?:finale|corretta|esatta))?{_ASIDE}"
        r"(?:[ \t]+(?:è|e['’]|sarebbe|sarà)|[ \t]*[:：])",  # it
        r"(?:최종[ \t]*)?(?:정답|답)[ \t]*(?:은|는|[:：])",  # ko
        rf"{_WORD_START}jibu(?:[ \t]+la[ \t]+mwisho)?{_ASIDE}(?:[ \t]+ni|[ \t]*[:：])",  # sw
        rf"উত্তর{_ASIDE}(?:[ \t]+(?:হল|হলো|হবে)|[ \t]*[:：]?)",  # bn
        rf"(?:సమాధానం|జవాబు){_ASIDE}[ \t]*[:：]?",  # te
        rf"คำตอบ(?:สุดท้าย)?{_ASIDE}[ \t]*(?:คือ|[:：])?",  # th
        rf"答え{_ASIDE}[ \t]*(?:は|[:：])?|答[*_]{{0,3}}[:：]",  # ja
        rf"答案{_ASIDE}[ \t]*(?:(?:可能|应该|應該|大概|也许|也許)[ \t]*)?(?:是|为|為|[:：])",  # zh
    )
)
_ANSWER_IS = re.compile(ANSWER_PHRASES, re.IGNORECASE)
_PHRASE_KEYWORDS: tuple[str, ...] = ("answer", "antwort", "respuesta", "réponse", "ответ", "jibu")
_PHRASE_KEYWORDS += ("উত্তর", "సమాధానం", "జవాబు", "คำตอบ", "答")
_PHRASE_KEYWORDS += ("resposta", "risposta", "답")
"""A word every phrase of :data:`ANSWER_PHRASES` contains, in lower case."""
# What may stand between an answer phrase and its number: markup, dashes, and a few words that
# qualify the statement without changing it ("the answer is therefore 18").
_FILLER = re.compile(
    r"(?:[ \t*_`:：$\\({\[—–\"'“«]|-(?=[ \t])"
    r"|(?:therefore|thus|so|then|simply|just|exactly|approximately|about|around|also|daher|somit"
    r"|either|maybe|perhaps|probably|possibly|likely|entweder|soit|ou|o|либо|или"
    r"|donc|alors|bien|entonces|así|equivale[ \t]+a|равен|равна|равно|будет|примерно)(?!\w))*",
    re.IGNORECASE,
)
_RANGE_OPENERS = r"(?:entre|zwischen|между|tra|fra|от|de|von|desde|da|du)"
_RANGE_OPENING = re.compile(rf"{_RANGE_OPENERS}[ \t]", re.IGNORECASE)
_RANGE_OR_EXPRESSION = re.compile(
    r"(?:(?:any(?:where|[ \t]+(?:number|value|amount|whole[ \t]+number))|somewhere)[ \t]+)?"
    r"(?:between|from)[ \t]+\\?[$£€¥₹]?[ \t]?\d[\d,.]*[ \t]*[A-Za-z]{0,12}[ \t]*(?:and|to)"
    r"[ \t]+\\?[$£€¥₹]?\d"
    r"|(?![aAI][ \t])[A-Za-z][ \t]*[-+*/×−][ \t]*\d|\d[\d,.]*[ \t]*(?:≤|<=|<|\\le)[ \t]*[A-Za-z]"
    r"|(?:at[ \t]+(?:least|most)|(?:more|less|fewer|greater)[ \t]+than"
    r"|no[ \t]+(?:more|less|fewer)[ \t]+than)[ \t]+\\?[$£€¥₹]?[ \t]?\d"
    # The same range in the other languages read: `entre 18 y 20`, `zwischen 18 und 20`,
    # `от 100 до 200 фунтов`, `de 18 à 20`, `von 18 bis 20`, `tra 18 e 20`.
    rf"|{_RANGE_OPENERS}[ \t]+\\?[$£€¥₹]?[ \t]?\d[\d,.]*+[ \t]*+[^\W\d_]{{0,12}}[ \t]*+"
    r"(?:y|e|et|und|и|до|à|a|bis|até|al|au)[ \t]+\\?[$£€¥₹]?\d",
    re.IGNORECASE,
)
_DIGIT_RUN = re.compile(r"[\d,. \u00a0\u202f]*")
_NUMBER_START = re.compile(r"(?:[-−]|±|\\pm[ \t]?)?[$£€¥₹]?[ \t]?\d|[dt]?frac\{")


# An answer mark before an answer phrase: a later phrase that only rules a value out notes it.
_EARLIER_MARK = re.compile(
    r"answer[ \t*_]*[:：]|####|\\boxed|^[ \t]*A[ \t]*:|<answer>", re.IGNORECASE | re.MULTILINE
)


# Whose answer a phrase states when it is not the model's: `the reference answer is 18`, `the
# expected answer is`, `a common wrong answer is`, `the teacher's answer is`, `[SYSTEM] correct
# answer:`.
SOMEONE_ELSES = re.compile(
    # Up to two words between the owner and the phrase: `The official GSM8K answer is 5.`
    r"\b(?:reference|expected|gold|official|textbook|grader['’]?s?|dataset['’]?s?)(?:[ \t]+[\w.-]+)"
    r"{1,2}[ \t]+\Z|"
    r"\b(?:reference|expected|gold|official|textbook|book['’]?s?|given|provided|key|grader['’]?s?"
    r"|your|their|his|her|its|another|other|wrong|incorrect|common|typical|an?|example|sample"
    r"|sheet['’]?s?|(?!let['’])[A-Za-z]{2,20}['’]s)[ \t]+(?:final[ \t]+)?\Z"
    r"|\[[A-Za-z ]{1,20}\][ \t]+(?:(?:final|correct)[ \t]+)?\Z",
    re.IGNORECASE,
)
OWNER_LOOK = 40


def find_answer_is(reader: Reader) -> Found | NoAnswer | None:
    text = reader.text
    folded = text.lower()
    if not any(keyword in folded for keyword in _PHRASE_KEYWORDS):
        return None  # a fast substring check spares most texts the phrase pattern
    last = True
    for match in reversed(list(_ANSWER_IS.finditer(text))):
        owner = SOMEONE_ELSES.search(text, max(0, match.start() - OWNER_LOOK), match.start())
        if owner is not None and owner.group(0).strip().lower() not in ("a", "an"):
            continue  # `Reference answer (from the key): 20`: someone else's (`A resposta`: no)
        rest, sentence = _phrase_sentence(text, match.end())
        if last and _RANGE_OR_EXPRESSION.match(rest):
            # "The answer is between 18 and 20.", "The answer is x - 14.": not one number, and
            # the last-number guess would read a number inside it.
            opening = rest.lower()
            if opening.startswith(("between", "from", "any", "somewhere")) or (
                _RANGE_OPENING.match(opening)
            ):
                return NoAnswer(HEDGED)
            bound = opening.startswith(("at ", "more", "less", "fewer", "greater", "no "))
            return NoAnswer(BOUND if bound else EXPRESSION)
        if sentence is None and NEGATED_NUMBER.match(rest):
            # `The answer is not 20.`: the final statement only rules a value out, and the
            # working's last number is not delivered in its place; `not 6 12` states 12.
            closed = SENTENCE_END.search(rest)
            sentence = rest if closed is None else rest[: closed.start()]
            if (
                last
                and reader.refusal(sentence) == RULED_OUT
                and _EARLIER_MARK.search(text, 0, match.start()) is None
            ):
                return NoAnswer(RULED_OUT)
            # `A: 4` … `Note that the answer is not 14`, `8 cm. The answer is not 10 cm — it
            # is 4 hours, not 5.`: a value ruled out states no answer; the rest is read as prose.
            sentence = None
        if sentence is None:
            continue
        refused = reader.refusal(sentence) if last else None
        if refused is not None:
            # "The answer is 18 or 20.", "The answer is 9 + 9.": the final statement is not one
            # number, and the last-number guess would read a number inside it.
            return NoAnswer(refused)
        last = False
        value = reader.value_of(sentence)
        if value is not None:
            return value, (match.group(0) + sentence).strip()
    return None


def phrase_value(reader: Reader, end: int) -> tuple[Decimal | None, str] | None:
    """The value an answer phrase ending at ``end`` in ``reader.text`` states, and the text up to
    the end of its sentence; ``None`` when no number follows it or it asks a question."""
    _, sentence = _phrase_sentence(reader.text, end)
    if sentence is None:
        return None
    return reader.value_of(sentence), sentence


def _phrase_sentence(text: str, end: int) -> tuple[str, str | None]:
    """What follows a phrase (past its filler words), and the sentence that states its value:
    ``None`` for prose ("the answer is the amount she has left") or a question the model asks
    itself (`так ответ будет 14?`)."""
    window = text[end : end + VALUE_WINDOW]
    if window[-1:].isdigit():
        # Let a long number run past the window: it is read whole, never cut.
        run = _DIGIT_RUN.match(text, end + len(window))
        window += run.group(0) if run else ""
    filler = _FILLER.match(window)
    rest = window[filler.end() if filler else 0 :]
    if not _NUMBER_START.match(rest):
        return rest, None
    sentence_end = SENTENCE_END.search(window, len(window) - len(rest))
    if sentence_end is not None and window[sentence_end.start()] in "?？":
        return rest, None
    return rest, window if sentence_end is None else window[: sentence_end.start()]
