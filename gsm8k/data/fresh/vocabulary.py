"""The word lists GSM-Symbolic's templates sample from by name (``sample(names_female)``).

The templates name these lists but do not contain them; these are this project's own. Each list
is chosen so that every use in the templates reads as English: fruits and units take a plural
``s`` (``{fruit}s``), multipliers and fractions read before ``as many`` / ``of`` / ``the``, and
the fraction lists hold the forms their templates' defaults use (words, ``1/4``, ``0.25``).
A pair ``(text, number)`` is written as its text and computed with as its number.
"""

from __future__ import annotations

from fractions import Fraction

from gsm8k.data.fresh.values import Labelled, Value

NAMES_FEMALE = [
    "Amara",
    "Beatrice",
    "Camila",
    "Daniela",
    "Eleanor",
    "Fatima",
    "Grace",
    "Hana",
    "Imani",
    "Julia",
    "Keiko",
    "Leila",
    "Maya",
    "Nadia",
    "Olivia",
    "Priya",
    "Rosa",
    "Sofia",
    "Tamara",
    "Uma",
    "Valentina",
    "Wendy",
    "Ximena",
    "Yara",
    "Zoe",
    "Alice",
    "Chloe",
    "Esther",
    "Ingrid",
    "Lucia",
    "Mei",
    "Nora",
    "Paula",
    "Ruth",
    "Sara",
    "Tessa",
    "Vera",
    "Ada",
    "Bianca",
    "Clara",
]
NAMES_MALE = [
    "Aaron",
    "Bruno",
    "Carlos",
    "Daniel",
    "Elijah",
    "Felix",
    "Gabriel",
    "Hugo",
    "Ibrahim",
    "James",
    "Kenji",
    "Liam",
    "Mateo",
    "Nikhil",
    "Omar",
    "Pablo",
    "Quentin",
    "Rafael",
    "Samuel",
    "Tomas",
    "Umar",
    "Victor",
    "Wesley",
    "Xavier",
    "Yusuf",
    "Zane",
    "Adam",
    "Ben",
    "Diego",
    "Ethan",
    "Farid",
    "Hassan",
    "Ivan",
    "Jonah",
    "Kwame",
    "Leo",
    "Marco",
    "Noah",
    "Oscar",
    "Peter",
]

VOCABULARIES: dict[str, tuple[Value, ...]] = {
    "names_female": tuple(NAMES_FEMALE),
    "names_male": tuple(NAMES_MALE),
    "names": tuple(sorted(NAMES_FEMALE + NAMES_MALE)),
    "fruits": (
        "apple",
        "banana",
        "orange",
        "pear",
        "plum",
        "mango",
        "kiwi",
        "lemon",
        "lime",
        "apricot",
        "pineapple",
        "melon",
        "coconut",
        "fig",
        "nectarine",
    ),
    # Hues that read with "light" and "dark" too (a template writes "light {c1} spools").
    "colors": ("red", "blue", "green", "yellow", "purple", "orange", "pink", "brown", "gray"),
    "sports": (
        "basketball",
        "soccer",
        "tennis",
        "volleyball",
        "baseball",
        "hockey",
        "badminton",
        "rugby",
        "cricket",
        "table tennis",
    ),
    "cities": (
        "Chicago",
        "Boston",
        "Seattle",
        "Denver",
        "Atlanta",
        "Toronto",
        "Miami",
        "Houston",
        "Dallas",
        "Phoenix",
        "San Diego",
        "New York",
    ),
    "weekdays": tuple(
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    ),
    "currencies_sym": ("$", "€", "£"),
    "weights_sm": ("ounce", "gram"),
    "weights_med": ("pound", "kilogram"),
    "length_lg": ("mile", "kilometer"),
    # Fractions written in words, read before "of the ..." or "as many".
    "fractions": tuple(
        Labelled(text, Fraction(n, d))
        for text, n, d in (
            ("half", 1, 2),
            ("a third", 1, 3),
            ("a quarter", 1, 4),
            ("a fifth", 1, 5),
            ("two-thirds", 2, 3),
            ("three-quarters", 3, 4),
            ("two-fifths", 2, 5),
            ("three-fifths", 3, 5),
        )
    ),
    "fraction_alph": tuple(
        Labelled(text, Fraction(n, d))
        for text, n, d in (
            ("half", 1, 2),
            ("a third", 1, 3),
            ("a quarter", 1, 4),
            ("a fifth", 1, 5),
            ("a tenth", 1, 10),
            ("two-thirds", 2, 3),
            ("three-quarters", 3, 4),
        )
    ),
    # Words and numerals mixed, as the templates' defaults are (half, two-thirds, 1/3, 1/16).
    "fraction_alnum": tuple(
        Labelled(text, Fraction(n, d))
        for text, n, d in (
            ("half", 1, 2),
            ("one-third", 1, 3),
            ("two-thirds", 2, 3),
            ("one-quarter", 1, 4),
            ("three-quarters", 3, 4),
            ("one-fifth", 1, 5),
            ("three-fifths", 3, 5),
            ("1/3", 1, 3),
            ("1/4", 1, 4),
            ("1/5", 1, 5),
            ("2/5", 2, 5),
            ("1/8", 1, 8),
            ("3/8", 3, 8),
            ("1/10", 1, 10),
        )
    ),
    # Numerals; the first four are the simple ones a template may slice off ([:4]).
    "fraction_nums": tuple(
        Labelled(f"{n}/{d}", Fraction(n, d))
        for n, d in ((1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (3, 4), (2, 5), (1, 8), (1, 10))
    ),
    "fraction_decimals": tuple(
        Fraction(text)
        for text in (["0.1", "0.2", "0.25", "0.3", "0.4", "0.5", "0.6", "0.75", "0.8"])
    ),
    # "twice as many", "three times the age"
    "multi_times": (
        Labelled("twice", 2),
        Labelled("three times", 3),
        Labelled("four times", 4),
        Labelled("five times", 5),
    ),
    "multiple_ice": (Labelled("twice", 2), Labelled("thrice", 3)),
    # "he picks triple the number"
    "multiple": (Labelled("double", 2), Labelled("triple", 3), Labelled("quadruple", 4)),
}
"""Every vocabulary by the name templates use; lists, so templates may add and slice them."""


def vocabulary(name: str) -> list[Value]:
    """A fresh copy of a vocabulary (templates may concatenate or repeat it)."""
    return list(VOCABULARIES[name])
