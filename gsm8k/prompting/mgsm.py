"""MGSM prompts: each language's own exemplars, question label and answer phrase.

MGSM's train split holds 8 worked exemplars per language, written as the paper prompts them:
``Frage: <question>`` then ``Schritt-für-Schritt-Antwort: <steps> Die Antwort ist 11.``. The
evaluated question is written the same way, ending with the language's answer label, so the model
answers in the language and ends with its answer phrase. The labels are read from the exemplars
themselves (the text before the first colon), never typed in here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.data.splits import LoadedSplit
from gsm8k.prompting.fewshot import Placement

# The label and the space after it as the exemplars write them ("Frage: ", "問題：").
_LABEL = re.compile(r"^(?P<label>[^:：]{1,40}?\s?[:：][ \t]*)(?P<body>.*)$", re.DOTALL)
MGSM_EXEMPLARS = 8


@dataclass(frozen=True)
class MgsmPrompt:
    """A language's exemplars (question and answer texts, labels included) and its labels."""

    language: str
    exemplars: list[tuple[str, str]]
    question_label: str
    answer_label: str

    def question(self, text: str) -> str:
        """The evaluated question in the exemplars' format, ending with the answer label."""
        return f"{self.question_label}{text}\n{self.answer_label.rstrip()}"


def mgsm_prompt(rows: LoadedSplit, language: str, fewshot: int) -> MgsmPrompt:
    """The first ``fewshot`` exemplars in MGSM's published order, and the language's labels.

    Raises:
        ValueError: the split has fewer exemplars than asked for, or one lacks its labels.
    """
    ordered = sorted(
        enumerate(rows.records), key=lambda item: (_order(item[1].get("index")), item[0])
    )
    if not ordered:
        raise ValueError(f"{rows.location} has no MGSM exemplars for language {language!r}.")
    if fewshot > len(ordered):
        raise ValueError(
            f"fewshot={fewshot}: MGSM has {len(ordered)} exemplars for {language!r}; "
            f"pass fewshot={len(ordered)} or fewer."
        )
    exemplars: list[tuple[str, str]] = []
    labels: list[tuple[str, str]] = []
    for position, record in ordered:
        question, answer = record.get("question"), record.get("answer")
        where = (
            f"{rows.location}:{rows.line_numbers[position]}"
            if rows.line_numbers
            else f"{rows.location} row {position}"
        )
        if not isinstance(question, str) or not isinstance(answer, str):
            raise ValueError(f"{where}: an MGSM exemplar needs 'question' and 'answer' texts.")
        question_match, answer_match = _LABEL.match(question), _LABEL.match(answer)
        if question_match is None or answer_match is None:
            raise ValueError(
                f"{where}: an MGSM exemplar starts with its labels ('Question:', "
                "'Step-by-Step Answer:' in its language); this one does not."
            )
        labels.append((question_match["label"], answer_match["label"]))
        exemplars.append((question.strip(), answer.strip()))
    question_label, answer_label = labels[0]
    return MgsmPrompt(language, exemplars[:fewshot], question_label, answer_label)


def mgsm_messages(question: str, prompt: MgsmPrompt, placement: Placement) -> list[ChatMessage]:
    """Messages for one MGSM question; everything before the question is the same each time."""
    asked = prompt.question(question)
    shots = [f"{q}\n{a}" for q, a in prompt.exemplars]
    if not shots:
        return [ChatMessageUser(content=asked)]
    if placement == "system":
        return [ChatMessageSystem(content="\n\n".join(shots)), ChatMessageUser(content=asked)]
    if placement == "user":
        return [ChatMessageUser(content="\n\n".join([*shots, asked]))]
    messages: list[ChatMessage] = []
    for q, a in prompt.exemplars:
        messages += [ChatMessageUser(content=q), ChatMessageAssistant(content=a)]
    messages.append(ChatMessageUser(content=asked))
    return messages


def _order(value: object) -> int:
    return int(value) if isinstance(value, int) else 1_000_000


@solver
def mgsm_fewshot_prompt(prompt: MgsmPrompt, placement: Placement) -> Solver:
    """Replace the sample's messages with MGSM's prompt in the question's language."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages = mgsm_messages(state.input_text, prompt, placement)
        return state

    return solve
