"""Reading the final answer out of a model's completion and grading it exactly.

The API, usable without the task, Inspect's solvers or the sandbox::

    from gsm8k.grading import grade

    verdict = grade("... so she makes 9 * 2 = 18 dollars.\\nANSWER: 18", "18")
    verdict.correct, verdict.answer, verdict.rule  # (True, "18", "answer_line")

Modules, in the order a completion goes through them: ``glyphs`` (characters inside and around
numbers), ``sections`` (reasoning blocks, answer sections, invented follow-ups) with ``endings``
(cuts, padding, loops), ``extract`` (the extraction rules in order, with ``rules`` for the
explicit marks, ``marks`` for choosing among several, ``phrases``, ``fallback``, ``reader`` and
``refusals`` for what a stated value is, ``stated`` for the part of a statement that states it,
``units`` for the unit it is read in, ``question`` for the sample's question and ``words`` for
answers in words), ``delivered`` (what an answer statement delivers, given what follows it) and
``delivery`` (loops and cuts after it), ``numbers`` (reading and comparing numbers), ``golds``
(GSM-Plus's ``NONE``, fraction and rounded golds), ``verdict``
(the comparison). ``reasons`` names abnormal scores,
``scorer`` is the Inspect scorer (``gsm8k_grader``) and ``cli`` the ``gsm8k-grade`` command;
``imports`` reads other harnesses' results (lm-eval samples files, Inspect logs) for it.
"""

from gsm8k.grading.extract import Extraction, extract_answer
from gsm8k.grading.numbers import normalize, parse_gold, parse_number, same_number
from gsm8k.grading.verdict import Graded, Verdict, grade, grade_completion

__all__ = [
    "Extraction",
    "Graded",
    "Verdict",
    "extract_answer",
    "grade",
    "grade_completion",
    "normalize",
    "parse_gold",
    "parse_number",
    "same_number",
]
