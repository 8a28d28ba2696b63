"""The last-number rule's answer, when no answer mark states one: the closing sentence's number,
or none when the closing sentence says there is no answer (`The answer cannot be determined.`,
`I don't know the answer.`): an answer slot that holds no number delivers nothing, never the
working's last number (docs/grading.md, "The delivered answer")."""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import pairwise

from gsm8k.grading.doubt import RETRACTION, sentence_hedged
from gsm8k.grading.endings import restart_unfinished
from gsm8k.grading.fallback import find_last_number
from gsm8k.grading.glyphs import fold_letters
from gsm8k.grading.numbers import same_number
from gsm8k.grading.reader import SENTENCE_END, Found, Reader
from gsm8k.grading.ruled_out import ruled_out_at
from gsm8k.grading.rules import EMPTY_SLOT, NoAnswer
from gsm8k.grading.spelled import closing_in_words
from gsm8k.grading.words import SMALL_NUMBER_WORDS

# A sentence that says the answer is not there, with the answer (or the asker's question) as
# what is missing: `the answer is unknown`, `the answer cannot be determined`, `I don't know
# the answer`, `I'm unable to answer`, `(no answer)`, `there is not enough information to
# determine the answer`. It opens the sentence, so that an aside about something else (`Any
# other answer is impossible.`, `No answer key is available.`, `not enough information to
# answer how much she makes per week`) is not read as one. An answer phrase whose slot is empty
# or a placeholder (`The final answer is:`, `the answer is [number].`, `$\\_\\_$`) says so too.
_NUMBER_WORD = "|".join((*SMALL_NUMBER_WORDS, "hundred", "thousand", "million", "billion", "a"))
_ASKED_QUANTITY = (
    r"(?:how[ \t]+(?:much|many)|what[ \t]+(?:the[ \t]+)?(?:(?:final|correct|right)[ \t]+)?"
    r"(?:answer|amount|total|result|number|value)|the[ \t]+(?:(?:final|correct|right)[ \t]+)?"
    r"(?:answer|amount|total|result|value))\b"
)
_TO_THE_END = r"[^.!?\n\d]*[.!]?[\s*_)\]]*\Z"
_NO_ANSWER = re.compile(
    r"[\s*_(>\[-]*(?:(?:so|therefore|thus|hence|unfortunately|sorry|final[ \t]+answer)[ \t,:]+)?"
    r"(?:(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]+(?:is|would[ \t]+be|remains)[ \t]+(?:(?:still"
    r"|therefore|thus|simply|definitely)[ \t]+)?(?:unknown|undetermined|indeterminate|undefined"
    r"|impossible[ \t]+to[ \t]+(?:determine|find)|not[ \t]+(?:determinable|known)\b)"
    r"|(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]+(?:cannot|can['’]?t|can[ \t]+not|could[ \t]+not)"
    r"[ \t]+be[ \t]+(?:determined|found|known|computed|calculated|given)"
    r"|(?:I|we)[ \t]+(?:cannot|can['’]?t|can[ \t]+not|could[ \t]+not|am[ \t]+unable[ \t]+to"
    r"|['’]m[ \t]+unable[ \t]+to|(?:do|did)[ \t]+not|don['’]?t)[ \t]+(?:determine|find|compute"
    r"|calculate|give|know|answer)(?:[ \t]+(?:the|an|a)[ \t]+(?:final[ \t]+)?answer)?"
    r"[ \t]*[.!]?[\s*_)\]]*\Z"
    r"|I['’]m[ \t]+unable[ \t]+to[ \t]+answer"
    # Not knowing the asked quantity: `I'm not sure how much she makes.`, `I don't know what
    # the answer is.` (a doubt about something else, `I'm not sure why …`, states nothing).
    r"|(?:I|we)(?:[ \t]+(?:am|are)[ \t]+|['’](?:m|re)[ \t]+)(?:not[ \t]+|un)(?:sure|certain)"
    r"(?:[ \t]+(?:of|about))?[ \t]+"
    + _ASKED_QUANTITY
    + _TO_THE_END
    + r"|(?:I|we)[ \t]+(?:do[ \t]+not|don['’]?t)[ \t]+know[ \t]+"
    + _ASKED_QUANTITY
    + _TO_THE_END
    + r"|(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]*(?:is|:)[ \t:*_]*(?:not[ \t]+enough[ \t]+"
    r"information|insufficient[ \t]+information|(?:cannot|can['’]?t)[ \t]+be[ \t]+determined"
    r"|unknown|undetermined|indeterminate|not[ \t]+determinable|none|n/a|[?？…_.-]+"
    r"|\[(?![ \t]*+(?:" + _NUMBER_WORD + r")\b)[^\]\d\n]{0,40}\]|\$?(?:\\?_[ \t]*){2,}\$?"
    r"|(?=[ \t*_]*[.!]?[\s*_)\]]*\Z))[ \t*_]*[.!]?"
    r"[\s*_)\]]*\Z"
    r"|no[ \t]+answer[\s*_.!)\]]*\Z"
    # The answer left to someone else, withheld, or a template's slot: `The answer is whatever the
    # reference solution says.`, `Please tell me the correct answer.`, `(answer withheld)`.
    r"|(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]+is[ \t]+whatever\b[^\d\n]*\Z"
    r"|(?:please[ \t]+)?tell[ \t]+me[ \t]+the[ \t]+(?:correct[ \t]+|right[ \t]+)?answer\b[^\d\n]*\Z"
    r"|\(?answer[ \t]+withheld\)?[\s.]*\Z"
    r"|(?:the[ \t]+)?(?:expected[ \t]+|final[ \t]+)?answer[ \t]+is[ \t]+\{\{[^{}\n]{0,40}\}\}"
    r"[\s.]*\Z"
    # A closing line that is only the statement: `Unknown.`, `N/A`, `Cannot be determined.`,
    # `Not enough info.`, `There's no way to know.`
    r"|(?:(?:it|this|that|there)(?:[ \t]+is|['’]s)[ \t]+)?(?:unknown|n/?a|undeterminable"
    r"|indeterminate|undetermined|(?:cannot|can['’]?t)[ \t]+be[ \t]+(?:determined|known|answered)"
    r"|(?:not[ \t]+enough|insufficient)[ \t]+(?:info|information|data)|no[ \t]+way[ \t]+to"
    r"[ \t]+(?:know|tell|say)|impossible[ \t]+to[ \t]+(?:determine|say|tell|know))[\s*_.!)\]]*\Z"
    r"|there[ \t]+is[ \t]+(?:not[ \t]+enough|insufficient)[ \t]+information[ \t]+to[ \t]+"
    r"(?:determine|find|give|compute|calculate)[ \t]+(?:the|an)[ \t]+(?:final[ \t]+)?answer"
    r"[ \t]*[.!]?[\s*_)\]]*\Z)",
    re.IGNORECASE,
)
# The same statement in any words: a short sentence that names what is missing (the answer, the
# question, the information), says that it cannot be had, and ends on it (`It is impossible to
# determine the answer.`, `The question cannot be answered.`, `There is not enough
# information.`, `The answer is unclear.`). Ending on it keeps asides out: `… not enough
# information to answer how much she makes per week` ends on another quantity, `Let me know if
# anything is unclear` names no answer.
_MISSING = re.compile(
    r"\b(?:answers?|answered|question|information|info|solution|problem|data|details"
    # The asked quantity by a name of its own: `So the amount cannot be determined.`
    r"|amount|total|sum|result|value|figure|number)\b(?!['’]s)",
    re.IGNORECASE,
)
# What says it cannot be had: a negated verb of finding it (`cannot be determined`, `unable to
# answer`), too little information, or a predicate of not being known (`is unclear`). A doubt
# (`I can't be sure this is the answer`) negates no such verb.
_CANNOT_HAVE = re.compile(
    r"\b(?:cannot|can['’]?t|can\s+not|could\s+not|couldn['’]t|unable\s+to|impossible\s+to"
    r"|not\s+able\s+to|no\s+way\s+to)\s+(?:be\s+)?(?:determined?|found|find|known?|answer(?:ed)?"
    r"|computed?|calculated?|solved?|given|give)\b"
    r"|\b(?:not\s+enough|insufficient)\s+(?:information|data|info|details)\b"
    r"|\b(?:do(?:es)?\s+not|do(?:es)?n['’]t)\s+(?:provide|give|include|contain|have)\s+enough\b"
    r"|\bno\s+answer\b|\b(?:is|remains)\s+(?:unsolvable|unanswerable|not\s+solvable)\b"
    r"|\b(?:is|remains|isn['’]t)\s+(?:(?:still|therefore|thus)\s+)?(?:unclear|unknown|undetermined"
    r"|indeterminate|undefined|undeterminable|not\s+(?:clear|known|determinable))\b"
    r"|\bisn['’]t\s+(?:clear|known|determinable)\b",
    re.IGNORECASE,
)
# A sentence that asks, offers or apologizes states nothing (`Let me know if any part of the
# question is unclear.`, `Sorry if the question was unclear.`).
_NOT_A_STATEMENT = re.compile(
    r"[\s*_(]*(?:if|let|please|feel|sorry|I\s+hope|hope|in\s+case|unless|should|when|whether"
    r"|assuming|suppose|supposing)\b",
    re.IGNORECASE,
)
# A doubt or a condition inside the sentence (`We cannot know the answer for sure …`, `…;
# otherwise the answer is unknown`) says the answer is uncertain, not that there is none.
_DOUBT = re.compile(
    r"\b(?:for\s+(?:sure|certain)|with\s+(?:certainty|confidence)|otherwise)\b", re.IGNORECASE
)
_ENDS_ON_IT = re.compile(
    r"(?:\b(?:answer(?:ed)?|determined|determinable|undeterminable|found|known|information|info"
    r"|unclear|clear|unknown|undetermined|indeterminate|computed|calculated|given|solved"
    r"|unsolvable|unanswerable|problem|question|data|details)"
    r"|\b(?:answer|solve|determine)\s+(?:this|it)"
    # `not enough data to say`: the missing information, then what it would take
    r"|\b(?:information|info|data|details)\s+to\s+(?:say|tell|know|answer|decide|be\s+sure))"
    # `as stated`, `without the egg price`: what the statement rests on, said after it
    r"(?:,?\s+(?:as\s+(?:stated|given|written|posed)|without\s+[\w'’-]+(?:\s+[\w'’-]+){0,2}))?"
    r"[\s*_.!)\]]*\Z",
    re.IGNORECASE,
)
_MOST_WORDS = 12
# The statement in the other languages of MGSM's questions that models answer in.
_OTHER_LANGUAGES = re.compile(
    r"[\s*_(]*(?:la[ \t]+respuesta[ \t]+no[ \t]+se[ \t]+puede[ \t]+determinar"
    r"|die[ \t]+antwort[ \t]+kann[ \t]+nicht[ \t]+bestimmt[ \t]+werden"
    r"|la[ \t]+réponse[ \t]+ne[ \t]+peut[ \t]+pas[ \t]+être[ \t]+déterminée"
    r"|ответ[ \t]+(?:не[ \t]+может[ \t]+быть[ \t]+определ[её]н|невозможно[ \t]+определить)"
    r"|答案无法确定|答案無法確定|答えは(?:決定|特定)できません)",
    re.IGNORECASE,
)
# The same in any words of those languages: a short sentence that names the answer and says it is
# not known (`Die Antwort ist unbekannt.`, `La respuesta es desconocida.`, `答案不确定。`).
_MISSING_ELSEWHERE = re.compile(
    r"\b(?:antwort|l[ao][ \t]+(?:respuesta|réponse|resposta|risposta)|ответ\w*)\b|答案|答え", re.I
)
_CANNOT_ELSEWHERE = re.compile(
    r"unbekannt|nicht[ \t]+(?:bestimmt|bestimmbar|ermittelbar|ermittelt|berechnet)"
    r"|desconocid[ao]|(?:no[ \t]+se[ \t]+puede|imposible)[ \t]+(?:determinar|calcular|saber)"
    r"|indeterminad[ao]|ne[ \t]+peut[ \t]+pas[ \t]+(?:être|déterminer|calculer|savoir)"
    r"|impossible[ \t]+de[ \t]+(?:déterminer|calculer|savoir)|inconnue|indéterminée"
    r"|неизвест|невозможно|нельзя|не[ \t]+(?:может|можно)"
    r"|不确定|無法確定|无法确定|无法得知|不明|未知|わかりません|できません",
    re.IGNORECASE,
)
_NOT_A_STATEMENT_ELSEWHERE = re.compile(
    r"[\s*_(]*(?:wenn|falls|si|se|если|如果|もし)\b", re.IGNORECASE
)
_MOST_CHARACTERS_ELSEWHERE = 80
_LOOK = 300
"""Characters at the end of a text in which its closing sentences are read."""


def find_closing_number(reader: Reader) -> Found | NoAnswer | None:
    """The last number, unless a closing sentence says there is no answer or rules it out."""
    in_words = closing_in_words(reader, find_closing_number)
    if in_words is not None:
        return in_words  # `She travels eighteen miles in total.`: the closing number, in words
    if closing_says_none(reader.text):
        return NoAnswer(EMPTY_SLOT)
    found = find_last_number(reader)
    if found is not None and _closing_rules_out(reader, found[0]):
        return NoAnswer(RULED_OUT_AT_CLOSE)
    if found is not None and _retracted_at_close(reader):
        return NoAnswer(RETRACTED_AT_CLOSE)
    return found


_NUMBER_RUN = 40  # characters before a number's last digit in which the number starts
RETRACTED_AT_CLOSE = "after the last number the model takes it back and states no other: no answer"


def _retracted_at_close(reader: Reader) -> bool:
    """Whether the text ends by taking its last number back (`So 17.\nNo wait. That can't be
    right.`): a retraction after the last digit, none after it states another value; or by
    taking it back for a guess (`Therefore 35. Correction: maybe 44.`). A retraction after a
    value already ruled out takes back that value (`Final: 23 (I initially wrote 27 — ignore
    that.)`)."""
    text = reader.text
    tail_start = max(0, len(text) - _LOOK)
    digit = max((text.rfind(d, tail_start) for d in "0123456789"), default=-1)
    if digit < 0:
        return False
    retracted = RETRACTION.search(text, digit + 1)
    if retracted is not None:
        numbers = list(reader.numbers.finditer(text, max(tail_start, digit - _NUMBER_RUN)))
        last = numbers[-1] if numbers else None
        return (
            last is None
            or not ruled_out_at(text, last.start(), last.end())
            or SENTENCE_END.search(text, last.end(), retracted.end()) is not None
        )
    restarts = list(RETRACTION.finditer(text, tail_start))
    if restarts and restart_unfinished(text, restarts[-1].end()):
        return True  # `Ugh, I messed up. Let me try again. Ticket $7, popcorn $7`: cut mid-redo
    line = text.rfind("\n", 0, digit) + 1
    retraction = RETRACTION.search(text, line, digit)
    if retraction is None or "=" in text[retraction.end() : digit]:
        return False  # no retraction, or working after it (`No, 6 hours: 60/6 = 10. Final: 10.`)
    opened = max(text.rfind(mark, retraction.end(), digit) for mark in (". ", "? ", "! ")) + 1
    return sentence_hedged(text, max(opened, retraction.end()), digit + 1)


_RULED_SENTENCES = 4  # closing sentences read back for values the model rules out
RULED_OUT_AT_CLOSE = "the closing sentence rules out the value the working reached: no answer"


def _same_or_last_result(reader: Reader, match: re.Match[str], value: Decimal, before: str) -> bool:
    """Whether a ruled-out number is the value found, or the working's last result (`= 4500`)."""
    ruled = reader.value_at(match, reader.text)
    if ruled is None:
        return False
    results = _LAST_RESULT.findall(before[-_LOOK:])
    last = reader.value_of(results[-1]) if results else None
    return same_number(ruled, value) or (last is not None and same_number(ruled, last))


_LAST_RESULT = re.compile(r"=[ \t]*+(?:<<[^>]*>>)?(\\?\$?[ \t]?-?\d[\d,]*(?:\.\d+)?)")


def _closing_rules_out(reader: Reader, value: Decimal) -> bool:
    """Whether the last sentence that holds a number rules out ``value`` (`It's definitely not
    20.`, `I initially got 20 but that was wrong.`, `20? No.`): the model says it is not the
    answer, and the working's number is not delivered in its place."""
    text = reader.text
    tail_start = max(0, len(text) - _LOOK)
    numbers = list(reader.numbers.finditer(text, tail_start))
    if not numbers:
        return False
    opened = [tail_start] + [end.end() for end in SENTENCE_END.finditer(text, tail_start)]
    # The closing sentences whose every value is ruled out (`Definitely not 20. Not 40 either.`;
    # `It's not 6; it's 3.` states 3), one of their values the value found or the working's last
    # result.
    ruled: list[re.Match[str]] = []
    sentence_start = len(text)
    sentences = 0
    for begin in reversed(opened):
        in_sentence = [m for m in numbers if begin <= m.start() < sentence_start]
        if not in_sentence:
            continue  # a sentence with no number: read on to the one before it
        if sentences == _RULED_SENTENCES or not all(
            ruled_out_at(text, m.start(), m.end()) for m in in_sentence
        ):
            break
        ruled.extend(in_sentence)
        sentence_start, sentences = begin, sentences + 1
    return bool(ruled) and any(
        _same_or_last_result(reader, match, value, text[:sentence_start]) for match in ruled
    )


def closing_says_none(text: str) -> bool:
    """Whether a sentence after the text's last number says there is no answer (a number after
    it would be an answer)."""
    tail = text[max(0, len(text) - _LOOK) :]
    digit = max((tail.rfind(d) for d in "0123456789"), default=-1)
    rest = fold_letters(tail[digit + 1 :])
    if not any(char.isalpha() for char in rest):
        return False
    starts = [0] + [end.end() for end in SENTENCE_END.finditer(rest)]
    if any(
        _NO_ANSWER.match(rest, start) or _OTHER_LANGUAGES.match(rest, start) for start in starts
    ):
        return True
    # A sentence wrapped over lines is one sentence here.
    flat = rest.replace("\n", " ")
    ends = [0] + [end.end() for end in _FLAT_SENTENCE_END.finditer(flat)] + [len(flat)]
    return any(
        _says_missing(flat[start:end]) or _says_missing_elsewhere(flat[start:end])
        for start, end in pairwise(ends)
    )


_FLAT_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]")


def _says_missing_elsewhere(sentence: str) -> bool:
    clauses = _CONCLUDING_CLAUSE.split(sentence)
    return _says_missing_elsewhere_in(sentence) or (
        len(clauses) > 1 and _says_missing_elsewhere_in(clauses[-1])
    )


def _says_missing_elsewhere_in(sentence: str) -> bool:
    return (
        len(sentence.strip()) <= _MOST_CHARACTERS_ELSEWHERE
        and _NOT_A_STATEMENT_ELSEWHERE.match(sentence) is None
        and _MISSING_ELSEWHERE.search(sentence) is not None
        and _CANNOT_ELSEWHERE.search(sentence) is not None
    )


def _says_missing(sentence: str) -> bool:
    # A long sentence says it in its concluding clause (`However, the problem doesn't say whether
    # …, so the answer cannot be determined from the given information.`).
    clauses = _CONCLUDING_CLAUSE.split(sentence)
    return _says_missing_in(sentence) or (len(clauses) > 1 and _says_missing_in(clauses[-1]))


_CONCLUDING_CLAUSE = re.compile(
    r",[ \t]+(?:and[ \t]+)?(?:so|therefore|thus|hence|así[ \t]+que|por[ \t]+lo[ \t]+que|donc"
    r"|daher|also|quindi|portanto)[ \t]+|;[ \t]+|，(?:所以|因此)",
    re.IGNORECASE,
)


def _says_missing_in(sentence: str) -> bool:
    return (
        len(sentence.split()) <= _MOST_WORDS
        and _NOT_A_STATEMENT.match(sentence) is None
        and _DOUBT.search(sentence) is None
        and _MISSING.search(sentence) is not None
        and _CANNOT_HAVE.search(sentence) is not None
        and _ENDS_ON_IT.search(sentence) is not None
    )
