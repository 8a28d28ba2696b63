"""A completion recorded by another harness, with the verdict that harness gave it.

Readers (:mod:`~gsm8k.grading.imports.lm_eval`, :mod:`~gsm8k.grading.imports.inspect_log`) turn a
file into :class:`Imported`: one :class:`ImportedRow` per graded completion, or an
:class:`ImportProblem` for a record that cannot be graded (it is reported, the rest go on).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gsm8k.grading.numbers import normalize, parse_gold

GOLD_DELIMITER = "####"
"""What separates GSM8K's worked solution from its final answer (lm-eval keeps the whole text)."""


@dataclass(frozen=True)
class ImportedRow:
    """One completion and the original harness's verdict on it.

    Attributes:
        place: Where in the file it is (``line 3``, ``sample gsm8k_4b7e54d8 epoch 1``).
        id: The sample's id in that harness (lm-eval's ``doc_id``, Inspect's sample id).
        epoch: Which of a sample's repeated completions this is (1 when there is one).
        completion: The model's text, as the harness recorded it before any extraction.
        target: The gold final answer (GSM8K's text after ``####``).
        question: The question asked, when the file records it.
        truncated: Whether generation stopped at the token limit (when the file says so).
        original_correct: The harness's own verdict.
        original_answer: What the harness extracted, when it records it.
    """

    place: str
    id: str
    epoch: int
    completion: str
    target: str
    question: str | None
    truncated: bool
    original_correct: bool
    original_answer: str | None


@dataclass(frozen=True)
class ImportProblem:
    """A record that cannot be graded, and why (one line a user can act on)."""

    place: str
    id: str | None
    error: str


@dataclass
class Imported:
    """What a reader found in one file.

    Attributes:
        harness: Which harness wrote the file (``lm-eval``, ``inspect``).
        original: The original verdicts' grader (``lm-eval gsm8k_local flexible-extract``,
            ``inspect_evals/gsm8k match``).
        choices: The other graders the file holds verdicts of (filters, scorers), for
            ``--original``.
    """

    harness: str
    original: str
    rows: list[ImportedRow] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)

    def add(self, row: ImportedRow | ImportProblem) -> None:
        if isinstance(row, ImportProblem):
            self.problems.append(row)
        else:
            self.rows.append(row)


def final_answer(target: str) -> str:
    """The gold final answer from a final answer or a whole GSM8K solution: canonical when it is
    a number (``1,080`` becomes ``1080``); other golds (GSM-Plus's ``NONE``, ``2/5``) as written,
    for the grader to read or refuse."""
    final = target.rsplit(GOLD_DELIMITER, 1)[-1].strip()
    try:
        return normalize(parse_gold(final))
    except ValueError:
        return final
