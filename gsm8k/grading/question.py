"""The quantities a sample's question states, so that a completion restating one is not read as
its answer.

Chat models close with a sentence that names the answer and restates the question's quantities
around it: "Therefore, Maya spends $45 on the 9 notebooks." Its last number, 9, is copied from
the question; the computed value, 45, is the answer. These helpers say which numbers the question
holds (digits of any script, and the English number words a question spells out) and whether a
number in a completion stands where a restated quantity stands: after a determiner or preposition
(`on the 9 notebooks`, `for 9 notebooks`, `in 3 days`), or with the very word that follows it in
the question (`3 times a week` when the question says `3 times a week`). An answer may equal a
number of the question: a number is only passed over when the same sentence states another number
that is not the question's.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from gsm8k.grading.numbers import NUMBER_PATTERN, value_with_fraction
from gsm8k.grading.words import SMALL_NUMBER_WORDS

_QUESTION_LIMIT = 20_000
"""Characters of a question read for its numbers (GSM8K questions are under 1,000)."""
_WORD = re.compile(r"[A-Za-z]+")
# Words after which a number names a quantity of the question being restated: `on the 9
# notebooks`, `for her 3 friends`, `in 4 days`, `of all 12 cupcakes`.
_RESTATING_BEFORE = re.compile(
    r"(?:\b(?:the|on|for|of|in|from|with|per|to|over|after|by|into|among|between|across|all|these"
    r"|those|her|his|their|its|our|each|next|first|last|remaining|other|at|original|initial"
    r"|entire|whole"
    # The same words in the languages MGSM's questions are answered in: `sur son billet de 20 $`,
    # `von den ursprünglich 350 Äpfeln`, `de sus 20 dólares`.
    r"|sur|de|du|des|pour|avec|dans|son|sa|ses|leur|leurs|les|von|den|dem|der|die|mit|für|aus"
    r"|ursprünglich|seine[nmr]?|ihre[nmr]?|con|por|para|del|los|las|sus|su|dos|das|com)[ \t]+"
    r"\$?)$",
    re.IGNORECASE,
)
# A preposition before a number that ends its sentence: `for the down payment of $10,000.`
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:on|for|of|in|from|with|per|over|after|by|into|among|between|across|de|sur|von|aus"
    r"|mit|con|por|para|com)[ \t]+(?:(?:the|all|her|his|their|its)[ \t]+)?"
    r"(?:(?:original|initial|entire|whole)[ \t]+)?\$?$",
    re.IGNORECASE,
)
# The sentence ends after the number and its sign (`… sur son billet de 20 $.`).
_SENTENCE_ENDS_AFTER = re.compile(r"[ \t*_]*(?:[$€£¥₹][ \t*_]*)?(?:[.!,;]|$)")
# A clause that restates the question's premises: `…, where each page has 450 words.`
_PREMISE_CLAUSE = re.compile(
    r",[ \t]+(?:where|since|given[ \t]+that|given|because|as|with|if)\b[^.!?\n,]*$"
    # The conjunctions that open a condition or reason need no comma: `So the result is 18 when
    # there are 16 eggs.`, `… 12 minutes to speak 10 pages if each page has 450 words.`
    r"|[ \t](?:when|whenever|if|since|because|once|while|given[ \t]+that|provided)[ \t]"
    r"[^.!?\n,]*$"
    # A relative clause or a purpose that restates the question's data (`… the bike that costs
    # $300`, `… to make a total of $135`), and a participle after a comma (`, saving $25 a day`).
    r"|[ \t](?:which|who)[ \t]+(?!(?:is|are|was|were|equals?|gives?|makes?|comes|means|totals?"
    r"|amounts)\b)[a-z]{2,12}\b[^.!?\n,]*$"
    r"|[ \t]that[ \t]+(?:costs?|is|are|was|were|has|have|had|holds?|contains?"
    r"|weighs?|lasts?|takes?)\b[^.!?\n,]*$"
    r"|\bto[ \t]+(?:buy|afford|make|reach|get|pay[ \t]+for|cover|save|earn|fill|finish"
    r"|complete)\b[^.!?\n,]*$"
    r"|,[ \t]+(?!(?:making|giving|leaving|bringing|totall?ing|resulting|yielding)\b)"
    r"[a-z]{3,12}ing\b"
    r"[^.!?\n,:]*$",
    re.IGNORECASE,
)
_REASON_CLAUSE = re.compile(
    r"(?:,[ \t]*+(?:since|because|as|given[ \t]+that)|[ \t](?:since|because)"
    # `$18 — I forgot that 16 − 7 = 9`: why, after a dash; `…, which is $35,100 per year if
    # she works 52 weeks`: the condition of a restatement
    r"|[ \t][—–][ \t]*+(?:I|we|since|because|as)(?=[ \t])|[ \t](?:if|assuming|provided))[ \t]"
    r"[^.!?\n,:]*$",
    re.IGNORECASE,
)
_PREMISE_LOOK = 80
"""Characters before a number in which the clause that opens it is looked for."""
_NOUN_AFTER = re.compile(r"[ \t]*[^\W\d_]")  # `9 notebooks`, `350 Äpfeln`
_LIST_BEFORE = re.compile(r",[ \t]+\$?$")
_VERB_BEFORE = re.compile(r"\b([A-Za-z]+)[ \t]+\$?$")
_RESULT_VERBS = frozenset(
    re.findall(
        r"\w+",
        "has have had is are was were be been gets get got left remain remains makes make made "
        "earns earned needs need needed owns keeps kept totals total equals takes took costs cost "
        "pays paid spends spent buys bought sells sold saves saved",
    )
)
"""Verbs whose object is the answer itself (`she has 9 notebooks`), not a restated quantity."""
_WORD_AFTER = re.compile(r"[ \t]?-?[ \t]?(?P<word>[A-Za-z]{2,20}|%)")
_RESTATING_LOOK = 16
"""Characters before a number in which its restating word is looked for (a bounded look)."""


_CACHED_QUESTIONS = 4096
"""Questions whose numbers are kept (a run grades each question's completions in turn)."""


@lru_cache(maxsize=_CACHED_QUESTIONS)
def question_numbers(question: str | None) -> frozenset[Decimal]:
    """Every number the question states, in digits or as an English number word up to twenty
    and the tens (``nine notebooks`` is 9)."""
    if not question:
        return frozenset()
    text = question[:_QUESTION_LIMIT]
    values: set[Decimal] = set()
    for match in NUMBER_PATTERN.finditer(text):
        if text[max(0, match.start() - 1) : match.start()] == "/":
            continue  # a denominator: `1/3 pound` states one third, not 3
        value = value_with_fraction(match, text)
        if value is not None:
            values.add(value.copy_abs())
    for word in _WORD.finditer(text):
        spelled = SMALL_NUMBER_WORDS.get(word.group(0).lower())
        if spelled is not None:
            values.add(Decimal(spelled))
    return frozenset(values)


@lru_cache(maxsize=_CACHED_QUESTIONS)
def question_quantities(question: str | None) -> frozenset[tuple[Decimal, str]]:
    """Each number of the question with the word after it (`9 notebooks` is (9, "notebook"))."""
    if not question:
        return frozenset()
    text = question[:_QUESTION_LIMIT]
    pairs: set[tuple[Decimal, str]] = set()
    for match in NUMBER_PATTERN.finditer(text):
        value = value_with_fraction(match, text)
        end = _FRACTION_END.match(text, match.end())
        word = _WORD_AFTER.match(text, end.end() if end else match.end())
        if value is not None and word is not None:
            pairs.add((value.copy_abs(), _stem(word.group("word"))))
    for found in _WORD.finditer(text):
        spelled = SMALL_NUMBER_WORDS.get(found.group(0).lower())
        after = _WORD_AFTER.match(text, found.end()) if spelled is not None else None
        if spelled is not None and after is not None:
            pairs.add((Decimal(spelled), _stem(after.group("word"))))
    return frozenset(pairs)


def restates_question(
    text: str,
    start: int,
    end: int,
    value: Decimal,
    quantities: frozenset[tuple[Decimal, str]] = frozenset(),
    sentence_start: int = 0,
) -> bool:
    """Whether the number at ``text[start:end]`` stands as a restated quantity of the question:
    after a determiner or preposition and before the noun it counts (`on the 9 notebooks`), after
    a preposition at the end of its sentence (`the down payment of $10,000.`), in a clause of
    premises (`, where each page has 450 words`), or followed by the word that follows it in the
    question (`3 times a week`, `30% of it`)."""
    before = text[max(0, start - _RESTATING_LOOK) : start]
    if _RESTATING_BEFORE.search(before) is not None and _NOUN_AFTER.match(text, end) is not None:
        return True
    if _PREPOSITION_BEFORE.search(before) and _SENTENCE_ENDS_AFTER.match(text, end):
        return True
    if _LIST_BEFORE.search(before) is not None:
        return True  # `…540 meters a week, 3 times a week`
    if in_premise(text, start, sentence_start):
        return True
    return quantity_after(text, end, value, quantities, before)


def in_premise(text: str, start: int, sentence_start: int = 0) -> bool:
    """Whether the number at ``start`` stands in a clause of premises of its sentence (`,
    since …`, `when …`, `that costs …`, `to buy …`, `, saving …`, `who slept …`)."""
    clause = text[max(sentence_start, start - _PREMISE_LOOK) : start]
    return _PREMISE_CLAUSE.search(clause) is not None


# A comparison after a sentence's result: `$18 a day, compared with $32 if …`, `540 meters, up
# from 180`, `versus $104,000`.
_COMPARED = re.compile(
    r"\b(?:compared[ \t]+(?:to|with)|versus|vs\.?|(?:up|down)[ \t]+from|,[ \t]+from|instead[ \t]+of"
    r"|rather[ \t]+than|as[ \t]+opposed[ \t]+to|(?:more|less|fewer|greater|cheaper|longer"
    r"|shorter|older|younger|higher|lower|bigger|smaller)[ \t]+than)\b[^.!?\n;:()]*$",
    re.IGNORECASE,
)
COMPARED_HINT = re.compile(r"compared|versus|vs|from|instead|rather|opposed|than", re.IGNORECASE)
"""A part of every comparison opener: a sentence with none holds no comparison."""


def in_bracket(text: str, start: int, sentence_start: int = 0) -> bool:
    """Whether the number at ``start`` stands in a bracket opened in its sentence, on its line
    (`$18 per day (9 eggs × $2)`)."""
    begin = max(sentence_start, start - _PREMISE_LOOK)
    opened = text.rfind("(", begin, start)
    return opened > text.rfind(")", begin, start) and text.find("\n", opened, start) < 0


def in_comparison(text: str, start: int, sentence_start: int = 0) -> bool:
    """Whether the number at ``start`` stands in a comparison (`compared with $32`)."""
    begin = max(sentence_start, start - _PREMISE_LOOK)
    return _COMPARED.search(text, begin, start) is not None


def in_reason(text: str, start: int, sentence_start: int = 0) -> bool:
    """Whether the number at ``start`` stands in a clause that gives a reason (`, since 9 eggs ×
    $2 = $18`, `because …`): any number there, the question's or not, is a premise."""
    clause = text[max(sentence_start, start - _PREMISE_LOOK) : start]
    return _REASON_CLAUSE.search(clause) is not None


# A relative clause that describes a value by another (`42 pages, which is half of the 84 pages
# she has left`): the words between `which is` and the number say how the two relate. A number
# right after `which is` (`…, which is 70`) restates the value, and a total or an equivalent
# (`which is a total of 60`, `which is equal to 1,200 meters`) states it again in other terms.
_DESCRIBED = re.compile(
    r",[ \t]+(?:which|that|this)[ \t]+(?:is|was|are|were)[ \t]+"
    r"(?!(?:[a-z]+[ \t]+){0,3}?(?:total|sum|answer|result|overall|final|altogether|all|combined"
    r"|together|equal|equivalent|same|exactly|just|about|around|roughly|approximately|nearly"
    r"|almost|over|under|only)\b)(?:[a-z]+[ \t]+){1,4}(?:\$[ \t]?)?$",
    re.IGNORECASE,
)


# An absolute clause about something else (`6 hours long, with the longest movie being 2.5
# hours`), and the object a result was found for (`$694 in total for the 11 dozen pastries`).
_ABSOLUTE = re.compile(
    r",[ \t]+with[ \t]+(?![^,.!?\n]{0,40}?\b(?:total|sum|answer|result|overall)\b)"
    r"(?:[^,.!?\n]{1,40}?\bbeing|(?:the|a|an|its|his|her|their)[ \t]+[^,.!?\n\d]{1,40}?\b"
    r"(?:of|at))[ \t]+\$?$",
    re.IGNORECASE,
)
_OBJECT = re.compile(
    r"\b(?:for|of|on|from|among|between|across)[ \t]+(?:the|all[ \t]+(?:the[ \t]+)?|those|these"
    r"|her|his|their|its)[ \t]+$|\b(?:on|for)[ \t]+$",
    re.IGNORECASE,
)


def in_description(text: str, start: int, sentence_start: int = 0, objects: bool = False) -> bool:
    """Whether the number at ``start`` stands in a clause that describes the value before it by
    another (`, which is half of the 84 pages she has left`), in an absolute clause about
    something else (`, with the longest movie being 2.5 hours`), or, with ``objects``, names
    what the value was found for (`$694 in total for the 11 dozen pastries`)."""
    clause = text[max(sentence_start, start - _PREMISE_LOOK) : start]
    return (
        _DESCRIBED.search(clause) is not None
        or _ABSOLUTE.search(clause) is not None
        or (objects and _OBJECT.search(clause) is not None)
    )


def quantity_after(
    text: str,
    end: int,
    value: Decimal,
    quantities: frozenset[tuple[Decimal, str]],
    before: str | None = None,
) -> bool:
    """Whether the number ending at ``end`` is followed by the word that follows it in the
    question (`8 pens`, `30% of it`), not as the object of a verb that states a result."""
    fraction = _FRACTION_END.match(text, end)
    word = _WORD_AFTER.match(text, fraction.end() if fraction else end)
    if word is None or (value.copy_abs(), _stem(word.group("word"))) not in quantities:
        return False
    if before is None:
        return True
    # `… spends $45 buying 9 notebooks` restates; `… she has 9 notebooks` states a result, and
    # `… to make 80 meatballs` names the purpose the question set.
    verb = _VERB_BEFORE.search(before)
    if verb is None or verb.group(1).lower() not in _RESULT_VERBS:
        return True
    return _PURPOSE_BEFORE.search(before, 0, verb.start()) is not None


_PURPOSE_BEFORE = re.compile(r"\bto[ \t]+$", re.IGNORECASE)
_FRACTION_END = re.compile(r"[ \t]?/[ \t]?\d{1,50}(?![\d.,])")


def _stem(word: str) -> str:
    """A word without case or plural ending, so that `notebook` and `Notebooks` compare equal."""
    lowered = word.lower()
    return lowered[:-1] if lowered.endswith("s") and len(lowered) > 3 else lowered


# A clause that concludes (`…, so Noah saves 48 dollars in 6 weeks`): its value is the result the
# sentence comes to, whatever question quantity it is stated over.
_CONCLUDING = re.compile(
    r"(?:^|[,;:]|\b)[ \t]*(?:so|therefore|thus|hence)[ \t]+(?:[A-Za-z'’]+[ \t]+){0,4}\$?[ \t]?\Z",
    re.IGNORECASE,
)
_CONCLUDING_LOOK = 80
# A total followed by the question quantity it covers: `$1800 for all 4 phones`.
_DERIVED_TAIL = re.compile(
    r"(?:[ \t]++[A-Za-z]{1,20}+){0,2}?[ \t]++(?:for|on|in|across|over)[ \t]++"
    r"(?:all[ \t]++(?:of[ \t]++)?(?:the[ \t]++)?|(?:the|each|every|those|these|her|his|their)"
    r"[ \t]++)?(?=\$?\d)"
)


def derived_restatement(
    numbers: re.Pattern[str],
    question: frozenset[Decimal],
    text: str,
    span: tuple[int, int],
    sentence_start: int,
) -> bool:
    """Whether a computed number (at ``span``) is restated with the question quantity it was
    derived from (`after paying $1800 for all 4 phones`): a total over the question's items, not
    the answer the sentence gives before it. A value its sentence concludes on (`…, so Noah saves
    48 dollars in 6 weeks`) is the result, not a restatement."""
    start, end = span
    if not question:
        return False
    tail = _DERIVED_TAIL.match(text, end)
    if tail is None:
        return False
    if _CONCLUDING.search(text, max(sentence_start, start - _CONCLUDING_LOOK), start):
        return False
    number = numbers.match(text, tail.end())
    value = None if number is None else value_with_fraction(number, text)
    return value is not None and value.copy_abs() in question


# The part of a whole the answer is not: `The remaining 750 students …`, `the other 7 eggs`.
_COMPLEMENT_BEFORE = re.compile(
    r"\b(?:the|her|his|their|its)[ \t]+(?:remaining|other|leftover|rest[ \t]+of[ \t]+the)"
    r"[ \t]+\$?$|(?:其余|剩下的?|剩余的?|其他的?)[ \t]*$",
    re.IGNORECASE,
)
_COMPLEMENT_LOOK = 40
_ASKS_REMAINDER = re.compile(r"\b(?:remain|left|rest|other|leftover)", re.IGNORECASE)


def asks_remainder(asking: str) -> bool:
    """Whether the question's ``asking`` sentences ask about a rest (`How many are left?`)."""
    return _ASKS_REMAINDER.search(asking) is not None


def in_complement(text: str, start: int) -> bool:
    """Whether the number at ``start`` names the rest of a whole (`the remaining 750 students`);
    only read when the question does not ask about a rest (:func:`asks_remainder`)."""
    before = text[max(0, start - _COMPLEMENT_LOOK) : start]
    return _COMPLEMENT_BEFORE.search(before) is not None


# A number that names a place in a sequence rather than a quantity: `page 78`, `day 5`, `step 3`,
# `in month 2`.
POSITION_BEFORE = re.compile(
    r"\b(?:page|day|week|month|year|step|chapter|level|floor|row|seat|room|lane|gate|platform"
    r"|exit|round|lap|stage|episode|lesson|unit|mile[ \t]+marker)[ \t]+$",
    re.IGNORECASE,
)
