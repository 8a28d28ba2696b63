"""Doubt: the words by which a sentence does not commit to its value, and what says after an
answer that the model did not settle on one (docs/grading.md, "The delivered answer").

A sentence is hedged by a hedge word (`maybe`, `probably`, `I think`, `alternatively`, …) or a
question mark; a later statement also by a condition (`if`, `unless`, `assuming`). After an
answer, words that say the model cannot choose (`9 is equally likely`, `both are correct`,
`I can't decide`) or is not sure, at the end of the text, leave no answer.
"""

from __future__ import annotations

import re

from gsm8k.grading.reader import SENTENCE_END

# A statement the model does not commit to. `would` marks a conditional (`the answer would be
# 20`); a question mark asks.
HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|conceivably|potentially|plausibly|arguably|might|could"
    r"|would|I[ \t]+(?:think|believe|guess)"
    r"|I['’]d[ \t]+(?:say|guess)|(?:my|best)[ \t]+guess"
    r"|not[ \t]+(?:sure|certain)|unsure|alternat(?:ively|ive|e)|otherwise|either)\b|[?？]"
    r"|\balt\.(?=\s)",
    re.IGNORECASE,
)
WEAK = frozenset(("would", "could", "might"))
"""Hedge words that make the statement the rules found hedged only with a condition."""
HEDGE_HINTS: tuple[str, ...] = ("?", "？", "may", "perhap", "possib", "probab", "might", "could")
HEDGE_HINTS += ("conceiv", "potential", "plausib", "arguab")
HEDGE_HINTS += ("would", "think", "believe", "guess", "sure", "altern", "otherwise", "either")
HEDGE_HINTS += ("'d say", "’d say", "alt.")
"""A part of every hedge word, in lower case: most sentences hold none."""

_SCENARIO_OPENING = re.compile(
    r"[\s*_(>-]*(?:if|assuming|suppose|supposing|unless|in[ \t]+case|when)\b", re.IGNORECASE
)
_HEDGE_HINTS = (*HEDGE_HINTS, "if", "unless", "assum", "suppos", "case", "when")
"""A part of every hedge and condition word, in lower case: most sentences hold none."""
_CONDITION = re.compile(r"\b(?:if|unless|assuming|suppose|supposing|in[ \t]+case)\b", re.I)
SENTENCE_LOOK = 200  # characters around a statement searched for its sentence's bounds


_ABBREVIATED = ("alt", "approx", "bzw")
"""Words whose period ends no sentence (`$18 (alt. $20)`)."""


def _opened(before: str) -> int:
    """Where the sentence that ``before`` ends in opens: after the last sentence mark that is no
    abbreviation's period (`alt. `), else at its start."""
    end = len(before)
    while True:
        opened = max(before.rfind(mark, 0, end) for mark in (". ", "! ", "? ", "\n"))
        if opened < 0:
            return 0
        if not before[:opened].lower().endswith(_ABBREVIATED):
            return opened + 1
        end = opened


def sentence_hedged(
    text: str, start: int, end: int, anchor: bool = False, scenario: bool = False
) -> bool:
    """Whether the sentence that holds ``text[start:end]`` does not commit to its value: a hedge
    word in it, a question mark closing it, or a condition. The statement the rules found is
    read as hedged only by a hedge word, or a condition with `would`, `could`, `might`: `If we
    add them, we get \\boxed{20}` states the answer."""
    before = text[max(0, start - SENTENCE_LOOK) : start]
    sentence_start = start - len(before) + _opened(before)
    closed = SENTENCE_END.search(text, end, end + SENTENCE_LOOK)
    sentence_end = closed.end() if closed is not None else min(len(text), end + SENTENCE_LOOK)
    sentence = text[sentence_start:sentence_end]
    folded = sentence.lower()
    if not any(hint in folded for hint in _HEDGE_HINTS):
        return False  # no hedge or condition word at all (the common case, found cheaply)
    words = {hedge.group(0).lower() for hedge in HEDGE.finditer(sentence)}
    conditional = _CONDITION.search(sentence) is not None
    if scenario:
        # A statement before a hedged one: hedged as the rules' statement is, or when its
        # sentence opens on a condition (`If she sells all the eggs, \\boxed{26}.`).
        opens = _SCENARIO_OPENING.match(sentence) is not None
        return opens or bool(words - WEAK) or (bool(words) and conditional)
    if anchor:
        return bool(words - WEAK) or (bool(words) and conditional)
    return bool(words) or conditional


UNDECIDED_NOTE = "after its answer the model says it cannot choose or is not sure: no one answer"
# The model says, after its answer, that it cannot choose between values or does not stand by
# the answer: `9 is equally likely`, `both are correct answers`, `I can't decide between this and
# 40`, `a coin flip between 160 and 320`, `the answer depends on interpretation`, `I'm not sure.`
_UNDECIDED = re.compile(
    r"\b(?:equally[ \t]+(?:likely|valid|plausible|possible|probable|confident|good|correct)"
    r"|just[ \t]+as[ \t]+(?:valid|likely|plausible|possible|good|correct|defensible|reasonable"
    r"|sensible|acceptable)"
    r"|both\b(?:[^.!?\n]|\.(?=\d)){0,40}?\b(?:are|is|seem|look|could[ \t]+be"
    r"|remain)[ \t]+(?:\w+[ \t]+)?"
    r"(?:correct|valid|defensible|possible|acceptable|plausible|right|reasonable|shown|fine|ok"
    r"|okay)"
    r"\b|\bany[ \t]+of[ \t]+(?:those|these|them|the[ \t]+above)\b"
    r"|either[ \t]+(?:answer|value|one|reading)(?:[^.!?\n]|\.(?=\d)){0,30}?[ \t]+(?:is|should"
    r"|could|would"
    r"|works|may|might)|(?:can['’]?t|cannot|could[ \t]*n['’]?o?t|unable[ \t]+to)[ \t]+(?:decide"
    r"|choose|settle|tell[ \t]+which|determine[ \t]+which|be[ \t]+sure[ \t]+which)"
    r"|\bI['’]m[ \t]+torn\b|\b(?:is|be|lies)[ \t]+(?:somewhere[ \t]+)?among[ \t]+(?:these|those"
    r"|them)\b|\bone[ \t]+of[ \t]+the[ \t]+above\b"
    r"|\bdepending[ \t]+on[ \t]+(?:the[ \t]+|your[ \t]+)?(?:interpretation|reading"
    r"|how[ \t]+(?:you|one)[ \t]+reads?)\b"
    r"|\beither[ \t]+(?:one[ \t]+)?(?:could|might|may|would)[ \t]+be\b"
    r"|\b(?:interpretation|reading|scenario|case)[ \t]+(?-i:[B-D])\b|\b(?:best|worst)[ \t-]+case\b"
    r"|(?:depends|depending|depend)[ \t]+on[ \t]+(?:whether|how|the[ \t]+(?:interpretation|reading"
    r"|assumptions?)|assumptions?)"
    r"|coin[ \t-]+(?:flip|toss)|toss[ \t-]+up|(?<![\d.])50[ \t]*/[ \t]*50(?![\d.=])"
    r"|fifty[ \t-]+fifty"
    r"|not[ \t]+sure[ \t]+which|the[ \t]+other[ \t]+possibility|no[ \t]+estoy[ \t]+segur[oa]"
    r"|nicht[ \t]+sicher|pas[ \t]+sûr|не[ \t]+уверен|不确定|不太确定|我不确定"
    r"|(?:answer|result)[ \t]+depends[ \t]+on[ \t]+(?:the[ \t]+)?(?:interpretation|reading)"
    r"|(?:I['’]m|I[ \t]+am)[ \t]+(?:only[ \t]+)?\d{1,2}[ \t]*%[ \t]+(?:sure|confident|certain)"
    r"|(?:I['’]m|I[ \t]+am)[ \t]+not[ \t]+(?:sure|confident|certain)(?:[ \t]+(?:in|of|about)"
    r"[ \t]+(?:that|this|it))?[ \t]*[.!]?[ \t*_]*\Z"
    # Another value called possible too: `… though 18 isn't out of the question`, `… although 65
    # would also be a reasonable reading`, `(could be as high as 12)`, `One of those.`
    r"|(?:though|although|but)\b(?:[^.!?\n]|\.(?=\d)){0,60}?\b(?:isn['’]t[ \t]+out[ \t]+of[ \t]+the"
    r"[ \t]+question"
    r"|(?:would|could|might)[ \t]+also[ \t]+(?:be|work)|(?:is|are)[ \t]+also[ \t]+(?:possible"
    r"|plausible|reasonable|valid|correct|defensible|acceptable|fine|right|sensible))"
    r"|\balso[ \t]+(?:a[ \t]+)?(?:possible|plausible"
    r"|reasonable|valid|defensible|sensible)[ \t]+(?:answer|reading|interpretation|value)"
    r"|\bone[ \t]+of[ \t]+(?:these|those|them|the[ \t]+two|the[ \t]+above)[ \t]+(?:is|must[ \t]+be"
    r"|should[ \t]+be)"
    r"[ \t]+(?:right|correct|the[ \t]+answer)\b"
    r"|\bequally[ \t]+happy\b|(?:\b(?:is|be)[ \t]+|['’]s[ \t]+)one[ \t]+of[ \t]+"
    r"(?:those|these|them|the[ \t]+two)\b|(?:^|[.!?]\s+)one[ \t]+of[ \t]+(?:those|these|them"
    r"|the[ \t]+two)[ \t]*[.!]"
    r"|\bit[ \t]+depends\b"
    r"|\b(?:could|might|may)[ \t]+(?:also[ \t]+)?be[ \t]+as[ \t]+(?:high|low)[ \t]+as\b"
    r"|(?:^|[.!?]\s+)otherwise,?[ \t]+\\?\$?\d"
    # A second answer field: `"answer_2": 5605`, `alternative_answer: 173`.
    r"|\b(?:alternative|alternate|other|second|backup)_(?:answer|value)s?[\"']?[ \t]*[:=]"
    r"|[\"'](?:alternative|alternate|other|second|backup)[ ](?:answer|value)s?[\"'][ \t]*:"
    r"|answer[_ ]?(?:\d|alt(?:ernative)?|b)[\"']?[ \t]*:"
    # A text that ends by asking about a value again: `No wait, 9. Hmm, or 540?`
    r"|(?:\bor|\bactually|,)[ \t]+\\?\$?[ \t]?\d[\d,.]*[ \t]*\?[\s*_]*\Z)",
    re.IGNORECASE | re.MULTILINE,
)
_UNDECIDED_HINTS: tuple[str, ...] = (
    "equal",
    "just as",
    "both",
    "either",
    "decide",
    "choose",
    "which",
    "coin",
)
_UNDECIDED_HINTS += ("toss", "50", "fifty", "possibility", "depend", "sure", "confident")
_UNDECIDED_HINTS += ("segur", "sicher", "sûr", "уверен", "确定", "though", "also", "happy")
_UNDECIDED_HINTS += ("one of", "depends", "as high", "as low", "otherwise")
_UNDECIDED_HINTS += ("answer_", "_answer", "answer2", "answer 2", "_value", "alternat", "second")
_UNDECIDED_HINTS += ("other ans", "other val", "backup", "settle", "torn", "among", "of the above")
_UNDECIDED_HINTS += ("case b", "case c", "reading b", "scenario b", "interpretation b", "st case")
_UNDECIDED_HINTS += ("st-case", "any of")
# Searched in the case-folded text: without IGNORECASE the engine skips to the hints' first
# characters instead of trying every alternative at every position.
_UNDECIDED_HINT = re.compile("|".join(map(re.escape, _UNDECIDED_HINTS)))
UNDECIDED_LOOK = 600


def undecided_after(text: str, end: int) -> bool:
    """Whether the text after an answer that ends at ``end`` says the model cannot choose or is
    not sure (bounded look: an aside much later is about something else)."""
    after = text[end : end + UNDECIDED_LOOK]
    if end + UNDECIDED_LOOK < len(text):
        after += " …"  # the text goes on: what ends the window does not end the text
    asks = after.rstrip(" \t\n*_").endswith(("?", "？"))
    if not asks and _UNDECIDED_HINT.search(after.casefold()) is None:
        return False  # no such word, and no question at the end (the common case)
    for found in _UNDECIDED.finditer(after):
        opened = max(after.rfind(mark, 0, found.start()) for mark in (". ", "\n", "! ", "? "))
        closed = _SENTENCE_CLOSE.search(after, found.end())
        sentence = after[opened + 1 : len(after) if closed is None else closed.start()]
        if (
            opened < 0
            or _OWN_DOUBT.search(sentence)
            or not (_ANOTHER_READING.search(found.group()) and _UNDER_CONDITION.search(sentence))
        ):
            return True  # in the answer's own sentence (`probably 45, but 50 is also possible`)
        # `Although $48 might also be acceptable if one child is a toddler.`, `Scenario B: if
        # she also sells the muffin eggs, …`: an alternative under a condition, after the answer,
        # leaves it standing.
    return False


_SENTENCE_CLOSE = re.compile(r"[.!?](?:\s|\Z)|\n")
# The undecided wordings that name another reading rather than doubt the answer itself.
_ANOTHER_READING = re.compile(
    r"though|also|scenario|case|reading|interpretation|otherwise", re.IGNORECASE
)
# The answer itself doubted beside the other reading: `It's probably 45, but 50 is also …`.
_OWN_DOUBT = re.compile(
    r"\b(?:probably|likely|maybe|perhaps|I[ \t]+(?:think|guess|believe)|I(?:['’]d|[ \t]+would)"
    r"[ \t]+say)\b",
    re.IGNORECASE,
)
_UNDER_CONDITION = re.compile(r"\b(?:if|assuming|supposing|in[ \t]+case)\b", re.IGNORECASE)


# Words that take the statement back, opening a sentence: not a courtesy (`let me know if I
# made a mistake`), not a doubt that goes on to check (`Wait, let me verify`).
RETRACTION = re.compile(
    r"(?:^|[.!?:;—–]\s|\n|,[ \t]+but[ \t]+(?=I[ \t]))[ \t*_#>(\[]*+(?:(?:hmm+|wait|but|oh|actually"
    r"|ah"
    r"|hold[ \t]+on|nope|no|ugh|sorry|I[ \t]+apologi[sz]e|apologies|espera|attends|warte|aspetta"
    r"|(?:up)?on[ \t]+(?:reflection|second[ \t]+look)|looking[ \t]+again"
    r"|well|erm|um+|uh|edit[ \t]*:|erratum[ \t]*:)[ \t,.!…—–-]*+)*"
    r"(?:oh[ \t]+no\b|oops\b|whoops\b|my[ \t]+bad\b"
    r"|sorry[ \t]*+[,:—–-][ \t]*+(?:that|this|it)(?:['’]s|[ \t]+(?:is|was))[ \t]+"
    r"(?:the|for|wrong|not)\b|(?:I[ \t]+(?:think|believe|suspect)[ \t]+)?I[ \t]+(?:made"
    r"|have[ \t]+made|(?:may|might|must)[ \t]+have[ \t]+made)[ \t]+(?:a|an|some)[ \t]+"
    r"(?:\w+[ \t]+)?(?:mistakes?|errors?)"
    r"|I[ \t]+was[ \t]+wrong|I[ \t]+(?:(?:need|have|want)[ \t]+to[ \t]+)?(?:retract|withdraw)\b"
    r"|erratum\b|retracted\b"
    r"|(?:is|was)[ \t]+flawed\b|corrección[ \t]*:|korrektur[ \t]*:|eso[ \t]+está[ \t]+mal"
    r"|(?:I[ \t]+)?take[ \t]+(?:that|it|this)[ \t]+back"
    r"|(?:that|this|it|the[ \t]+above|(?:that|this|the|my)[ \t]+(?:previous[ \t]+|above[ \t]+"
    r"|final[ \t]+|last[ \t]+)?(?:answer|number|result|value)(?:[ \t]+(?:above|I[ \t]+gave"
    r"|given))?)(?:['’]s|[ \t]+is|[ \t]+was"
    r"|[ \t]+seems)[ \t]+(?:wrong|incorrect|not[ \t]+(?:right|correct))"
    r"|(?:that|this|it)[ \t]+(?:does[ \t]+not|doesn['’]t)[ \t]+(?:look|seem|sound)[ \t]+"
    r"(?:right|correct)"
    r"|(?:disregard|ignore|forget|scrap|scratch)[ \t]+(?:the[ \t]+above|that|this|it"
    r"|(?:my|the|that|this)[ \t]+(?:previous[ \t]+|above[ \t]+|last[ \t]+)?(?:answer|number"
    r"|result|value))\b"
    r"|I[ \t]+(?:no[ \t]+longer|don['’]t|do[ \t]+not)[ \t]+(?:trust|believe)[ \t]+"
    r"(?:that|this|it|my)"
    r"|(?:the[ \t]+)?(?:real|correct|true|actual)[ \t]+answer[ \t]+(?:must|should|has[ \t]+to)"
    r"[ \t]+be[ \t]+different|(?:(?:that|this|it|\$?\d[\d,.]*+)[ \t]+)?(?:seems|looks)[ \t]+"
    r"(?:way[ \t]+)?too[ \t]+(?:high|low|big|small|large)\b"
    r"|(?:I[ \t]+need[ \t]+to|let[ \t]+me|I['’]ll|I[ \t]+(?:will|must|should))[ \t]+(?:(?:need"
    r"|have)"
    r"[ \t]+to[ \t]+)?(?:redo|rework|recalculate|recompute|start[ \t]+over"
    r")\b|redoing\b|the[ \t]+correct[ \t]+approach[ \t]+is"
    r"|correction[ \t*_]*:|on[ \t]+second[ \t]+thought"
    r"|no,[ \t]+(?:let[ \t]+me|I[ \t]+(?:need|have)[ \t]+to)[ \t]+(?:reconsider|rethink|redo"
    r"|recompute"
    r"|recalculate|recheck|start[ \t]+over)\b"
    r"|I[ \t]+(?:misread|misunderstood|overlooked|forgot|miscalculated|miscounted)\b"
    r"|I[ \t]+need[ \t]+to[ \t]+correct|let[ \t]+me[ \t]+correct|my[ \t]+(?:mistake|bad)\b"
    r"|no,[ \t]+(?:that|this)[ \t]+(?:is|was)?[ \t]*(?:wrong|incorrect)"
    r"|(?:that|this|it)[ \t]+can(?:['’]t|not)[ \t]+be[ \t]+(?:right|correct|true)|never[ \t]*mind\b"
    # A bare `No.` takes back what came before, unless it answers a question the model asked
    # itself (`Could it be 10? No.`).
    r"|(?<![?？][ \t])(?<![?？])no[ \t]*[.!]+(?=\s|\Z)|actually[ \t]*,?[ \t]*no[ \t]*[—–,-])"
    # Anywhere in a sentence, words that can only take one's own answer back (not after `if` or
    # `whether`: `let me know if I made a mistake` is a courtesy): `Hold on, I think I messed up
    # the yearly cost.`, `Upon reflection, my overtime calculation is flawed`, `errei o cálculo`.
    r"|(?<!\bif[ \t])(?<!\bwhether[ \t])(?<![\w'’])(?:I[ \t]+(?:think|believe|suspect|realize|see"
    r"|guess)[ \t]+)?(?:I[ \t]+(?:have[ \t]+|might[ \t]+have[ \t]+|may[ \t]+have[ \t]+)?(?:messed"
    r"|screwed|goofed|slipped|mixed)[ \t]+(?:it[ \t]+|this[ \t]+|that[ \t]+|something[ \t]+)?up\b"
    r"|I[ \t]+(?:think[ \t]+I[ \t]+)?(?:inverted|reversed|swapped|misapplied|misinterpreted"
    r"|botched)\b"
    r"|I[ \t]+(?:think[ \t]+I[ \t]+)?(?:got|had)[ \t]+(?:[\w-]+[ \t]+){0,3}?(?:backwards|wrong"
    r"|mixed[ \t]+up"
    r"|reversed)\b|I[ \t]+(?:now[ \t]+)?(?:realize|realise|see|notice)[ \t]+(?:that[ \t]+)?(?:this"
    r"|that|it|my"
    r"[ \t]+answer)[ \t]+(?:is|was)[ \t]+(?:wrong|incorrect|not[ \t]+right)\b"
    r"|my[ \t]+(?:[\w-]+[ \t]+){0,3}?[\w-]+[ \t]+(?:is|was|seems|looks)[ \t]+(?:flawed|wrong"
    r"|incorrect|mistaken|off)\b|(?:my|the[ \t]+above)[ \t]+(?:previous[ \t]+)?(?:answer"
    r"|calculation|result|solution|work)[ \t]+(?:contains|has|had)[ \t]+(?:an?[ \t]+)?"
    r"(?:errors?|mistakes?)\b"
    r"|I[ \t]+(?:think|believe|suspect|guess)[ \t]+(?:that['’]s|that[ \t]+is|this[ \t]+is|it['’]s"
    r"|it[ \t]+is)[ \t]+(?:wrong|incorrect|not[ \t]+right|off)\b"
    r"|I[ \t]+(?:[\w-]+[ \t]+){1,4}?(?:incorrectly|wrongly|by[ \t]+mistake)\b"
    r"|I[ \t]+(?:used|took|read|added|applied|picked|multiplied|divided)[ \t]+the[ \t]+wrong\b"
    # `Oh wait, the question asks for the total altogether.`: the answer was of another quantity.
    r"|(?:wait|hold[ \t]+on|hmm+)[ \t,.!—–-]*+(?:[^.\n]{0,40}?[.!—–][ \t]*)?the[ \t]+question"
    r"[ \t]+(?:actually[ \t]+)?(?:asks|asked|wants)[ \t]+(?:for|about)\b"
    # The same in the other languages read: `Moment, das stimmt nicht.`, `Нет, подождите, здесь
    # ошибка.`, `Non, c'est faux.`, `Espera, esto está mal.`
    r"|\bdas[ \t]+(?:stimmt[ \t]+nicht|ist[ \t]+falsch)|здесь[ \t]+ошибка|это[ \t]+(?:неверно"
    r"|ошибка|неправильно)|\bc['’]est[ \t]+faux"
    r"|\besto[ \t]+(?:está[ \t]+mal|no[ \t]+es[ \t]+correcto)"
    r"|I[ \t]+(?:don['’]t|do[ \t]+not)[ \t]+think[ \t]+(?:that|this|it)(?:['’]s|[ \t]+is"
    r"|[ \t]+was)[ \t]+(?:right|correct)\b"
    r"|(?:this|that|my|the[ \t]+above)[ \t]+(?:previous[ \t]+|final[ \t]+|last[ \t]+)?answer"
    r"(?:[ \t]+above)?[ \t]+(?:is|was)[ \t]+(?:wrong|incorrect|not[ \t]+(?:right|correct))\b"
    r"|I[ \t]+(?:think[ \t]+I[ \t]+)?(?:misread|misunderstood|miscalculated|miscounted|misspoke"
    r"|misstated|mistyped)\b"
    r"|(?:please[ \t]+)?(?:disregard|ignore)[ \t]+(?:the|my)[ \t]+(?:answer|result|solution)[ \t]+"
    r"above|please[ \t]+(?:disregard|ignore)[ \t]+(?:all[ \t]+(?:of[ \t]+)?)?(?:the[ \t]+above"
    r"|that|this|it)\b|\berrei\b|\bme[ \t]+equivoqu[ée]|\bme[ \t]+he[ \t]+equivocado"
    r"|\bho[ \t]+sbagliato|\bje[ \t]+me[ \t]+suis[ \t]+tromp[ée]|\bich[ \t]+habe[ \t]+mich[ \t]+"
    r"(?:verrechnet|geirrt|vertan|verschrieben)|я[ \t]+ошиб(?:ся|лась)|我(?:算)?错了|算错了"
    r"|間違え(?:ました|た)|\bsaya[ \t]+salah\b"
    r"|tôi[ \t]+(?:đã[ \t]+)?(?:tính[ \t]+)?sai)"
    # Chinese, Japanese and Korean write no space before the words: `等等，我好像算错了`, `哦不，
    # 我算错了`, `計算を間違えました`, `제가 잘못 계산했습니다` (never `没有算错`, `如果算错了`).
    r"|(?<!没)(?<!没有)(?<!不会)(?<!如果)(?<!是否)(?:我)?(?:好像|可能|似乎|大概|也许|或许|估计"
    r"|应该|肯定)?(?:是)?(?:算|弄|搞|写|理解|看|读|想)错了|(?<!如果)(?<!是否)我(?:好像|可能|似乎|大概|也许)?"
    r"(?:犯了|出了)(?:一个|个)?(?:错误|错)|間違え(?:ました|た|ていました)|ミスしました"
    r"|잘못[ \t]*계산했|계산(?:이|을)[ \t]*잘못|실수(?:를)?[ \t]*했",
    re.IGNORECASE | re.MULTILINE,
)


# Another scenario than the question's, after the answer: `If she ate 4 eggs, she would make $16.`
_HYPOTHETICAL = re.compile(
    # A label may name the scenario first: `Scenario B: if she didn't work overtime, …`.
    r"[\s*_(>-]*(?:(?:scenario|case|option|reading|interpretation)[ \t]+\w{1,3}[ \t*_]*[:.)—–-]"
    r"[ \t*_]*)?(?:if|assuming|suppose|supposing|in[ \t]+case|without|had|otherwise|but[ \t]+for)"
    r"\b[^\n]*(?:\b(?:would|could|might)\b|['’]d[ \t]+(?:have|be)\b)",
    re.IGNORECASE,
)


def hypothetical(sentence: str) -> bool:
    """Whether a sentence sets out another scenario than the question's (`If she ate 4 eggs, she
    would make $16.`)."""
    return _HYPOTHETICAL.match(sentence) is not None


# A value called one of several answers: `One possible answer is $18, another is $20.`
_ONE_OF_SEVERAL = re.compile(
    r"\bone[ \t]+(?:(?:possible|plausible|valid|reasonable)[ \t]+)?(?:answer|possibility|option"
    r"|solution|interpretation|reading|estimate)\b[^.!?\n]*?\b(?:another|the[ \t]+other"
    r"|a[ \t]+second)\b|\b(?:another|the[ \t]+other)[ \t]+(?:(?:possible|valid)[ \t]+)?(?:answer"
    r"|possibility|option|solution|interpretation|reading)[ \t]+(?:is|(?:would|could)[ \t]+be)\b"
    r"|\b(?:answer|it|result)[ \t]+(?:is|will[ \t]+be|must[ \t]+be)[ \t]+one[ \t]+of\b",
    re.IGNORECASE,
)
# A part of every form above, case-folded: a pattern without IGNORECASE whose branches open on a
# literal, so that the engine skips to each `o` instead of trying every branch at every position.
_ONE_OR_OTHER = re.compile(r"one[ \t]|other[ \t]")


def one_of_several(sentence: str) -> bool:
    """Whether a sentence calls its values some of several answers (`$18 is one answer, $20 is
    another.`): each is a candidate, none the answer."""
    if _ONE_OR_OTHER.search(sentence.casefold()) is None:
        return False  # neither `one` nor `other` before a space (the common case, found cheaply)
    return _ONE_OF_SEVERAL.search(sentence) is not None


# A closing sentence addressed to the reader: `Let me know if you'd like a table for years 1
# through 15!`, `Hope this helps!`. Its numbers are no candidates, and it states no answer.
_COURTESY = re.compile(
    r"\b(?:let[ \t]+me[ \t]+know|feel[ \t]+free|hope[ \t]+(?:this|that|it)[ \t]+helps"
    r"|if[ \t]+you['’]?d"
    r"[ \t]+like|would[ \t]+you[ \t]+like|happy[ \t]+to[ \t]+help|glad[ \t]+to[ \t]+help"
    r"|don['’]t[ \t]+hesitate)\b",
    re.IGNORECASE,
)
_COURTESY_LOOK = 300
_COURTESY_HINTS: tuple[str, ...] = ("let me know", "feel free", "hope th", "hope it", "d like")
_COURTESY_HINTS += ("ould like", "you like", "happy to", "glad to", "hesitate")


def without_courtesy(text: str) -> str:
    """The text without the sentences addressed to the reader that close it."""
    tail_start = max(0, len(text) - _COURTESY_LOOK)
    tail = text[tail_start:].casefold()
    if (
        not any(hint in tail for hint in _COURTESY_HINTS)
        or _COURTESY.search(text, tail_start) is None
    ):
        return text  # the common case, found with a few substring tests
    end = len(text.rstrip())
    while True:
        opened = max(text.rfind(mark, tail_start, end - 1) for mark in (". ", "! ", "? ", "\n"))
        start = opened + 1 if opened >= 0 else tail_start
        if start <= tail_start or _COURTESY.search(text, start, end) is None:
            return text[:end]
        end = len(text[:start].rstrip())
