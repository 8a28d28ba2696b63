"""Number words, answer phrases, hedges, ranges, refusals and retractions in the other languages
the grader reads (docs/grading.md, "The delivered answer"): a number written in words is a number
in every language, and a hedged pair, a range, a refusal or a retraction means the same in every
language. Words inside working are never read; English is unchanged.

Each row: a completion ending as a real one does, and the answer read (``None``: no answer).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading import grade

NUMBER_WORDS = [
    # Spanish
    ("Primero: 3 × 6 = 16 dólares, más 2.\n\nLa respuesta es dieciocho dólares.", "18"),
    ("Gana 9 × 2 = 16 al día.\nLa respuesta es veinticinco.", "25"),
    ("Tiene 30 + 4 = 33 canicas.\nRespuesta: treinta y cinco", "35"),
    ("Total: 100 + 4 = 104\nLa respuesta final es ciento cinco.", "105"),
    ("Suma 16 euros.\nRespuesta: dos mil doscientos", "2200"),
    # French
    ("Il reste 9 + 9 = 16 œufs.\n#### dix-huit", "18"),
    ("Elle a 70 + 6 = 76 billes.\nRéponse : quatre-vingt-dix-sept", "97"),
    ("Elle a 70 + 6 = 76 billes.\nLa réponse est soixante-dix.", "70"),
    ("Il a 20 + 2 = 22 ans.\nRéponse : vingt et un", "21"),
    ("20 - 12 - 4 = 4\nThe final answer is:\n\\[\n\\boxed{vingt\\ pour\\ cent}\n\\]", "20"),
    # Portuguese and Italian
    ("Ela tem 9 × 2 = 16 reais.\nA resposta é dezoito.", "18"),
    ("Ela tem 20 + 4 = 24 reais.\nResposta: vinte e cinco", "25"),
    ("Ha 9 × 2 = 16 euro.\nLa risposta è diciotto.", "18"),
    ("Ha 20 + 4 = 24 euro.\nRisposta: ventuno", "21"),
    ("Ha 200 + 4 = 204 euro.\nRisposta: duecentotrenta", "230"),
    # German
    ("12 × 7 = 84 Eier, also sieben Dutzend.\n\nAntwort: sieben", "7"),
    ("Sie hat 20 + 4 = 24 Äpfel.\nAntwort: einundzwanzig", "21"),
    ("Die Summe ist 300 + 4 = 304.\nDie Antwort ist dreihundertfünfundzwanzig.", "325"),
    ("Sie hat 9 × 2 = 16 Euro.\nDie Antwort lautet achtzehn Euro.", "18"),
    # Russian
    ("1 + 2 = 4\nОтвет: три", "3"),
    ("4 × 2 = 9 см\nОтвет: восемь сантиметров.", "8"),
    ("20 + 4 = 24\nОтвет: двадцать пять", "25"),
    ("100 + 4 = 104\nОтвет: сто пять рублей.", "105"),
    # Chinese and Japanese numerals
    ("10 + 3 = 14\n答案：十三", "13"),
    ("3 + 4 = 8\n答案：七", "7"),
    ("20 + 4 = 24\n答案：二十五个", "25"),
    ("100 + 4 = 104\n答案：一百零五", "105"),
    ("1000 + 4 = 1004\n答案：两千", "2000"),
    ("10 + 3 = 14\n答案：一共十三个苹果", "13"),
    ("3 + 4 = 8\n答え：七個", "7"),
]

NO_ANSWER_IN_WORDS = [
    # Two values offered in words, or one ruled out.
    "Sie hat 9 × 2 = 18 Euro.\nAntwort: sieben oder acht",
    "9 × 2 = 18\nОтвет: три или четыре",
    "9 × 2 = 18\n答案：十三或十四",
    "9 × 2 = 18\n答案：不是三",
    # Words that hold no number.
    "9 × 2 = 18\nRespuesta: un número par",
    "9 × 2 = 18\nAntwort: eine ganze Zahl",
    "9 × 2 = 18\n答案：无法确定",
]

PHRASES = [
    ("9 × 2 = 20, 20 - 2 = 18\nA resposta é 18.", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\nA resposta final é 18 ovos.", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\nLa risposta è 18.", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\nLa risposta finale è 18 euro.", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\n정답은 18입니다.", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\n답: 18", "18"),
    ("9 × 2 = 20, 20 - 2 = 18\n최종 답은 18개입니다.", "18"),
    ("9 * 2 = 20, 20 - 2 = 18\nОтвет 18.", "18"),
]

HEDGED = [
    # Korean, German, Russian, Portuguese, Italian hedged pairs.
    "계산: 47.5\n정답은 47.5 또는 50입니다.",
    "계산: 47.5\n정답은 47.5 혹은 50입니다.",
    "Das Jahresgehalt beträgt 65.000 und ist für die Familie.\n"
    "Antwort: entweder 70.000 oder 65.000.",
    "Die Antwort ist entweder 18 oder 20.",
    "9 * 2 = 18\nОтвет 18, а может быть 20.",
    "9 * 2 = 18\nОтвет 18 или 20.",
    "9 * 2 = 18\nA resposta é 18 ou 20.",
    "9 * 2 = 18\nLa risposta è 18 o 20.",
    "9 * 2 = 18\nA resposta é ou 18 ou 20.",
    # Ranges offered as the answer.
    "300 - 100 = 200\nРазница составляет от 100 до 200 фунтов.",
    "300 - 100 = 200\nРазница равна от 100 до 200 фунтов.",
    "300 - 100 = 200\nОтвет: от 100 до 200 фунтов.",
    "9 * 2 = 20\nLa respuesta es entre 18 y 20 dólares.",
    "9 * 2 = 20\nDie Antwort ist von 18 bis 20 Euro.",
    "9 * 2 = 20\nLa réponse est de 18 à 20 euros.",
    "9 * 2 = 20\nLa risposta è tra 18 e 20 euro.",
]

REFUSED = [
    "Ci sono 12 episodi e 1 stagione.\nNon riesco a determinare il numero esatto di episodi.",
    "Ci sono 12 episodi e 1 stagione.\nNon posso determinare il numero esatto.",
    "Ci sono 12 episodi e 1 stagione.\nNon sono in grado di calcolare la risposta.",
    "에피소드는 12개이고 시즌은 1개입니다.\n정확한 에피소드 수를 확정할 수 없습니다.",
]

RETRACTED = [
    "3 + 4 = 7\n答案：7\n\n等等，我好像算错了……",
    "长度是3×3×60=540米。\n\n哦不，我好像算错了……",
    "长度是3×3×60=540米。\n\n不对，我可能算错了。",
    "长度是3×3×60=540米。\n\n等一下，我弄错了……",
    "長さは3×3×60=540メートルです。\n\nあれ、計算を間違えました……",
    "길이는 3×3×60=540미터입니다.\n\n아, 제가 잘못 계산했습니다……",
]

UNCHANGED = [
    # Number words inside working are never read; the final statement's digits are.
    ("Elle a dix-huit œufs et en vend 9. 9 × 2 = 18.\nLa réponse est 18.", "18"),
    ("Sie hat sieben Dutzend Eier, also 12 × 7 = 84.\nAntwort: 84", "84"),
    ("她有十三个苹果，又买了5个，13 + 5 = 18。\n答案：18", "18"),
    ("У неё три яблока и 15 груш: 3 + 15 = 18.\nОтвет: 18", "18"),
    # A change from one value to another is no range.
    ("Цена была 100, потом 200.\nЦена выросла от 100 до 200 фунтов.", "200"),
    # A check that finds no mistake takes nothing back.
    ("长度是3×3×60=540米。\n\n我检查了一遍，没有算错。", "540"),
    ("长度是3×3×60=540米。\n\n我检查了一遍，没有算错，答案是540米。", "540"),
    # An article or an English word is no number word.
    ("9 × 2 = 18\nLa respuesta es 18, un número par.", "18"),
    ("9 × 2 = 18.\nANSWER: 18 due to rounding", "18"),
    ("9 × 2 = 18.\nThe answer is due.", "18"),
    # A lone Russian `Ответ` before a digit is the answer; one with a colon too.
    ("9 × 2 = 18\nОтвет: 18 рублей.", "18"),
    # Italian and Portuguese statements that are no answer phrase.
    ("La risposta è semplice: 9 × 2 = 18 euro.", "18"),
    # English is unchanged.
    ("9 + 9 = 18\n#### eighteen", "18"),
    ("She has 9 × 2 = 16, plus 2.\nThe answer is eighteen.", "18"),
    ("Once again, 9 × 2 = 18.\nThe answer is 18.", "18"),
    ("It is due to 9 × 2 = 18.\nANSWER: 18", "18"),
]


def _same(answer: str | None, expected: str) -> bool:
    return answer is not None and Decimal(answer) == Decimal(expected)


@pytest.mark.parametrize(("completion", "expected"), NUMBER_WORDS)
def test_number_words_in_other_languages(completion: str, expected: str) -> None:
    assert _same(grade(completion, expected).answer, expected)


@pytest.mark.parametrize("completion", NO_ANSWER_IN_WORDS)
def test_words_that_state_no_one_value(completion: str) -> None:
    assert grade(completion, "18").answer is None


@pytest.mark.parametrize(("completion", "expected"), PHRASES)
def test_answer_phrases_of_other_languages(completion: str, expected: str) -> None:
    verdict = grade(completion, expected)
    assert _same(verdict.answer, expected)
    assert verdict.rule == "answer_is"


@pytest.mark.parametrize("completion", HEDGED)
def test_hedged_pairs_and_ranges(completion: str) -> None:
    assert grade(completion, "20").answer is None


@pytest.mark.parametrize("completion", REFUSED)
def test_refusals(completion: str) -> None:
    assert grade(completion, "12").answer is None


@pytest.mark.parametrize("completion", RETRACTED)
def test_retractions(completion: str) -> None:
    assert grade(completion, "540").answer is None


@pytest.mark.parametrize(("completion", "expected"), UNCHANGED)
def test_unchanged(completion: str, expected: str) -> None:
    assert _same(grade(completion, expected).answer, expected)
