"""Corrections: a value the model takes back for a new one (docs/grading.md, "The delivered
answer"), in any language the grader reads.

The delivered answer reads an **unhedged correction** to another value as the new answer. Besides
answer marks (`The correct answer is 20.`), a correction marker that opens a sentence whose value
closes it states one: `No wait, it's 20.`, `Edit: 20.`, `Actually it's 20.`, `Non, en fait,
c'est 20.`, `Nein, eigentlich ist es 20.`, `Нет, на самом деле 20.`, `答案是18，不对，应该是20。`,
`いや、実際は20です。`. The value must end the sentence (a short unit word may follow): `Actually,
9 eggs are left over` goes on to reason and states no answer. Inside one statement, a value
taken back before another (`18, actually 20`, `18, nein, 20`, `~~18~~ 20`) is ruled out
(:data:`TAKEN_BACK`).
"""

from __future__ import annotations

import re

# A sentence opening (the line's start or after a sentence's end), the marker, an optional
# `it's`, and a value that closes the sentence. Every repeat is possessive or over characters the
# next part cannot start with (a group's repeat is not possessive: CPython before 3.11.5 matches
# that wrongly; each of its turns starts with a separator): linear in the text's length.
CORRECTION_OPENING = (
    r"(?:^|(?<=[.!?][ \t])|(?<=[。！？])|(?<=[，,])(?=[ \t]*+不[对，,、 ]))[ \t*_>]*+"
    # A `no` before the marker takes the value before back, in each language the grader reads:
    # `No, actually, it's 20.`, `Non, en fait, c'est 20.`, `Nein, eigentlich ist es 20.`.
    r"(?:(?:(?:no|non|nein|não|нет)[ \t,]++)?"
    r"(?:wait[ \t,]++no|(?:wait|attends|attendez|espera|espere|warte|подожди(?:те)?)"
    r"|actually(?:[ \t,]++no)?|edit|erratum|correction|korrektur|(?:just[ \t]++)?kidding|jk"
    r"|scratch[ \t]++that|never[ \t]*+mind|sorry(?:[ \t,]++(?:typo|my[ \t]++bad))?|typo"
    r"|my[ \t]++bad|I[ \t]++meant?"
    # A value ruled out before the new one, opening its line: `Not 160 — 140.`, and a struck
    # `~~160~~ 140` (read `not 160 140`).
    r"|not[ \t]++\\?[$£€¥₹]?[ \t]?\d[\d,.]*+"
    r"|corrección|correção|correzione|исправление|in[ \t]++fact|en[ \t]++fait|en[ \t]++réalité"
    r"|en[ \t]++realidad|de[ \t]++hecho|na[ \t]++verdade|de[ \t]++fato|eigentlich"
    r"|tatsächlich|на[ \t]++самом[ \t]++деле|в[ \t]++действительности)"
    r"(?!\w)[ \t,:!—–-]*+"
    # The language's `it is`: `it's`, `it should be`, `c'est`, `es`, `é`, `ist es`, `es ist`,
    # `это`.
    r"(?:(?:it(?:['’]s|[ \t]++is|[ \t]++should[ \t]++be)|c['’]est|es|é|ist[ \t]++es"
    r"|es[ \t]++ist|это|sind[ \t]++es|son|são)[ \t]++)?"
    # `答案是18。不对，应该是20。`, `答案是18，不对，应该是20。` (a comma before `不` opens the
    # correction as a full stop does): "no, it should be 20"; `不，实际上是20`, `其实是20`.
    r"|[ \t]*+(?:不对[，,、 ]*+|不[，,、 ]++)?(?:应该是|实际上是|其实是|实际是)[ \t]*+"
    # `答えは18です。いや、実際は20です。`: "no, actually it is 20", "correctly, 20".
    r"|(?:いや|いいえ)?[、, ]*+(?:実際は|実は|正しくは|訂正[:：]?)[ \t]*+"
    # `**Correction:** … so 16 − 3 − 4 = 9 eggs and the earnings are **$18**.`: a correction
    # heading whose line closes on the value its working or its verb comes to.
    r"|(?:correction|corrected|revised|revision|erratum|edit|update|korrektur|corrección|correção"
    r"|исправление)[ \t*_]*+[:：]"
    r"[^\n]{0,160}?(?:=|\b(?:is|are|was|were|comes[ \t]++to|totals?))[ \t]*+(?:\*\*|__)?"
    # `Double-checking, the total is really 20.`: the value the sentence says it really is.
    r"|[^.!?\n\d]{0,60}?\b(?:is|are|was|comes[ \t]++to)[ \t]++(?:really|actually)[ \t]++"
    # `…; the real total is 472.`: the value a correction says the answer really is.
    r"|[^.!?\n\d]{0,80}?\b(?:the|my)[ \t]++(?:real|actual|correct|true|right"
    r"|corrected)[ \t]++(?:total"
    r"|answer|amount|number|value|result|figure|count|sum)[ \t]++(?:is|would[ \t]++be"
    r"|comes[ \t]++to)"
    r"[ \t]++)"
    # The value may close working (`the correct total is 20 × 4 = 80 miles`) and be followed by
    # the one it replaces, ruled out (`, not 60`).
    r"(?=(?:[^.!?\n]{1,120}?=[ \t]*+)?"
    r"[-−]?\\?[$£€¥₹]?[ \t]?\d++(?:[.,]\d++)*(?:[ \t]++[A-Za-z]{2,12}|[ \t]*+[$€£¥])?"
    r"(?:,?[ \t]++not[ \t]++\\?[$£€¥₹]?\d++(?:[.,]\d++)*(?:[ \t]++[A-Za-z]{2,12})?)?"
    # A CJK counter or currency word, then `です` (`20個です。`, `20美元。`).
    r"(?:[ \t]*+[\u4e00-\u9fff]{1,2})?(?:です|だ)?(?:\*\*|__)?[ \t]*+"
    # The value ends its sentence, or a dash opens why (`it's 112 — the 9 dead plants …`).
    r"(?:[.!。]?[ \t]*+$|[.!][ \t]|。|[—–][ \t]))"
)
CORRECTION_HINTS: tuple[str, ...] = ("wait", "actually", "edit", "erratum", "fact", "really")
CORRECTION_HINTS += ("correction", "real ", "actual ", "correct ", "true ", "right ", "korrektur")
CORRECTION_HINTS += ("corrección", "correção", "correzione", "исправление", "不对", "应该是")
CORRECTION_HINTS += ("fait", "réalité", "realidad", "hecho", "verdade", "fato", "eigentlich")
CORRECTION_HINTS += ("tatsächlich", "самом деле", "действительн", "attend", "espera", "espere")
CORRECTION_HINTS += ("warte", "подожди", "实际", "其实", "実際", "実は", "正しくは", "訂正")
CORRECTION_HINTS += ("kidding", "jk", "scratch", "mind", "sorry", "typo", "bad", "meant", "not ")
CORRECTION_HINTS += ("update", "revis")
"""A part of every correction marker, in lower case: texts without one skip the pattern."""


# `18, actually 20`, `18 — no, 20`, `18, sorry, 20`, `18 → 20`, `18 (correction: 20)`: a value
# taken back before the one it states; `~~18~~` struck out.
TAKEN_BACK = re.compile(
    r"~~[^~\n]{1,40}~~"
    r"|(?<![\d,.])[-−]?\\?[$£€¥₹]?[ \t]?(?<![\d,.])\d[\d,.]*+"
    r"(?:[ \t]++(?!(?:actually|no|sorry|wait|is|typo|misprint|meant|jk|kidding|my|never)\b)"
    r"[A-Za-z]{2,12}+)?"
    r"(?:\*\*|__)?[ \t\u00a0]*+(?:[,;:—–(\[，、-]{1,3}|\.\.\.|…)?[ \t]*+"
    # One to three markers in a row: `18, sorry, typo, 20`.
    r"(?:(?:\b(?:actually|no|sorry|I[ \t]+mean[ts]?|wait|make[ \t]+(?:it|that)|correction"
    r"|(?:scratch|strike|disregard|ignore)[ \t]+that|never[ \t]*mind|my[ \t]+bad"
    r"|(?:just[ \t]+)?kidding|jk|I[ \t]+meant|meant|is[ \t]+(?:wrong|incorrect|not[ \t]+right)"
    r"|should[ \t]+have[ \t]+been|edit"
    r"|(?:typo|misprint)(?:[ \t,;:—–-]*+should[ \t]+(?:be|read))?"
    # The same in the other languages read: `18, non, en fait 20`, `18，不对，应该是20`.
    r"|non|nein|não|нет|en[ \t]+fait|en[ \t]+realidad|de[ \t]+hecho|na[ \t]+verdade|eigentlich"
    r"|на[ \t]+самом[ \t]+деле"
    r")\b|→|->|⇒|\\(?:to|rightarrow|Rightarrow)\b|不对|不|(?:应该|实际上|其实)是|いや|実際は)"
    r"[ \t\u00a0,;:!.…—–，、]*+){1,3}(?=(?:\*\*|__)?[-−]?\\?[$£€¥₹]?[ \t]?\d)",
    re.IGNORECASE,
)
TAKEN_BACK_HINTS: tuple[str, ...] = ("~~", "actually", "no", "sorry", "mean", "wait", "make")
TAKEN_BACK_HINTS += ("correction", "→", "->", "scratch", "kidding", "wrong", "typo", "strike")
TAKEN_BACK_HINTS += ("disregard", "ignore", "mind", "bad", "jk", "meant", "incorrect", "right")
TAKEN_BACK_HINTS += ("been", "misprint", "⇒", "\\to", "edit")
TAKEN_BACK_HINTS += ("nein", "não", "нет", "fait", "realidad", "hecho", "verdade", "eigentlich")
TAKEN_BACK_HINTS += ("самом деле", "不", "是", "いや", "実際")
"""A part of every taking-back word, in lower case: most stated values have none."""
