"""lm-evaluation-harness 0.4.13's GSM8K tasks: ``gsm8k``, ``gsm8k_cot``, ``gsm8k_cot_zeroshot``.

The prompt is lm-eval's few-shot context: each exemplar is its ``doc_to_text``, the target
delimiter ``" "``, its ``doc_to_target`` and the few-shot delimiter ``"\\n\\n"``; the evaluated
question's ``doc_to_text`` ends it. As chat messages (``--apply_chat_template``), lm-eval 0.4.13
makes each exemplar a user/assistant pair (``--fewshot_as_multiturn``, on by default with a chat
template: placement ``turns``) or, with ``--fewshot_as_multiturn false``, puts that whole text in
one user message (placement ``user``, also the text a base model reads without a chat template).

``gsm8k`` draws exemplars from the train split with one ``random.Random(seed)`` (lm-eval's
``--fewshot_random_seed``, default 1234) shared by all items: requests are built in test order, so
item k gets the (k+1)-th ``sample(train, n)``. ``gsm8k_cot`` shows the first n of Wei et al.'s
eight (its ``first_n`` sampler).

Scoring: lm-eval's two filters, ``strict-match`` and ``flexible-extract`` (a regex, then the first
response), each followed by ``exact_match`` with the task's ``regexes_to_ignore`` and
``ignore_case``, applied to the completion as received. The task's ``until`` strings go to the
model as stop sequences, with the ``max_tokens`` (256) and ``seed`` (1234) lm-eval's API models
send in every request and temperature 0 (the run's generation defaults, which ``--stop-seqs``,
``--max-tokens``, ``--seed`` and ``--temperature`` override), so a completion ends where lm-eval's
would; lm-eval's chat backends do not cut the text again.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.prompting.fewshot import Placement
from gsm8k.prompting.presets.lookup import Lookup
from gsm8k.prompting.presets.registry import LM_EVAL_GENERATION

FEWSHOT_DELIMITER = "\n\n"
TARGET_DELIMITER = " "
DEFAULT_FEWSHOT_SEED = 1234
"""lm-eval's default ``--fewshot_random_seed``."""
FLEXIBLE_PATTERN = r"(-?[$0-9.,]{2,})|(-?[0-9]+)"
HASH_STRICT_PATTERN = r"#### (\-?[0-9\.\,]+)"
ANSWER_IS_STRICT_PATTERN = r"The answer is (\-?[0-9\.\,]+)."
HASH_PREFIX = "#### "
HASH_PREFIX_PATTERN = "(?s).*#### "
IGNORED_PATTERNS = (",", r"\$", HASH_PREFIX_PATTERN, r"\.$")
"""``exact_match``'s ``regexes_to_ignore``, applied in this order to completion and gold."""
FALLBACK = "[invalid]"
"""What lm-eval's regex filter returns when nothing matches."""
WEI_EXEMPLARS_FILE = "wei2022_gsm8k_cot_exemplars.jsonl"


@dataclass(frozen=True)
class LmEvalTask:
    """The parts of one lm-eval GSM8K task that shape its prompt and its score."""

    task: str
    doc_to_text: str
    """The question's text, with a ``{question}`` field."""
    strict_pattern: str
    until: tuple[str, ...]

    def text(self, question: str) -> str:
        return self.doc_to_text.replace("{question}", question)

    def _repr_params_(self) -> str:
        """How logs name it (Inspect records solver and scorer arguments)."""
        return self.task

    def config(self) -> GenerateConfig:
        """What lm-eval sends with each request: greedy, stopping at ``until``, its API models'
        ``max_tokens`` and ``seed``."""
        return LM_EVAL_GENERATION.merge(GenerateConfig(stop_seqs=list(self.until)))


GSM8K = LmEvalTask(
    "gsm8k",
    "Question: {question}\nAnswer:",
    HASH_STRICT_PATTERN,
    ("Question:", "</s>", "<|im_end|>"),
)
GSM8K_COT = LmEvalTask(
    "gsm8k_cot", "Q: {question}\nA:", ANSWER_IS_STRICT_PATTERN, ("Q:", "</s>", "<|im_end|>")
)
GSM8K_COT_ZEROSHOT = LmEvalTask(
    "gsm8k_cot_zeroshot",
    "Q: {question}\nA: Let's think step by step.",
    ANSWER_IS_STRICT_PATTERN,
    ("Q:", "</s>", "<|im_end|>"),
)


def wei_exemplars() -> list[tuple[str, str]]:
    """Wei et al. 2022's eight GSM8K exemplars as (question, worked answer), in their order."""
    text = (
        resources.files("gsm8k.prompting.presets")
        .joinpath("data", WEI_EXEMPLARS_FILE)
        .read_text("utf-8")
    )
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [(str(row["question"]), str(row["target"])) for row in rows]


def fewshot_draws(seed: int, population: int, shots: int, items: int) -> list[list[int]]:
    """Train indices lm-eval's default sampler shows to each of the first ``items`` items.

    ``random.sample`` picks positions from the population's length alone, so sampling
    ``range(population)`` picks the same records lm-eval's ``sample(train_docs, shots)`` does.
    """
    generator = random.Random(seed)
    return [generator.sample(range(population), shots) for _ in range(items)]


def context(task: LmEvalTask, question: str, exemplars: Sequence[tuple[str, str]]) -> str:
    """lm-eval's plain-text context for one question."""
    shots = "".join(f"{task.text(q)}{TARGET_DELIMITER}{a}{FEWSHOT_DELIMITER}" for q, a in exemplars)
    return shots + task.text(question)


def messages(
    task: LmEvalTask,
    question: str,
    exemplars: Sequence[tuple[str, str]],
    placement: Placement,
) -> list[ChatMessage]:
    """The chat messages lm-eval sends for one question (``user`` or ``turns``)."""
    if placement == "turns":
        turns: list[ChatMessage] = []
        for q, a in exemplars:
            turns += [ChatMessageUser(content=task.text(q)), ChatMessageAssistant(content=a)]
        return [*turns, ChatMessageUser(content=task.text(question))]
    return [ChatMessageUser(content=context(task, question, exemplars))]


@solver
def lm_eval_prompt(
    task: LmEvalTask,
    exemplars_by_id: Lookup[list[tuple[str, str]]],
    placement: Placement,
) -> Solver:
    """Replace the sample's messages with lm-eval's prompt for its question."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        shots = exemplars_by_id[state.sample_id]
        state.messages = messages(task, state.input_text, shots, placement)
        return state

    return solve


def train_exemplars(records: Sequence[Mapping[str, object]]) -> list[tuple[str, str]]:
    """Train records as lm-eval's ``gsm8k`` shows them: the question and the whole answer."""
    return [(str(record["question"]), str(record["answer"])) for record in records]


def regex_filter(completion: str, pattern: str, group_select: int = 0) -> str:
    """lm-eval's ``regex`` filter: the selected ``findall`` match (the first non-empty group
    of a tuple), stripped; ``[invalid]`` when nothing matches."""
    found = re.findall(pattern, completion)
    if not found:
        return FALLBACK
    match = found[group_select]
    if isinstance(match, tuple):
        groups = [group for group in match if group]
        match = groups[0] if groups else FALLBACK
    return str(match).strip()


def exact_match(prediction: str, reference: str) -> bool:
    """lm-eval's ``exact_match`` with the GSM8K tasks' options."""
    for pattern in IGNORED_PATTERNS:
        prediction = _ignore(pattern, prediction)
        reference = _ignore(pattern, reference)
    return prediction.lower() == reference.lower()


def _ignore(pattern: str, text: str) -> str:
    """``re.sub(pattern, "", text)``, in linear time.

    ``(?s).*#### `` removes everything up to the last ``#### `` (the greedy ``.*`` reaches the
    last one, and nothing after it matches again); run as a regex on text without ``#### `` it
    retries from every position, quadratic in a flood of digits a model may write.
    """
    if pattern == HASH_PREFIX_PATTERN:
        cut = text.rfind(HASH_PREFIX)
        return text if cut < 0 else text[cut + len(HASH_PREFIX) :]
    return re.sub(pattern, "", text)


def strict_answer(task: LmEvalTask, completion: str) -> str:
    return regex_filter(completion, task.strict_pattern)


def flexible_answer(completion: str) -> str:
    return regex_filter(completion, FLEXIBLE_PATTERN, -1)


@scorer(metrics=[accuracy(), stderr()])
def lm_eval_strict_match(task: LmEvalTask = GSM8K) -> Scorer:
    """lm-eval's ``strict-match`` score: the answer in the task's own format."""

    async def score(state: TaskState, target: Target) -> Score:
        return _score(strict_answer(task, state.output.completion), target.text, "strict-match")

    return score


@scorer(metrics=[accuracy(), stderr()])
def lm_eval_flexible_extract(task: LmEvalTask = GSM8K) -> Scorer:
    """lm-eval's ``flexible-extract`` score: the last number-like run in the completion."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = flexible_answer(state.output.completion)
        return _score(answer, target.text, "flexible-extract")

    return score


def _score(answer: str, target: str, rule: str) -> Score:
    correct = exact_match(answer, target)
    return Score(
        value=1.0 if correct else 0.0,
        answer=None if answer == FALLBACK else answer,
        explanation=(
            f"lm-eval {rule}: {answer!r} {'matches' if correct else 'does not match'} "
            f"{target!r} after exact_match's normalization."
        ),
    )
