"""Hedges, corrections, ranges and refusals read alike in every language the grader reads
(docs/grading.md, "The delivered answer"): a correction, a hedged second value, a range or a
refusal in French, Spanish, Portuguese, German, Russian, Chinese or Japanese delivers what its
English counterpart delivers; the rows ending in ``18`` must not change."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gsm8k.grading import grade

# The same working (16 eggs, 3 eaten, 4 used, 9 sold at $2) in each language.
WORKING = {
    "fr": "Elle a 16 œufs. Elle en mange 3 et en utilise 4, il en reste 9. 9 × 2 = 18.\n",
    "es": "Tiene 16 huevos. Come 3 y usa 4, quedan 9. 9 × 2 = 18.\n",
    "pt": "Ela tem 16 ovos. Come 3 e usa 4, restam 9. 9 × 2 = 18.\n",
    "de": "Sie hat 16 Eier. Sie isst 3 und verbraucht 4, es bleiben 9. 9 × 2 = 18.\n",
    "ru": "У неё 16 яиц. Она съедает 3 и использует 4, остаётся 9. 9 × 2 = 18.\n",
    "zh": "她有16个鸡蛋。吃掉3个，用掉4个，剩下9个。9 × 2 = 18。\n",
    "ja": "卵は16個です。3個食べて4個使うので、残りは9個です。9 × 2 = 18。\n",
    "en": "She has 16 eggs. She eats 3 and uses 4, so 9 are left. 9 × 2 = 18.\n",
}

ROWS = [
    ("fr", "La réponse est 18. Non, en fait, c'est 20.", 20),
    ("fr", "La réponse est 18. Non, en fait c'est 20.", 20),
    ("fr", "La réponse est 18. En fait, c'est 20.", 20),
    ("fr", "La réponse est 18. Non attendez, c'est 20.", 20),
    ("fr", "La réponse est 18. Correction : 20.", 20),
    ("es", "La respuesta es 18. No, en realidad, es 20.", 20),
    ("es", "La respuesta es 18. En realidad es 20.", 20),
    ("es", "La respuesta es 18. No, espera, es 20.", 20),
    ("pt", "A resposta é 18. Não, na verdade, é 20.", 20),
    ("pt", "A resposta é 18. Na verdade é 20.", 20),
    ("pt", "A resposta é 18. Não, espere, é 20.", 20),
    ("de", "Die Antwort ist 18. Nein, eigentlich ist es 20.", 20),
    ("de", "Die Antwort ist 18. Nein, warte, es ist 20.", 20),
    ("de", "Die Antwort ist 18. Korrektur: 20.", 20),
    ("ru", "Ответ: 18. Нет, на самом деле 20.", 20),
    ("ru", "Ответ 18. Нет, подождите, это 20.", 20),
    ("zh", "答案是18，不对，应该是20。", 20),
    ("zh", "答案是18。不对，应该是20。", 20),
    ("zh", "答案是18，不，实际上是20。", 20),
    ("ja", "答えは18です。いや、実際は20です。", 20),
    ("ja", "答えは18です。いいえ、正しくは20です。", 20),
    ("en", "The answer is 18. No, actually, it's 20.", 20),
    ("de", "Die Antwort ist 18, vielleicht aber auch 20.", None),
    ("de", "Die Antwort ist 18, vielleicht auch 20.", None),
    ("de", "Die Antwort ist 18 oder vielleicht 20.", None),
    ("es", "La respuesta es 18, o quizás 20.", None),
    ("es", "La respuesta es 18, o tal vez 20.", None),
    ("es", "La respuesta es 18, quizás 20.", None),
    ("pt", "A resposta é 18, ou talvez 20.", None),
    ("pt", "A resposta é 18, talvez 20.", None),
    ("fr", "La réponse est 18, ou peut-être 20.", None),
    ("fr", "La réponse est 18, peut-être 20.", None),
    ("ru", "Ответ 18, или, возможно, 20.", None),
    ("zh", "答案是18，也可能是20。", None),
    ("zh", "答案是18，或许是20。", None),
    ("ja", "答えは18、もしかしたら20です。", None),
    ("ja", "答えは18個か20個です。", None),
    ("ja", "答えは18か20です。", None),
    ("ja", "答えは18枚か20枚です。", None),
    ("en", "The answer is 18, or maybe 20.", None),
    ("pt", "Resposta: entre 18 e 20 ovos.", None),
    ("es", "Respuesta: entre 18 y 20 huevos.", None),
    ("fr", "Réponse : entre 18 et 20 œufs.", None),
    ("de", "Antwort: zwischen 18 und 20 Eier.", None),
    ("ru", "Ответ: между 18 и 20.", None),
    ("zh", "答案：18到20个。", None),
    ("ja", "答え：18から20個。", None),
    ("en", "Answer: between 18 and 20 eggs.", None),
    ("ru", "Не могу определить окончательный ответ.", None),
    ("fr", "Je ne peux pas déterminer la réponse finale.", None),
    ("es", "No puedo determinar la respuesta final.", None),
    ("pt", "Não consigo determinar a resposta final.", None),
    ("de", "Ich kann die endgültige Antwort nicht bestimmen.", None),
    ("zh", "我无法确定最终答案。", None),
    ("ja", "最終的な答えを決めることができません。", None),
    ("en", "I cannot determine the final answer.", None),
    ("fr", "Elle gagne donc 18 $ par jour.", 18),
    ("de", "Sie verdient also 18 $ pro Tag.", 18),
    ("es", "Entonces gana 18 dólares al día.", 18),
    ("pt", "Ela ganha 18 dólares por dia.", 18),
    ("ru", "Ответ: 18 долларов.", 18),
    ("zh", "答案是18美元。", 18),
    ("ja", "答えは18ドルです。", 18),
    ("fr", "La réponse est 18. En fait, il reste 9 œufs et elle les vend 2 $ chacun.", 18),
    ("de", "Die Antwort ist 18. Eigentlich verkauft sie 9 Eier zu je 2 $.", 18),
    ("es", "La respuesta es 18. De hecho, vende 9 huevos a 2 dólares.", 18),
    ("ja", "答えは18か月です。", 18),
    ("zh", "答案是18，不包括其他费用。", 18),
    ("ru", "Ответ: 18. На самом деле это 9 яиц по 2 доллара.", 18),
    ("de", "Die Antwort ist 18 Dollar, also 9 Eier mal 2 Dollar.", 18),
    ("fr", "Elle gagne 18 $. Je ne peux pas manger les œufs, mais je peux les vendre.", 18),
    ("en", "The answer is 18. Actually, 9 eggs are left over.", 18),
    ("en", "So the answer is 18 dollars.", 18),
    ("zh", "答案是18美元。", 18),
    ("de", "Die Antwort ist 18, nicht 20.", 18),
    ("es", "La respuesta es 18 y no 20.", 18),
    ("ja", "答えは18ドルです。20ドルではありません。", 18),
    ("de", "Die Antwort ist 18. Nein, eigentlich 20.", 20),
    ("es", "La respuesta es 18, no, en realidad 20.", 20),
    ("de", "Die Antwort ist 18, nein, 20.", 20),
    ("fr", "La réponse est 18, non, 20.", 20),
    ("es", "La respuesta es 18 o tal vez 20.", None),
    ("pt", "A resposta é 18 ou 20.", None),
    ("fr", "La réponse est 18 ou peut-être 20 $.", None),
    ("zh", "答案是18个或20个。", None),
    ("zh", "答案是18到20。", None),
    ("ja", "答えは18から20です。", None),
    ("de", "Ich kann nicht sagen, ob es 18 oder 20 ist.", None),
    ("ru", "Я не могу точно определить ответ.", None),
    ("es", "Respuesta: entre 18 y 20.", None),
]


@pytest.mark.parametrize(("language", "ending", "expected"), ROWS)
def test_language_ending(language: str, ending: str, expected: int | None) -> None:
    verdict = grade(WORKING[language] + ending, "20")
    if expected is None:
        assert verdict.answer is None, verdict
    else:
        assert verdict.answer is not None, verdict
        assert Decimal(verdict.answer) == expected, verdict


# A dot before exactly three digits groups thousands in a text written in German, Spanish,
# Portuguese or Italian that never writes a decimal point with one or two decimals.
DOTS = [
    (
        "Er verdient jede Woche 1.150 $ und arbeitet 50 Wochen. 1.150 x 50 = 57.500\n"
        "Ihr Jahresgehalt beträgt 57.500 $.",
        "57500",
    ),
    (
        "Ella gana 1.150 dólares por semana y trabaja 50 semanas. 1.150 x 50 = 57.500\n"
        "El salario anual es 57.500 dólares.",
        "57500",
    ),
    (
        "Ela ganha 1.150 reais por semana e trabalha 50 semanas. 1.150 x 50 = 57.500\n"
        "O salário anual é 57.500 reais.",
        "57500",
    ),
    (
        "Il costo è 1.150 euro per settimana e sono 50 settimane. 1.150 x 50 = 57.500\n"
        "Il totale della spesa è 57.500 euro.",
        "57500",
    ),
    # English: a decimal point.
    (
        "The rate is 1.150 per unit and there are 50 units. 1.150 x 50 = 57.500\n"
        "The total is 57.5.",
        "57.5",
    ),
    # German with a decimal point of one or two decimals: the dots are decimal points.
    (
        "Der Preis ist 2.50 $ pro Stück und sie kauft 4 Stück. 2.50 x 4 = 10.00\n"
        "Sie zahlt also 10.00 $.",
        "10",
    ),
    (
        "Der Stoff wiegt 0.125 kg pro Meter und ist 4 Meter lang, das ist mit 4 Metern 0.5 kg.",
        "0.5",
    ),
]


@pytest.mark.parametrize(("completion", "expected"), DOTS)
def test_dot_thousands_by_language(completion: str, expected: str) -> None:
    answer = grade(completion, expected).answer
    assert answer is not None
    assert Decimal(answer) == Decimal(expected)


def test_lone_zero_opens_no_dot_group() -> None:
    from gsm8k.grading.numbers import parse_number

    assert parse_number("0.125", dot_thousands=True) == Decimal("0.125")
    assert parse_number("1.125", dot_thousands=True) == Decimal("1125")
