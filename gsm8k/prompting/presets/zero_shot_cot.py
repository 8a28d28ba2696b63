"""Zero-shot chain of thought as Kojima et al. 2022 ran it ("Let's think step by step.").

Kojima et al., "Large Language Models are Zero-Shot Reasoners", https://arxiv.org/abs/2205.11916;
code: kojima-takeshi188/zero_shot_cot, ``main.py`` and ``utils.py`` (method ``zero_shot_cot``).
Two generations per question, both at temperature 0:

1. reasoning: ``Q: <question>\\nA: Let's think step by step.`` (at most 128 tokens there);
2. answer extraction: that prompt, the reasoning, then ``" " + "\\nTherefore, the answer (arabic
   numerals) is"`` (at most 32 tokens).

Its answer cleansing reads the extraction output: commas removed, the FIRST ``-?\\d+\\.?\\d*``, a
final ``.`` dropped, compared as text with the gold as GSM8K writes it (``#### 1,450,000`` gives
``1,450,000``, which a comma-free prediction never equals: the original scores those items wrong
whatever the model says, and so does this rule).

lm-eval's ``gsm8k_cot_zeroshot`` sends the same first prompt but makes one generation and reads
"The answer is N." (its own preset, ``lm-eval-gsm8k-cot-zeroshot``).
"""

from __future__ import annotations

import re

from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.prompting.presets.lookup import Lookup
from gsm8k.prompting.presets.registry import KOJIMA_REASONING_MAX_TOKENS

COT_TRIGGER = "Let's think step by step."
ANSWER_TRIGGER = "\nTherefore, the answer (arabic numerals) is"
ANSWER_MAX_TOKENS = 32
"""The original's ``max_length_direct`` for the answer-extraction step."""
REASONING_MAX_TOKENS = KOJIMA_REASONING_MAX_TOKENS
"""The original's ``max_length_cot``: the preset's ``max_tokens`` default (``--max-tokens``
overrides it for the reasoning step)."""
_NUMBER = re.compile(r"-?\d+\.?\d*")
GOLD_DELIMITER = "#### "


def reasoning_prompt(question: str) -> str:
    return f"Q: {question}\nA: {COT_TRIGGER}"


def answer_prompt(question: str, reasoning: str) -> str:
    """The second prompt: the first, the model's reasoning, and the answer trigger."""
    return f"{reasoning_prompt(question)}{reasoning} {ANSWER_TRIGGER}"


def cleanse(prediction: str) -> str:
    """The original's ``answer_cleansing`` for GSM8K in ``zero_shot_cot``."""
    numbers = _NUMBER.findall(prediction.replace(",", ""))
    answer = numbers[0] if numbers else ""
    return answer[:-1] if answer.endswith(".") else answer


def gold_as_written(answer: str) -> str:
    """The gold the original compares with: the text after ``#### `` of the answer, stripped."""
    return answer.split(GOLD_DELIMITER)[-1].strip()


@solver
def zero_shot_cot_two_stage() -> Solver:
    """Reason, then ask for the answer with the reasoning in the prompt (two generations)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        question = state.input_text
        state.messages = [ChatMessageUser(content=reasoning_prompt(question))]
        state = await generate(state)
        reasoning = state.output.completion
        state.messages = [ChatMessageUser(content=answer_prompt(question, reasoning))]
        return await generate(state, max_tokens=ANSWER_MAX_TOKENS)

    return solve


@scorer(metrics=[accuracy(), stderr()])
def kojima_match(golds: Lookup[str]) -> Scorer:
    """Kojima et al.'s rule on the answer-extraction output.

    Args:
        golds: Each sample's gold as the dataset writes it, by sample id.
    """

    async def score(state: TaskState, target: Target) -> Score:
        answer = cleanse(state.output.completion)
        gold = golds.get(state.sample_id, target.text)
        correct = answer == gold
        return Score(
            value=1.0 if correct else 0.0,
            answer=answer or None,
            explanation=(
                f"Kojima et al.'s rule: {answer!r} {'equals' if correct else 'differs from'} "
                f"the gold as written, {gold!r}."
            ),
        )

    return score
