"""Disclaimed answers: the model says it does not know its answer (docs/grading.md, "The
delivered answer").

The principle: an answer is delivered only when the model stands by it. A model that says, at
its answer or after it, that it does not know the answer, is not sure of it, is guessing, cannot
solve or decide, or that its answer may well be wrong, delivers none: whatever value it then
names is a guess, and a guess must not earn the credit a committed answer earns.

What counts is the model's own state of knowledge about its answer, in any words, so the
pattern is built from the few ways language says it rather than from phrases seen:

- first person, a state of not knowing: `I'm not sure`, `I am not 100% confident`, `I'm stuck`,
  `I don't know`, `I have no idea`, `I can't tell which`, `I'm unable to solve this`;
- the value called a guess: `a wild guess`, `my best guess`, `I'm guessing`, `guesswork`;
- the answer called unknowable or untrustworthy: `hard to say`, `who knows`, `low confidence`,
  `take it with a grain of salt`, `the answer may well be wrong`, `I might have been right the
  first time`, `I keep going back and forth` (a modest `I might be wrong, but I checked` is no
  doubt about the value);
- the same in the other languages the grader reads (`no estoy seguro`, `nicht sicher`, `不确定`).

A courtesy to the reader (`let me know if you're not sure`) and a doubt about a premise that the
working then settles (`We don't know her age, so …`) are not about the answer: the words must
stand in the answer's own sentence, the sentence before it that holds no number, or after it.
"""

from __future__ import annotations

import re

DISCLAIMED = "the model says it does not know its answer or is guessing: no delivered answer"

_I = r"(?:\bI['’]?m|\bI[ \t]+am|\bI['’]ve[ \t]+been|\bI[ \t]+(?:feel|was|got|remain|stay))"
_SOFT = r"(?:[ \t]+(?:really|still|honestly|genuinely|truly|just|simply|quite|totally|all|so))*"
# A state of not knowing, said of oneself: `I'm not (100%) sure`, `I'm stuck`, `I am confused`.
_STATE = (
    rf"{_I}{_SOFT}[ \t]+(?:not|n['’]t)[ \t]+(?:[\w%]+[ \t]+){{0,2}}?(?:sure|certain|confident"
    r"|positive)\b"
    rf"|{_I}{_SOFT}[ \t]+(?:stuck|confused|lost|torn|unsure|uncertain|guessing|undecided"
    r"|puzzled|stumped|baffled|clueless)\b"
    r"|(?:^|[.!?:;—–(]\s*|\n)[ \t*_]*(?:honestly,?[ \t]+|frankly,?[ \t]+)?(?:not|un)[ \t]*(?:[\w%]+"
    r"[ \t]+){0,2}?(?:sure|certain|confident)\b"
    r"|\bnot[ \t]+(?:at[ \t]+all[ \t]+|entirely[ \t]+|fully[ \t]+|100[ \t]*%[ \t]+)?confident\b"
)
# Not knowing or not being able to: `I don't know`, `I can't tell`, `I'm unable to solve this`.
_CANNOT = (
    r"\bI[ \t]+(?:really[ \t]+|honestly[ \t]+|genuinely[ \t]+|truly[ \t]+|just[ \t]+|simply[ \t]+)?"
    r"(?:don['’]?t|do[ \t]+not|didn['’]?t|did[ \t]+not)[ \t]+(?:really[ \t]+)?know\b"
    r"|\bI[ \t]+have[ \t]+no[ \t]+(?:idea|clue)\b"
    r"|(?:^|[.!?:;—–(]\s*)[ \t*_]*no[ \t]+(?:idea|clue)\b"
    r"|\bwho[ \t]+knows\b"
    rf"|(?:\bI[ \t]+(?:can['’]?t|cannot|could[ \t]*n['’]?o?t)|{_I}[ \t]+(?:unable|not[ \t]+able)"
    r"[ \t]+to)[ \t]+(?:\w+[ \t]+)?(?:solve|determine|figure|work[ \t]+out|tell|say|decide|pick"
    r"|choose|know|be[ \t]+(?:sure|certain)|answer|settle|pin)\b"
    r"|\bI[ \t]+(?:[a-z]+ly[ \t]+)?(?:can['’]?t|cannot"
    r"|could[ \t]*n['’]?o?t)[ \t]+(?:\w+[ \t]+)?(?:tell"
    r"|say|decide|choose|commit)\b"
    r"|\b(?:can['’]?t|cannot|unable[ \t]+to)[ \t]+(?:give|offer|provide"
    r"|reach)[ \t]+(?:you[ \t]+)?(?:a|an"
    r"|any|one)[ \t]+(?:\w+[ \t]+){0,2}?(?:confident|definite|definitive|certain|single|clear|firm)"
    r"\b|\b(?:don['’]?t|do[ \t]+not|won['’]?t|will[ \t]+not)[ \t]+(?:want[ \t]+to[ \t]+)?commit\b"
    r"|\bkeep[ \t]+getting[ \t]+(?:different|two|conflicting)\b"
    # Declining to give one: `I'm unable to provide a final answer.`, `I will not provide a
    # numerical answer.`, `no single answer exists`, `I'll leave the choice to you.`
    r"|\b(?:unable|not[ \t]+able|can['’]?t|cannot|won['’]?t|will[ \t]+not|decline|refuse"
    r"|not[ \t]+going)"
    r"[ \t]+(?:to[ \t]+)?(?:give|provide|offer|commit[ \t]+to|settle[ \t]+on|pick|choose|state)"
    r"[ \t]+(?:you[ \t]+)?(?:\w+[ \t]+){0,3}?(?:answer|number|value|figure|result)s?\b"
    r"|\bno[ \t]+(?:single|valid|one|definite|definitive|numerical|numeric|exact|unique|clear"
    r"|correct"
    r"|possible)[ \t]+(?:answer|solution|value|number)\b"
    r"|\bleave[ \t]+(?:the[ \t]+choice|it|that|the[ \t]+decision)[ \t]+(?:up[ \t]+)?to[ \t]+you\b"
    r"|\b(?:rather|prefer)[ \t]+not[ \t]+(?:to[ \t]+)?(?:give|guess|state|say|commit|answer"
    r"|provide)\b"
    r"|\banswer[ \t]+(?:withheld|omitted)\b"
    # No solution, or no result of its own: `The problem has no solution as stated.`, `I don't
    # have the result.` (Another quantity that cannot be determined is no doubt about this one.)
    r"|\b(?:has|have|there[ \t]+is|there['’]s)[ \t]+no"
    r"[ \t]+(?:\w+[ \t]+)?(?:solution|answer)\b|\bI[ \t]+(?:don['’]?t"
    r"|do[ \t]+not)[ \t]+have[ \t]+(?:the"
    r"|a|an|any)[ \t]+(?:result|answer|number|value)\b"
    r"|\b(?:hard|difficult|impossible|tough|tricky)[ \t]+to[ \t]+(?:say|tell|know|decide"
    r"|be[ \t]+sure)\b|\bno[ \t]+way[ \t]+to[ \t]+(?:know|tell|be[ \t]+sure)\b"
    # The same first-person inability in the other languages read: `Je ne peux pas déterminer
    # la réponse finale.`, `No puedo determinar …`, `Não consigo determinar …`, `Ich kann die
    # Antwort nicht bestimmen.`, `Не могу определить окончательный ответ.`, `我无法判断`.
    r"|\bje[ \t]+ne[ \t]+(?:peux|sais|parviens|suis[ \t]+pas[ \t]+en[ \t]+mesure)[ \t]+pas[ \t]+"
    r"(?:à[ \t]+)?(?:déterminer|calculer|trouver|dire|décider|choisir|savoir|résoudre|donner)\b"
    r"|\bje[ \t]+n['’]arrive[ \t]+pas[ \t]+à[ \t]+(?:déterminer|calculer|trouver|décider"
    r"|choisir|savoir|résoudre)\b"
    r"|\bno[ \t]+(?:puedo|logro|consigo|soy[ \t]+capaz[ \t]+de)[ \t]+(?:determinar|calcular"
    r"|decidir|elegir|saber|resolver|dar|encontrar)\b"
    r"|\bnão[ \t]+(?:posso|consigo|sou[ \t]+capaz[ \t]+de)[ \t]+(?:determinar|calcular|decidir"
    r"|escolher|saber|resolver|dar|encontrar)\b"
    r"|\b(?:ich[ \t]+kann|kann[ \t]+ich)[ \t]+(?:[^\W\d_]+[ \t]+){0,4}?(?:nicht|keine)[ \t]+"
    r"(?:[^\W\d_]+[ \t]+){0,2}?(?:bestimmen|ermitteln|berechnen|sagen|entscheiden|festlegen"
    r"|geben|angeben|lösen|finden)\b"
    r"|\bне[ \t]+(?:могу|удаётся|удается|получается|в[ \t]+состоянии)[ \t]+(?:точно[ \t]+)?"
    r"(?:определить|вычислить|сказать|решить|выбрать|найти|дать|установить)"
    r"|\bnon[ \t]+(?:riesco|posso|sono[ \t]+in[ \t]+grado[ \t]+di)[ \t]+(?:a[ \t]+)?(?:determinare"
    r"|calcolare|decidere|scegliere|sapere|risolvere|dare|trovare|stabilire)\b"
    r"|(?:제가[ \t]*)?(?:확정|결정|계산|판단)(?:할|하기)[ \t]*수[ \t]*없"
    r"|我(?:无法|不能|没法|没办法)(?:确定|判断|决定|计算|给出|得出)"
    r"|(?:決め|判断|決定|特定|断定)(?:することが)?できません"
)
# The value called a guess (the model's one: `a wild guess`, `my best guess`, not `their average
# guess` or `the total guesses` of a question about guessing), the answer called untrustworthy or
# wavered over.
_GUESS = (
    r"\b(?:a|my|wild|rough|blind|best|educated|random|pure|only|just|mere)[ \t]+"
    r"(?:(?:wild|rough|blind|best|educated|random|pure|good|total)[ \t]+)?guess\b|\bguesswork\b"
    r"|\bI['’]?m[ \t]+(?:just[ \t]+|only[ \t]+)?guessing\b|\b(?:at|as)[ \t]+a[ \t]+guess\b"
    r"|\b(?:low|little|no|limited)[ \t]+confidence\b|\bconfidence[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:low|none|very[ \t]+low)\b|grain[ \t]+of[ \t]+salt|\b(?:don['’]?t|do[ \t]+not)[ \t]+trust"
    r"[ \t]+(?:it|this|that|my|the)\b|\bunreliable\b|\bnot[ \t]+reliable\b"
    r"|\b(?:the|my|this|that)[ \t]+(?:final[ \t]+)?answer[ \t]+(?:might|may|could)[ \t]+(?:well"
    r"[ \t]+|easily[ \t]+|very[ \t]+well[ \t]+)?(?:be|have[ \t]+been)[ \t]+(?:wrong|off|mistaken"
    r"|incorrect)\b|\bmight[ \t]+have[ \t]+been[ \t]+right\b|\bback[ \t]+and[ \t]+forth\b"
    r"|\bsecond[ \t-]+guess|\bon[ \t]+the[ \t]+fence\b|\bflip[ \t-]*flop|\bwaver"
    # Leaving the choice open: `whichever is right`, `either works`, `both work`.
    r"|\bwhichever[ \t]+(?:one[ \t]+)?(?:is|you[ \t]+prefer|applies)\b|\b(?:either|both)[ \t]+"
    r"(?:one[ \t]+|answer[ \t]+|value[ \t]+)?(?:works?|is[ \t]+fine|are[ \t]+fine|could[ \t]+work"
    r"|is[ \t]+(?:ok|okay|acceptable))\b|\btake[ \t]+your[ \t]+pick\b|\byour[ \t]+choice\b"
    r"|\btidak[ \t]+(?:yakin|tahu|pasti)\b|\bemin[ \t]+değilim\b|\bkhông[ \t]+chắc"
    r"|\bsina[ \t]+uhakika\b|ไม่แน่ใจ|নিশ্চিত[ \t]+নই|पक्का[ \t]+नहीं|यकीन[ \t]+नहीं"
    r"|\bno[ \t]+estoy[ \t]+segur[oa]|\bno[ \t]+(?:lo[ \t]+)?sé\b|nicht[ \t]+sicher"
    r"|weiß[ \t]+(?:es[ \t]+)?nicht|pas[ \t]+sûr|ne[ \t]+sais[ \t]+pas|non[ \t]+sono[ \t]+sicur"
    r"|não[ \t]+(?:tenho[ \t]+certeza|sei)|不确定|不知道|不太确定|没把握|猜|わかりません"
    r"|分かりません|自信がない|확실하지|모르겠|не[ \t]+уверен|не[ \t]+знаю"
)
_DISCLAIMER = re.compile(rf"{_STATE}|{_CANNOT}|{_GUESS}", re.IGNORECASE | re.MULTILINE)
# A part of every form above, so that most texts skip the pattern: a form's own words where they
# are common elsewhere (`know` → `t know`, `might` → `answer might`).
_HINTS: tuple[str, ...] = ("sure", "certain", "confiden", "positive", "stuck", "confus", "lost")
_HINTS += ("torn", "guess", "decided", "puzzl", "stump", "baffl", "clueless", "t know", "not know")
_HINTS += ("who knows", "no idea", "no clue", "can't", "can’t", "cant", "cannot", "couldn")
_HINTS += (
    "unable",
    "not able",
    "hard to",
    "difficult to",
    "impossible to",
    "tough to",
    "tricky to",
)
_HINTS += ("decline", "refuse", "not going", "won't", "won’t", "will not", "no single", "no valid")
_HINTS += ("no one answer", "no definite", "no numeric", "no exact", "no unique", "no clear")
_HINTS += ("no correct", "no possible", "to you", "rather not", "prefer not", "withheld")
_HINTS += ("really know", "no solution", "have the", "have a", "have any")
_HINTS += ("no way to", "grain of salt", "trust", "reliab", "answer might", "answer may")
_HINTS += ("answer could", "have been right", "forth", "fence", "flip", "waver", "commit")
_HINTS += ("keep getting", "whichever", "either", "both", "your pick", "your choice", "segur")
_HINTS += ("no sé", "no lo sé", "sicher", "weiß", "sûr", "sais pas", "sicur", "certeza", "não sei")
_HINTS += (
    "确定",
    "知道",
    "把握",
    "猜",
    "わかり",
    "分かり",
    "自信",
    "확실",
    "모르",
    "уверен",
    "знаю",
)
_HINTS += ("tidak", "emin", "không", "uhakika", "แน่ใจ", "নিশ্চিত", "पक्का", "यकीन")
_HINTS += ("ne peux", "ne sais", "parviens", "en mesure", "arrive pas", "no puedo", "no logro")
_HINTS += ("no consigo", "capaz", "não posso", "não consigo", "ich kann", "kann ich", "не могу")
_HINTS += ("не удаётся", "не удается", "не получается", "в состоянии", "无法", "不能", "没法")
_HINTS += ("没办法", "できません")
_HINTS += ("non riesco", "non posso", "in grado", "수 없", "수없")
_STORY_WORDS: tuple[str, ...] = (
    "guess",
    "lost",
    "stuck",
    "torn",
    "confus",
    "trust",
    "confiden",
    "reliab",
    "fence",
)
_STORY_WORDS += ("salt", "flip", "waver", "puzzl")
"""Words a question's story may use (`the average guess`, `a lost ball`, `a puzzle`)."""
# Substring tests on the case-folded text: much cheaper than one pattern of every hint.
_ALL_HINTS = tuple(hint.casefold() for hint in _HINTS)
_ASCII_HINTS = tuple(hint for hint in _ALL_HINTS if hint.isascii())
# A courtesy or a condition, not the model's own state: `let me know if you're not sure`,
# `If I'm not sure, I check again.`
_NOT_OWN = re.compile(r"\b(?:you|your|if|whether|when|unless)\b[^.!?\n]{0,40}$", re.IGNORECASE)
_AFTER_LOOK = 1_000  # characters after the answer read: a much later aside is about something else
_BEFORE_LOOK = 300  # characters before the answer in which its sentence and the one before start


def disclaimed(text: str, start: int, end: int, question: str | None = None) -> bool:
    """Whether the model disclaims the answer stated at ``text[start:end]``: the words stand in
    the answer's sentence, in the sentence before it when that one holds no number, or after it.

    Words the question itself uses (`Tim's guess`, `the team lost 7 games`) are the problem's
    words, not the model's doubt, and do not count.
    """
    begin = _opening(text, start)
    region = text[begin : end + _AFTER_LOOK]
    folded = region.casefold()
    hints = _ASCII_HINTS if folded.isascii() else _ALL_HINTS
    if not any(hint in folded for hint in hints):
        return False  # no such word at all (the common case, found cheaply)
    asked = (question or "").lower()
    for match in _DISCLAIMER.finditer(region):
        said = match.group(0).lower()
        if any(word in said and word in asked for word in _STORY_WORDS):
            continue  # `Tim's guess`, `the team lost`: the question's story, not a doubt
        if _NOT_OWN.search(region, max(0, match.start() - 40), match.start()) is not None:
            continue
        return True
    return False


def _opening(text: str, start: int) -> int:
    """Where the answer's sentence opens, or the sentence before it when that one holds no
    number (`I genuinely don't know. Possibly 22.`)."""
    window_start = max(0, start - _BEFORE_LOOK)
    opened = _after_mark(text, window_start, start)
    if opened == window_start:
        return window_start
    before = _after_mark(text, window_start, opened - 1)
    return opened if _DIGIT.search(text, before, opened) else before


_DIGIT = re.compile(r"\d")
# A sentence mark: one of `.!?` before a space or the end, a CJK full stop, or a line break.
_MARK = re.compile(r"[.!?](?=\s|\Z)|[。！？\n]")


def _after_mark(text: str, start: int, end: int) -> int:
    """Just after the last sentence mark in ``text[start:end]`` that some text follows before
    ``end`` (a mark right before it opens no sentence), else ``start``."""
    after = start
    for mark in _MARK.finditer(text, start, end):
        if text[mark.end() : end].strip():
            after = mark.end()
    return after
