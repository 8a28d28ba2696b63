"""The language of a text, as far as its numbers depend on it (docs/grading.md, "Number
formats"): German, Spanish, Portuguese and Italian group thousands with dots (`57.500` is 57500),
English writes a decimal point (`57.500` is 57.5).
"""

from __future__ import annotations

import re

# Evidence that the text is written in a language that groups thousands with dots (German,
# Spanish, Portuguese, Italian): their own function words, none of them an English word.
_DOT_LANGUAGE_WORDS = re.compile(
    r"(?<![^\W\d_])(?:und|ist|der|das|nicht|mit|beträgt|sind|für|jede[rsn]?|insgesamt"
    r"|el|los|las|que|por|con|una|del|y|es|cada|uma|não|são|é|em|dos|das|com|ela|ele|il|della"
    r"|sono|ogni|anche)(?![^\W\d_])",
    re.IGNORECASE,
)
_ENGLISH_WORDS = re.compile(r"(?<![^\W\d_])(?:the|and|is|of|are|has)(?![^\W\d_])", re.I)
_LANGUAGE_LOOK = 4_000  # characters read to tell the language: its opening says it
_LANGUAGE_WORDS = 3  # distinct words of the language needed


def dot_language(text: str) -> bool:
    """Whether ``text`` is written in a language that groups thousands with dots: at least
    :data:`_LANGUAGE_WORDS` distinct function words of German, Spanish, Portuguese or Italian,
    and more of them than English ones (a word such as `es` alone says nothing)."""
    opening = text[:_LANGUAGE_LOOK]
    own = [word.lower() for word in _DOT_LANGUAGE_WORDS.findall(opening)]
    if len(set(own)) < _LANGUAGE_WORDS:
        return False
    return len(own) > len(_ENGLISH_WORDS.findall(opening))
