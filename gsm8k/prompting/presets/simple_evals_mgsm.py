"""openai/simple-evals' MGSM: a zero-shot instruction in the question's language.

simple-evals (``mgsm_eval.py``, commit ee3b031; the repository is no longer maintained) sends one
user message, the language's instruction with the question in its ``{input}`` field, and reads the
answer after the language's label: the text after the LAST occurrence of the label (``Answer``,
``Antwort``, ``答案``…), commas removed, its last ``\\d+\\.?\\d*`` (no minus sign), a final ``.``
dropped, then trailing zeros of a decimal dropped, compared as text with the gold. No label, no
answer. Some of its samplers add a system message of their own (``You are a helpful
assistant.``); that belongs to the model set-up, not to the prompt, and ``--system-message``
adds it here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

DATA_FILE = "simple_evals_mgsm.json"
_NUMBER = re.compile(r"\d+\.?\d*")


@dataclass(frozen=True)
class MgsmInstruction:
    """One language's instruction (with an ``{input}`` field) and answer label."""

    language: str
    instruction: str
    answer_prefix: str

    def prompt(self, question: str) -> str:
        return self.instruction.replace("{input}", question)


@cache
def instructions() -> dict[str, MgsmInstruction]:
    """Every language's instruction, as simple-evals publishes them."""
    text = resources.files("gsm8k.prompting.presets").joinpath("data", DATA_FILE).read_text("utf-8")
    return {
        language: MgsmInstruction(language, entry["instruction"], entry["answer_prefix"])
        for language, entry in json.loads(text).items()
    }


def instruction_for(language: str) -> MgsmInstruction:
    """The language's instruction.

    Raises:
        ValueError: simple-evals has no instruction for ``language``.
    """
    known = instructions()
    if language not in known:
        raise ValueError(
            f"language={language!r}: simple-evals' MGSM prompt exists for "
            f"{', '.join(sorted(known))}."
        )
    return known[language]


def parse_answer(response: str, answer_prefix: str) -> str:
    """simple-evals' ``parse_answer``: the last number after the last answer label."""
    if answer_prefix not in response:
        return ""
    after = response.split(answer_prefix)[-1].strip()
    numbers = _NUMBER.findall(after.replace(",", ""))
    return numbers[-1].rstrip(".") if numbers else ""


def score_mgsm(target: str, prediction: str) -> bool:
    """simple-evals' ``score_mgsm``: text equality after dropping a decimal's trailing zeros."""
    if "." in prediction:
        prediction = prediction.rstrip("0").rstrip(".")
    return target.replace(",", "") == prediction.replace(",", "")


@solver
def simple_evals_mgsm_prompt(instruction: MgsmInstruction) -> Solver:
    """Replace the sample's messages with simple-evals' MGSM prompt."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages = [ChatMessageUser(content=instruction.prompt(state.input_text))]
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def simple_evals_mgsm_match(answer_prefix: str) -> Scorer:
    """simple-evals' MGSM rule."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = parse_answer(state.output.completion, answer_prefix)
        correct = score_mgsm(target.text, answer)
        return Score(
            value=1.0 if correct else 0.0,
            answer=answer or None,
            explanation=(
                f"simple-evals' MGSM rule (label {answer_prefix!r}): {answer!r} "
                f"{'equals' if correct else 'differs from'} {target.text!r}."
            ),
        )

    return score
