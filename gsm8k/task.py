"""GSM8K: grade-school math word problems, graded on the exact final number.

Cobbe et al. 2021, "Training Verifiers to Solve Math Word Problems", https://arxiv.org/abs/2110.14168.
1,319 test problems; the model reasons step by step and ends with a line ``ANSWER: <number>``.

    inspect eval gsm8k/task.py -T fewshot=5 --model openai/gpt-4o-mini
    inspect eval gsm8k/task.py -T dataset=gsm8k-platinum --model anthropic/claude-sonnet-4-5
    GSM8K_DATA_DIR=path/to/grade_school_math/data inspect eval gsm8k/task.py --limit 20 --model ...
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Scorer, match, mean_score, pass_at
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, use_tools

from gsm8k.data import (
    HUB_DATASETS,
    LoadedSplit,
    default_source,
    is_hub_source,
    load_split,
    resolve_path,
)
from gsm8k.execution.programs import program_from_solution
from gsm8k.execution.runner import Limits
from gsm8k.execution.scorer import pal_grader
from gsm8k.execution.tools import calculator, python_runner
from gsm8k.fewshot import (
    PLACEMENTS,
    Exemplar,
    Placement,
    build_messages,
    chain_of_thought_response,
    program_response,
    seeded_order,
    strip_annotations,
)
from gsm8k.numbers import normalize, parse_gold
from gsm8k.reducers import majority_answer
from gsm8k.scorer import gsm8k_grader

TASK_VERSION = "1.1.0"
DEFAULT_FEWSHOT = 5
DEFAULT_FEWSHOT_SEED = 42
DEFAULT_PLACEMENT: Placement = "user"
EVALUATION_SPLIT = "test"
EXEMPLAR_SPLIT = "train"
GOLD_DELIMITER = "####"

Mode = Literal["cot", "pal"]
Tools = Literal["none", "calculator", "python"]

PROMPT_TEMPLATE = (
    "Solve the following math problem step by step. Show your reasoning, then write the final "
    'answer on its own last line as "ANSWER: $NUMBER", where $NUMBER is the number alone, '
    "without units.\n\n"
    "Question: {question}"
)
PAL_PROMPT_TEMPLATE = (
    "Solve the following math problem by writing a Python program. Define a function "
    "solution() that takes no arguments and returns the final answer as a number. Use only the "
    "standard library, and put the whole program in one ```python code block.\n\n"
    "Question: {question}"
)
TOOL_HINTS = {
    "calculator": "You may use the calculator tool for arithmetic.",
    "python": "You may use the python_runner tool to run short Python programs.",
}
EXAMPLES_HEADING = "Here are some solved examples of the kind of problem you will be given."
MAX_TOOL_MESSAGES = 40
"""Messages (calls and results) a tool-using sample may add before it is stopped."""


@task
def gsm8k(
    fewshot: int = DEFAULT_FEWSHOT,
    fewshot_seed: int = DEFAULT_FEWSHOT_SEED,
    dataset: str | None = None,
    split: str = EVALUATION_SPLIT,
    fewshot_dataset: str | None = None,
    placement: Placement = DEFAULT_PLACEMENT,
    calculator_annotations: bool = False,
    votes: int = 1,
    mode: Mode = "cot",
    tools: Tools = "none",
    sandbox: str | None = None,
) -> Task:
    """GSM8K with a seeded few-shot prompt and exact grading.

    Args:
        fewshot: Number of worked train examples shown before each question (0: zero-shot
            chain of thought).
        fewshot_seed: Seed that picks the examples; the same seed always picks the same ones.
        dataset: ``gsm8k``, ``gsm8k-socratic`` or ``gsm8k-platinum`` from the Hugging Face hub, or a
            local path: a directory with ``test.jsonl``/``train.jsonl`` or a single ``.jsonl`` file.
            Defaults to ``$GSM8K_DATA_DIR`` when set, else ``gsm8k``.
        split: Split to evaluate (``test``; for a directory, any ``<split>.jsonl`` in it).
        fewshot_dataset: Where the train examples come from. Defaults to ``dataset`` when it has
            a train split, else to the default dataset.
        placement: Where the examples go: ``user`` (before the question, in the user message),
            ``system`` (a system message), or ``turns`` (alternating user/assistant messages).
        calculator_annotations: Keep GSM8K's ``<<48/2=24>>`` calculator annotations in the
            examples' solutions (they are removed by default).
        votes: Completions per question. Above 1, the log reports mean accuracy, self-consistency
            (majority vote on the extracted answer, maj@votes) and pass@votes.
        mode: ``cot`` (reason in text, end with ``ANSWER:``) or ``pal`` (write a Python
            ``solution()``; the program is run and its result graded).
        tools: ``none``, ``calculator`` (safe arithmetic) or ``python`` (a limited Python runner),
            callable by the model while it reasons (``cot`` mode only).
        sandbox: Where model-written code runs: unset for a limited local process, or an Inspect
            sandbox type such as ``docker``.
    """
    _validate_parameters(fewshot, placement, votes, mode, tools)
    source = dataset or default_source()
    evaluation = load_split(source, split, parameter="dataset")
    samples = records_to_samples(evaluation)
    exemplars, exemplar_split = load_exemplars(
        fewshot,
        fewshot_seed,
        fewshot_dataset or _exemplar_source(source),
        calculator_annotations,
        evaluation,
        mode,
    )
    in_sandbox = sandbox is not None
    template = PAL_PROMPT_TEMPLATE if mode == "pal" else PROMPT_TEMPLATE
    solvers: list[Solver] = []
    if tools != "none":
        template = template.replace("\n\nQuestion:", f" {TOOL_HINTS[tools]}\n\nQuestion:")
        tool = calculator() if tools == "calculator" else python_runner(Limits(), in_sandbox)
        solvers.append(use_tools([tool]))
    solvers += [fewshot_prompt(exemplars, placement, template), generate()]
    scorers: list[Scorer] = (
        [pal_grader(Limits(), in_sandbox)]
        if mode == "pal"
        # The exact grader first: Inspect shows the first scorer's accuracy as the run's headline.
        else [gsm8k_grader(), match(numeric=True)]
    )
    return Task(
        dataset=MemoryDataset(
            samples, name=f"gsm8k-{evaluation.split}", location=evaluation.location
        ),
        solver=solvers,
        scorer=scorers,
        epochs=Epochs(votes, [mean_score(), majority_answer(), pass_at(votes)])
        if votes > 1
        else None,
        sandbox=sandbox,
        message_limit=None if tools == "none" else 2 * fewshot + 2 + MAX_TOOL_MESSAGES,
        version=TASK_VERSION,
        metadata={
            "dataset": evaluation.location,
            "dataset_revision": evaluation.revision,
            "dataset_sha256": evaluation.sha256,
            "split": evaluation.split,
            "fewshot": fewshot,
            "fewshot_seed": fewshot_seed,
            "fewshot_dataset": exemplar_split.location if exemplar_split else None,
            "fewshot_revision": exemplar_split.revision if exemplar_split else None,
            "placement": placement,
            "calculator_annotations": calculator_annotations,
            "mode": mode,
            "tools": tools,
            "sandbox": sandbox,
        },
    )


def record_to_sample(record: dict[str, Any], index: int, split: str = EVALUATION_SPLIT) -> Sample:
    """One GSM8K record (``question``, ``answer`` ending in ``#### N``) as an Inspect sample.

    The target is the final number with commas removed; the worked solution is kept in metadata.

    Raises:
        ValueError: naming the record when the question is empty, the answer has no ``####``
            line, or the final answer is not a number.
    """
    question, answer = record.get("question"), record.get("answer")
    where = f"record {index}"
    if not isinstance(question, str) or not question.strip():
        raise ValueError(f"{where}: 'question' is missing or empty.")
    if not isinstance(answer, str) or GOLD_DELIMITER not in answer:
        raise ValueError(f"{where}: 'answer' has no '{GOLD_DELIMITER} <number>' final line.")
    solution, final = answer.rsplit(GOLD_DELIMITER, 1)
    try:
        target = normalize(parse_gold(final))
    except ValueError as error:
        raise ValueError(f"{where}: final answer {final.strip()!r} is not a number.") from error
    return Sample(
        # The test index itself: ids sort numerically in `inspect view` and pair GSM8K samples
        # with variants of the same question (socratic, Platinum, MGSM) across logs.
        id=index,
        input=question.strip(),
        target=target,
        metadata={"solution": solution.strip(), "index": index, "split": split},
    )


def records_to_samples(loaded: LoadedSplit) -> list[Sample]:
    """All records of a split as samples; a bad record is an error naming the file and record."""
    samples = []
    for index, record in enumerate(loaded.records):
        try:
            samples.append(record_to_sample(record, index, loaded.split))
        except ValueError as error:
            raise ValueError(f"{_where(loaded, index)}: {error}") from error
    return samples


def _where(loaded: LoadedSplit, index: int) -> str:
    """The file (and line, for local files) a record came from."""
    if loaded.line_numbers is None:
        return loaded.location
    return f"{loaded.location}:{loaded.line_numbers[index]}"


@solver
def fewshot_prompt(
    exemplars: list[Exemplar],
    placement: Placement = DEFAULT_PLACEMENT,
    template: str = PROMPT_TEMPLATE,
) -> Solver:
    """Replace the sample's messages with the few-shot prompt for its question."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages = build_messages(
            state.input_text, exemplars, placement, template, EXAMPLES_HEADING
        )
        return state

    return solve


def load_exemplars(
    fewshot: int, seed: int, source: str, annotations: bool, evaluation: LoadedSplit, mode: str
) -> tuple[list[Exemplar], LoadedSplit | None]:
    """The first ``fewshot`` train records in seeded order as worked examples.

    For ``pal`` the response is a program built from the record's calculator annotations, and
    records whose annotations do not reproduce the gold answer are passed over.

    Raises:
        ValueError: when ``fewshot`` exceeds what the train split can supply, or an exemplar
            question also appears in the evaluation set.
    """
    if fewshot == 0:
        return [], None
    train = load_split(source, EXEMPLAR_SPLIT, parameter="fewshot_dataset")
    if fewshot > len(train.records):
        raise ValueError(
            f"fewshot={fewshot}: the train split at {train.location} has only "
            f"{len(train.records)} records; pass fewshot={len(train.records)} or fewer."
        )
    evaluation_questions = {
        str(record.get("question", "")).strip() for record in evaluation.records
    }
    exemplars: list[Exemplar] = []
    for index in seeded_order(len(train.records), seed):
        if len(exemplars) == fewshot:
            break
        try:
            sample = record_to_sample(train.records[index], index, EXEMPLAR_SPLIT)
        except ValueError as error:
            raise ValueError(f"{_where(train, index)}: {error}") from error
        if sample.input in evaluation_questions:
            raise ValueError(
                f"fewshot_dataset: train record {index} of {train.location} is also in the "
                f"evaluation set {evaluation.location}; exemplars must come from a separate split."
            )
        solution, answer = (sample.metadata or {})["solution"], str(sample.target)
        if mode == "pal":
            program = program_from_solution(solution, answer)
            if program is not None:
                exemplars.append(Exemplar(str(sample.input), program_response(program)))
            continue
        steps = solution if annotations else strip_annotations(solution)
        exemplars.append(Exemplar(str(sample.input), chain_of_thought_response(steps, answer)))
    if len(exemplars) < fewshot:
        raise ValueError(
            f"fewshot={fewshot}: only {len(exemplars)} train records of {train.location} have "
            "calculator annotations that reproduce their answer as a program; pass fewer."
        )
    return exemplars, train


def _validate_parameters(fewshot: int, placement: str, votes: int, mode: str, tools: str) -> None:
    if isinstance(fewshot, bool) or not isinstance(fewshot, int) or fewshot < 0:
        raise ValueError(f"fewshot={fewshot!r}: pass a whole number of examples, 0 or more.")
    if placement not in get_args(Placement):
        raise ValueError(f"placement={placement!r}: choose one of {', '.join(PLACEMENTS)}.")
    if isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
        raise ValueError(f"votes={votes!r}: pass 1 or more completions per question.")
    if mode not in get_args(Mode):
        raise ValueError(f"mode={mode!r}: choose cot (reasoning in text) or pal (a program).")
    if tools not in get_args(Tools):
        raise ValueError(f"tools={tools!r}: choose one of {', '.join(get_args(Tools))}.")
    if mode == "pal" and tools != "none":
        raise ValueError("tools= applies to mode=cot; mode=pal already runs the model's program.")


def _exemplar_source(source: str) -> str:
    """Where examples come from when ``fewshot_dataset`` is not given."""
    if is_hub_source(source):
        return HUB_DATASETS[source].exemplar_source
    path = resolve_path(source)
    if path is not None and path.is_dir() and (path / f"{EXEMPLAR_SPLIT}.jsonl").is_file():
        return str(path)
    fallback = default_source()
    return fallback if fallback != source else HUB_DATASETS["gsm8k"].exemplar_source
