"""Numbers written in words in the other languages the grader reads: French, Spanish, Portuguese,
Italian, German, Russian (`dix-huit`, `dieciocho`, `dezoito`, `diciotto`, `achtzehn`,
`восемнадцать`; `vingt-cinq`, `treinta y cinco`, `fünfundzwanzig`, `двадцать пять`) and Chinese
or Japanese numerals (`十三`, `二十五`, `一百零五`, `两千`).

Principle: a number written in words is a number in every language. These readers serve the
English one in ``words.py`` where it finds no English number words, and are used where it is:
only in answer slots and final statements, never inside working.

A word that is also an article (`un`, `une`, `una`, `um`, `ein`, `eine`) is no number on its
own; it counts only inside a compound (`einundzwanzig`, `vingt et un`). A word that is also a
common English word (`once`, `due`, `elf`) counts only when it opens the text read.
"""

from __future__ import annotations

import re
from decimal import Decimal

_UNIT, _HUNDRED, _SCALE, _JOIN = "unit", "hundred", "scale", "join"
_HUNDRED_WORDS = "cent cents cento ciento hundert сто"
_SCALE_WORDS = {"mille": 1000, "mila": 1000, "mil": 1000, "tausend": 1000, "тысяча": 1000}
_SCALE_WORDS |= {"тысячи": 1000, "тысяч": 1000, "million": 10**6, "millions": 10**6}
_SCALE_WORDS |= {"millón": 10**6, "millones": 10**6, "milhão": 10**6, "milhões": 10**6}
_SCALE_WORDS |= {"milione": 10**6, "milioni": 10**6, "millionen": 10**6, "миллион": 10**6}
_SCALE_WORDS |= {"миллиона": 10**6, "миллионов": 10**6}
_JOIN_WORDS = "et y e und"
# Each language's words for 0 to 19 and the tens, in order; `-` marks a gap.
_LISTS = (
    # French
    "zéro - deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize",
    "- - vingt trente quarante cinquante soixante",
    # Spanish
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince "
    "dieciséis diecisiete dieciocho diecinueve",
    "- - veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa",
    # Portuguese
    "zero - dois três quatro cinco seis sete oito nove dez onze doze treze catorze quinze "
    "dezesseis dezessete dezoito dezenove",
    "- - vinte trinta quarenta cinquenta sessenta setenta oitenta noventa",
    # Italian (`vent`, `trent`, … before `uno` and `otto`: `ventuno`, `trentotto`)
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici "
    "quindici sedici diciassette diciotto diciannove",
    "- - venti trenta quaranta cinquanta sessanta settanta ottanta novanta",
    "- - vent trent quarant cinquant sessant settant ottant novant",
    # German
    "- eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn "
    "fünfzehn sechzehn siebzehn achtzehn neunzehn",
    "- - zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig",
    # Russian
    "ноль один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать "
    "тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать",
    "- - двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто",
)
_WORDS: dict[str, tuple[str, int]] = {}
for _index, _line in enumerate(_LISTS):
    _step = 10 if _line.startswith("- - ") else 1
    for _value, _word in enumerate(_line.split()):
        if _word != "-":
            _WORDS[_word] = (_UNIT, _value * _step)
_OTHER_UNITS = {
    "un": 1, "une": 1, "una": 1, "um": 1, "uma": 1, "ein": 1, "eine": 1, "tré": 3, "duas": 2,
    "tres": 3, "dieciseis": 16, "quatorze": 14, "dezasseis": 16, "dezassete": 17,
    "dezanove": 19, "dreissig": 30, "fuenf": 5, "fünfzehn": 15, "zwoelf": 12, "sech": 6,
    "sieb": 7, "veinti": 20, "veintiún": 21, "veintidós": 22, "veintitrés": 23, "veintiséis": 26,
    "vingts": 20, "cien": 100, "cem": 100, "doscientos": 200, "trescientos": 300,
    "cuatrocientos": 400, "quinientos": 500, "seiscientos": 600, "setecientos": 700,
    "ochocientos": 800, "novecientos": 900, "duzentos": 200, "trezentos": 300,
    "quatrocentos": 400, "quinhentos": 500, "seiscentos": 600, "setecentos": 700,
    "oitocentos": 800, "novecentos": 900, "двести": 200, "триста": 300, "четыреста": 400,
    "пятьсот": 500, "шестьсот": 600, "семьсот": 700, "восемьсот": 800, "девятьсот": 900,
    "одна": 1, "одно": 1, "две": 2,
}  # fmt: skip
for _word, _value in _OTHER_UNITS.items():
    _WORDS[_word.strip()] = (_UNIT, _value)
for _word in _HUNDRED_WORDS.split():
    _WORDS[_word] = (_HUNDRED, 100)
for _word, _value in _SCALE_WORDS.items():
    _WORDS[_word] = (_SCALE, _value)
for _word in _JOIN_WORDS.split():
    _WORDS[_word] = (_JOIN, 0)
_ARTICLES = frozenset(["un", "une", "una", "um", "uma", "ein", "eine"])
"""Words that are also articles: a number only inside a compound or after a joining word."""
_ENGLISH_TOO = frozenset(["once", "due", "elf", "cent", "cents", "mil"])
"""Words that are also common English words: a number only where they open the text read."""
_ENGLISH_AFTER = frozenset(
    [
        "to",
        "of",
        "the",
        "a",
        "an",
        "again",
        "more",
        "upon",
        "in",
        "on",
        "at",
        "is",
        "was",
        "for",
        "and",
        "or",
    ]
)
"""English words after such a word that make it the English one (`due to`, `once again`)."""
_LONGEST = max(map(len, _WORDS))
_WORD = re.compile(r"[^\W\d_]+")
_GAP = re.compile(r"[ \t\u00a0-]*")
_RUN_LIMIT = 40
"""Most words one number may span (a bound that keeps reading linear)."""


def _parts(word: str, opening: bool = True) -> list[tuple[str, str, int]] | None:
    """The number words a written word is made of (`einundzwanzig` is `ein`, `und`, `zwanzig`;
    `duecentotrenta` is `due`, `cento`, `trenta`), longest first; ``None`` when it is no number.
    Linear: a word is split at most once per character, and a word is at most a few dozen
    characters long before it is given up."""
    lowered = word.lower()
    if len(lowered) > 60:
        return None
    parts, position = [], 0
    while position < len(lowered):
        for size in range(min(_LONGEST, len(lowered) - position), 0, -1):
            piece = lowered[position : position + size]
            if piece in _WORDS:
                kind, value = _WORDS[piece]
                parts.append((piece, kind, value))
                position += size
                break
        else:
            return None
    if len(parts) == 1 and parts[0][1] == _JOIN:
        return None if opening else parts  # `y`, `et`, `und` join two words of one number
    if parts[0][1] == _JOIN or parts[-1][1] == _JOIN:
        return None  # a word that opens or ends on `e` or `und` is no number (`tree`)
    return parts


def _joins(current: int, value: int, after_join: bool) -> bool:
    """Whether a value under 100 continues the number read so far: the first word, after a
    hundred or a scale, a unit after a tens word (`vingt-cinq`, `treinta y cinco`), a unit after
    ten (`dix-sept`), a teen after sixty or eighty (`soixante-dix`, `quatre-vingt-onze`), or a
    tens word after a unit and `und` (`fünfundzwanzig`); never two numbers side by side."""
    tens = current % 100
    if tens == 0:
        return True
    if tens % 10 == 0 and tens >= 20 and value < 10:
        return True
    if tens == 10 and value < 10:
        return True
    if tens in (60, 80) and 10 <= value < 20:
        return True
    return after_join and tens < 10 and value >= 20 and value % 10 == 0


def _evaluate(parts: list[tuple[str, str, int]]) -> tuple[int, int] | None:
    """The value of a run of number words and how many of them it spans."""
    total, current, used, after_join, seen = 0, 0, 0, False, False
    for index, (_word, kind, value) in enumerate(parts):
        if kind == _JOIN:
            if not seen:
                break
            after_join = True
            continue
        if kind == _UNIT and value == 20 and current % 100 == 4 and not after_join:
            current += 76  # `quatre-vingt(s)`: four twenties
        elif kind == _UNIT and value < 100:
            if seen and not _joins(current, value, after_join):
                break
            current += value
        elif kind == _UNIT:
            if current % 1000:
                break
            current += value  # `doscientos`, `двести`
        elif kind == _HUNDRED:
            if current % 100 >= 10:
                break
            current = current - current % 100 + (current % 100 or 1) * 100
        else:
            total += (current or 1) * value
            current = 0
        seen, after_join, used = True, False, index + 1
    return (total + current, used) if seen else None


def foreign_runs(text: str) -> list[tuple[int, int, int]]:
    """Each number written in words in ``text`` in the languages above, with where it starts and
    ends: `восемь сантиметров` holds one at 0–6 worth 8. Chinese numerals are read as well."""
    runs = _han_runs(text)
    words = list(_WORD.finditer(text))
    index = 0
    while index < len(words):
        parts = _parts(words[index].group(0))
        if parts is None or _alone_not_a_number(words[index].group(0), parts, index, text):
            index += 1
            continue
        flat, ends, stop = list(parts), [words[index].end()] * len(parts), index + 1
        while stop < len(words) and stop - index < _RUN_LIMIT:
            gap = text[words[stop - 1].end() : words[stop].start()]
            following = _parts(words[stop].group(0), opening=False)
            if following is None or not _GAP.fullmatch(gap):
                break
            flat += following
            ends += [words[stop].end()] * len(following)
            stop += 1
        read = _evaluate(flat)
        if read is None or read[1] == 0:
            index += 1
            continue
        end = ends[read[1] - 1]
        runs.append((words[index].start(), end, read[0]))
        while index < len(words) and words[index].start() < end:
            index += 1
    return sorted(runs)


def _alone_not_a_number(
    word: str, parts: list[tuple[str, str, int]], index: int, text: str
) -> bool:
    """Whether a word that is a number word only in some uses stands here as no number: an
    article alone (`un`, `eine`), an English word anywhere but at the text's opening (`once`)."""
    lowered = word.lower()
    if len(parts) == 1 and lowered in _ARTICLES:
        return True
    if lowered not in _ENGLISH_TOO:
        return False
    opening = text[: text.find(word)].strip(" \t*_")
    following = _WORD.search(text, text.find(word) + len(word))
    english_after = following is not None and following.group(0).lower() in _ENGLISH_AFTER
    return index > 0 or bool(opening) or english_after


_HAN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5}
_HAN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_HAN_UNITS = {"十": 10, "拾": 10, "百": 100, "千": 1000}
_HAN_SCALES = {"万": 10_000, "萬": 10_000, "亿": 10**8, "億": 10**8}
_ONE_IN_WORDS = frozenset("共起样樣下直些定般半旦切致同边邊")
_HAN = re.compile("[零〇一二两兩三四五六七八九十拾百千万萬亿億]{1,40}")


def _han_runs(text: str) -> list[tuple[int, int, int]]:
    """Chinese and Japanese numerals: `十三` 13, `二十五` 25, `一百零五` 105, `两千` 2000."""
    runs = []
    for run in _HAN.finditer(text):
        if run.group(0) == "一" and text[run.end() : run.end() + 1] in _ONE_IN_WORDS:
            continue  # `一共` (in all), `一起` (together): a word, not the number one
        total, section, digit = 0, 0, 0
        for char in run.group(0):
            if char in _HAN_DIGITS:
                digit = _HAN_DIGITS[char]
            elif char in _HAN_UNITS:
                section += (digit or 1) * _HAN_UNITS[char]
                digit = 0
            else:
                total += (section + digit or 1) * _HAN_SCALES[char]
                section, digit = 0, 0
        runs.append((run.start(), run.end(), total + section + digit))
    return runs


def foreign_number(text: str) -> Decimal | None:
    """The first number written in words in ``text`` in the languages above, or ``None``."""
    runs = foreign_runs(text)
    return Decimal(runs[0][2]) if runs else None


_NEGATED = re.compile(r"(?<![^\W\d_])(?:nicht|kein|pas|não|non|не|ни|不是|不)(?![^\W\d_])|不")


def foreign_states_one_value(text: str) -> bool:
    """Whether the number words state one value: one run, not negated (`nicht sieben`, `не три`,
    `sieben oder acht` offers two)."""
    runs = foreign_runs(text)
    if not runs:
        return True
    if _NEGATED.search(text, 0, runs[0][0]):
        return False
    return len(runs) < 2
