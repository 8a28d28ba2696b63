"""How much of a reference text a model's continuation reproduces, measured on words.

The probe works with any provider, so it cannot use the model's own tokens: texts are compared as
lower-cased words and numbers (``1,450`` and ``3.5`` stay one token; punctuation and GSM8K's
``<<48/2=24>>`` calculator annotations are dropped), the same tokenization for every model.

* exact match: the continuation's words are the whole reference, word for word;
* ROUGE-L: F1 of the longest common subsequence of the reference and as many of the
  continuation's words (what follows the reference's length is not held against it);
* n-gram accuracy (Xu et al. 2024, "Benchmarking Benchmark Leakage in Large Language Models",
  arXiv 2404.18824): whether the continuation's first ``n`` words are the reference's first ``n``.

Chat models often open with a few words of their own ("Sure, here it is:") or repeat the end of
the text they were shown: each measure takes the best of the continuation read from its start
and from each of its next ``PREAMBLE_WORDS`` words, and a repeat of the shown text is dropped
first. The same tolerance applies to test, fresh and train texts alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NGRAM = 5
"""Words predicted for n-gram accuracy (BenBench predicts 5 tokens at each starting point)."""
PREAMBLE_WORDS = 8
"""Words a continuation may open with before the text itself starts."""

_ANNOTATION = re.compile(r"<<[^<>]*>>")
_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")


def words(text: str) -> list[str]:
    """The text as lower-cased words and numbers, calculator annotations and punctuation gone."""
    return _WORD.findall(_ANNOTATION.sub(" ", text).lower())


@dataclass(frozen=True)
class Overlap:
    exact: float
    rouge_l: float
    ngram: float


def overlap(continuation: str, reference: str, shown: str = "", n: int = NGRAM) -> Overlap:
    """How much of ``reference`` the ``continuation`` reproduces.

    A chat model often repeats the text it was shown before continuing it: when the continuation
    starts with the last words of ``shown`` (up to the whole of it), they are dropped first.
    An empty reference is reproduced by anything (no probe has one: see ``probe.cut``).
    """
    reference_words = words(reference)
    written = _drop_echo(words(continuation), words(shown))
    if not reference_words:
        return Overlap(1.0, 1.0, 1.0)
    size, gram = len(reference_words), min(n, len(reference_words))
    starts = range(min(PREAMBLE_WORDS, max(0, len(written) - 1)) + 1)
    return Overlap(
        exact=float(any(written[s : s + size] == reference_words for s in starts)),
        rouge_l=max(rouge_l(written[s : s + size], reference_words) for s in starts),
        ngram=float(any(written[s : s + gram] == reference_words[:gram] for s in starts)),
    )


def rouge_l(candidate: list[str], reference: list[str]) -> float:
    """ROUGE-L F1 (recall and precision weighted alike) of two word lists."""
    common = lcs_length(candidate, reference)
    if common == 0:
        return 0.0
    recall, precision = common / len(reference), common / len(candidate)
    return 2 * recall * precision / (recall + precision)


def lcs_length(first: list[str], second: list[str]) -> int:
    """Length of the longest common subsequence (dynamic programming, one row kept)."""
    previous = [0] * (len(second) + 1)
    for word in first:
        current = [0]
        for j, other in enumerate(second):
            current.append(previous[j] + 1 if word == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def _drop_echo(written: list[str], shown: list[str]) -> list[str]:
    """``written`` without a repeat of ``shown``'s ending (the longest one, at least 3 words or
    all of ``shown``), which a model writes when it restates the text before continuing."""
    for size in range(len(shown), 0, -1):
        if size < min(3, len(shown)):
            break
        if written[:size] == shown[-size:]:
            return written[size:]
    return written
