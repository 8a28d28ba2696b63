"""inspect_evals 0.26.0's ``gsm8k``: train exemplars in a system message, its own user prompt.

The exemplars are the first n train records after ``datasets``' ``shuffle(seed=...)`` (the
permutation :func:`gsm8k.prompting.fewshot.seeded_order` computes), each written
``<question>\\n\\nReasoning:\\n<solution>\\n\\nANSWER: <final>`` with the solution as GSM8K writes
it (calculator annotations kept) and joined by a blank line. Inspect's ``system_message`` and
``prompt_template`` solvers fill both templates with the sample's metadata, which in inspect_evals
holds one field, ``reasoning``; the same substitution is applied here so a ``{reasoning}`` in
an exemplar would come out as it does there. Scoring is Inspect's ``match(numeric=True)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai._util.format import format_template
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.prompting.fewshot import seeded_order

DELIMITER = "####"
# inspect_evals' MATH_PROMPT_TEMPLATE, as that package writes it.
PROMPT_TEMPLATE = (
    "Solve the following math problem step by step. The last line of your response should be of "
    'the form "ANSWER: $ANSWER" (without quotes) where $ANSWER is the answer to the problem.\n\n'
    "{prompt}\n\n"
    'Remember to put your answer on its own line at the end in the form "ANSWER: $ANSWER" '
    "(without quotes) where $ANSWER is the answer to the problem, and you do not need to use a "
    "\\boxed command.\n\n"
    "Reasoning:"
)


def exemplar_text(record: Mapping[str, object]) -> str:
    """One train record as inspect_evals' ``sample_to_fewshot`` writes it."""
    question, answer = str(record["question"]), str(record["answer"])
    parts = answer.split(DELIMITER)
    final = parts.pop().strip()
    solution = DELIMITER.join(parts).strip()
    return f"{question}\n\nReasoning:\n{solution}\n\nANSWER: {final}"


def chosen_indices(population: int, shots: int, seed: int) -> list[int]:
    """The train records shown: the first ``shots`` after ``datasets``' ``shuffle(seed)``."""
    return seeded_order(population, seed)[:shots]


def exemplar_block(train: Sequence[Mapping[str, object]], chosen: Sequence[int]) -> str:
    """The system message's text before templating: the chosen records, a blank line apart."""
    return "\n\n".join(exemplar_text(train[index]) for index in chosen)


def messages(question: str, solution: str, exemplars: str) -> list[ChatMessage]:
    """The messages inspect_evals sends for one question whose worked solution is ``solution``
    (its sample metadata ``reasoning``, which both templates may reference)."""
    fields = {"reasoning": solution}
    user = ChatMessageUser(content=format_template(PROMPT_TEMPLATE, {"prompt": question} | fields))
    if not exemplars:
        return [user]
    return [ChatMessageSystem(content=format_template(exemplars, fields)), user]


@solver
def inspect_evals_prompt(exemplars: str) -> Solver:
    """Replace the sample's messages with inspect_evals' prompt for its question."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        solution = str((state.metadata or {}).get("solution", ""))
        state.messages = messages(state.input_text, solution, exemplars)
        return state

    return solve
