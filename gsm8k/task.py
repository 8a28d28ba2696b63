"""GSM8K: grade-school math word problems, graded on the exact final number.

Cobbe et al. 2021, "Training Verifiers to Solve Math Word Problems", https://arxiv.org/abs/2110.14168.
1,319 test problems; the model reasons step by step and ends with a line ``ANSWER: <number>``.

    inspect eval gsm8k/task.py --model gguf/smollm2 --limit 20 --max-tokens 256
    inspect eval gsm8k/task.py -T fewshot=5 --model openai/gpt-4o-mini
    inspect eval gsm8k/task.py -T dataset=gsm8k-platinum --model anthropic/claude-sonnet-4-5
    inspect eval gsm8k/task.py -T dataset=mgsm -T language=de --model openai/gpt-4o-mini
    inspect eval gsm8k/task.py -T preset=lm-eval-gsm8k --model openai/gpt-4o-mini

The task reads top to bottom: the constants, :func:`gsm8k`, :func:`record_to_sample`, the
few-shot solver and the scorers; ``docs/architecture.md`` maps the subsystems it wires together
(``gsm8k.settings``, ``data``, ``prompting``, ``grading``, ``metrics``, ``execution``).
"""

from __future__ import annotations

import inspect
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Scorer, match
from inspect_ai.solver import Generate, Solver, TaskState, solver

from gsm8k.data.splits import GOLD_DELIMITER, LoadedSplit, default_source
from gsm8k.data.variants import EVALUATION_SPLIT, evaluation_set, fresh_options
from gsm8k.execution.container import compose_sandbox
from gsm8k.execution.guard import guarded_generate
from gsm8k.execution.policy import CodePolicy, code_policy
from gsm8k.execution.runner import Limits
from gsm8k.execution.scorer import pal_grader
from gsm8k.execution.tools import offered_tools
from gsm8k.grading.numbers import normalize, parse_gold
from gsm8k.grading.scorer import gsm8k_grader
from gsm8k.mcp_tools.agent import mcp_setup
from gsm8k.metrics.votes import vote_check, voting
from gsm8k.preset_task import preset_task
from gsm8k.prompting.exemplars import Shots, choose_exemplars
from gsm8k.prompting.fewshot import Exemplar, Placement, build_messages
from gsm8k.prompting.mgsm import mgsm_fewshot_prompt
from gsm8k.prompting.presets import DEFAULT_PRESET
from gsm8k.prompting.templates import prompt_template
from gsm8k.settings.arguments import RecordedTask, refuse_unknown
from gsm8k.settings.checks import Mode, Tools, validate_family
from gsm8k.settings.errors import one_line_errors
from gsm8k.settings.record import display_name, headline, recorded_arguments, run_metadata, run_name
from gsm8k.settings.resolve import DEFAULT_PLACEMENT, prompt_settings

TASK_VERSION = "1.14.0"

PROMPT_TEMPLATE = (
    "Solve the following math problem step by step. Show your reasoning, then write the final "
    'answer on its own last line as "ANSWER: $NUMBER", where $NUMBER is the number alone, '
    "without units.\n\n"
    "Question: {question}"
)
EXAMPLES_HEADING = "Here are some solved examples of the kind of problem you will be given."
MAX_TOOL_MESSAGES = 40  # calls and results a tool-using sample may add before it stops


@task
def gsm8k(
    fewshot: int | None = None,
    fewshot_seed: int | None = None,
    dataset: str | None = None,
    split: str = EVALUATION_SPLIT,
    fewshot_dataset: str | None = None,
    placement: Placement | None = None,
    calculator_annotations: bool = False,
    votes: int = 1,
    mode: Mode = "cot",
    tools: Tools = "none",
    sandbox: str | None = None,
    language: str | None = None,
    trust_model_code: bool = False,
    preset: str = DEFAULT_PRESET,
    mcp: str | None = None,
    mcp_start_timeout: float | None = None,
    fresh_seed: int | None = None,
    fresh_per_template: int | None = None,
    templates: str | None = None,
    **unknown: Any,
) -> Task:
    """GSM8K with a seeded few-shot prompt and exact grading.

    Args:
        fewshot: Number of worked train examples shown before each question (0: zero-shot
            chain of thought). Default 5, or the preset's own.
        fewshot_seed: Seed that picks the examples; the same seed always picks the same ones.
            Default 42, or the preset's own.
        dataset: ``gsm8k`` (the copy inside the package), ``openai/gsm8k`` (the same records
            from the hub), ``gsm8k-socratic``, ``gsm8k-platinum``, a local directory or ``.jsonl``
            file (default ``$GSM8K_DATA_DIR``, else ``gsm8k``), or the GSM family:
            ``gsm-symbolic``, ``gsm-symbolic-p1``, ``gsm-symbolic-p2``, ``gsm-plus``,
            ``gsm-plus-mini``, ``mgsm`` (docs/data.md, docs/family.md).
        split: Split to evaluate (``test``; for a directory, any ``<split>.jsonl`` in it).
        fewshot_dataset: Where the train examples come from. Defaults to ``dataset`` when it has
            a train split, else to the default dataset.
        placement: Where the examples go: ``user`` (before the question), ``system`` or
            ``turns`` (alternating user/assistant messages). Default ``user``, or the preset's.
        calculator_annotations: Keep GSM8K's ``<<48/2=24>>`` calculator annotations in the
            examples' solutions (they are removed by default).
        votes: Completions per question. Above 1, the log reports mean accuracy, self-consistency
            (majority vote on the extracted answer, maj@votes) and pass@votes.
        mode: ``cot`` (reason in text, end with ``ANSWER:``) or ``pal`` (write a Python
            ``solution()``; the program is run and its result graded).
        tools: ``none``, ``calculator`` (safe arithmetic) or ``python`` (a limited Python runner),
            callable by the model while it reasons (``cot`` mode only).
        sandbox: Where model-written code runs: unset for a bubblewrap sandbox per program,
            ``docker`` for this project's container, or another Inspect sandbox (docs/sandbox.md).
        language: MGSM's language (``bn de en es fr ja ru sw te th zh``), required with
            ``dataset=mgsm``.
        trust_model_code: Where no isolation is available, run model-written code as a plain
            local process anyway (trusted models only; recorded in the log).
        preset: Another harness's exact prompt, answer format and generation defaults, its own
            scoring rule reported after this task's grader (``default``: this task's own prompt;
            the names are in docs/presets.md).
        mcp: An MCP server whose tools the model may call: a command line, an http(s) URL or a
            JSON/YAML file (it runs as your user), or ``none`` for the loop alone (docs/mcp.md).
        mcp_start_timeout: Seconds a server may take to start and list its tools (default 120).
        fresh_seed, fresh_per_template, templates: ``gsm-symbolic-fresh`` (docs/fresh-questions.md).
    """
    with one_line_errors():  # a bad parameter or data line: one message, not a traceback
        # Inspect only warns about a -T name it does not know: a typo would run a default eval.
        refuse_unknown(unknown, TASK_PARAMETERS, "gsm8k")
        source = dataset or default_source()
        settings = prompt_settings(
            preset,
            source,
            fewshot,
            fewshot_seed,
            placement,
            fewshot_dataset,
            calculator_annotations,
            mode,
            tools,
            votes,
        )
        validate_family(source, language, mode, tools, fewshot_dataset)
        agent = mcp_setup(mcp, mode, tools, preset, DEFAULT_PRESET, mcp_start_timeout)
        fresh = fresh_options(source, fresh_seed, fresh_per_template, templates)
        evaluated = evaluation_set(source, split, language, records_to_samples, fresh)
        if settings.preset is not None:
            return preset_task(settings, evaluated, source, language, votes, TASK_VERSION)
        shots = choose_exemplars(source, language, settings, evaluated, mode, record_to_sample)
        # Checked before anything runs: no isolation and no opt-in is a refusal, not a silent risk.
        policy = code_policy(mode, tools, sandbox, trust_model_code)
    template = prompt_template(PROMPT_TEMPLATE, mode, tools, source, policy.program_packages())
    return RecordedTask(
        resolved=recorded_arguments(source, settings, shots.split),
        dataset=evaluated.dataset(),
        solver=[
            *vote_check(votes),
            *offered_tools(tools, policy),
            task_prompt(shots, settings.placement, template),
            agent.generate() if agent else guarded_generate(),
        ],
        scorer=gsm8k_scorers(mode, policy),
        headline_metric=headline(mode),
        epochs=voting(votes),
        sandbox=compose_sandbox(sandbox),
        message_limit=None if tools == "none" else 2 * settings.fewshot + 2 + MAX_TOOL_MESSAGES,
        version=TASK_VERSION,
        name=run_name(evaluated, mode, tools),
        display_name=display_name(evaluated, mode, tools)
        + (agent.display_suffix() if agent else ""),
        tags=[evaluated.name],
        metadata=run_metadata(evaluated, shots, policy, settings, mode, tools, language)
        | (agent.metadata() if agent else {}),
        **(agent.task_limits() if agent else {}),
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
            raise ValueError(f"{loaded.where(index)}: {error}") from error
    return samples


def task_prompt(shots: Shots, placement: Placement, template: str) -> Solver:
    """The prompt: GSM8K-format exemplars before the question, or MGSM's own in its language."""
    if shots.mgsm is not None:
        return mgsm_fewshot_prompt(shots.mgsm, placement)
    return fewshot_prompt(shots.exemplars, placement, template)


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


def gsm8k_scorers(mode: Mode, policy: CodePolicy) -> list[Scorer]:
    """The exact grader with Inspect's ``match(numeric=True)`` beside it for comparability, as
    one scorer entry (its ``match`` score as inspect_evals reports it); ``pal``: the program's."""
    if mode == "pal":
        return [pal_grader(Limits(), policy.in_sandbox, policy.isolation)]
    return [gsm8k_grader(beside=match(numeric=True))]


TASK_PARAMETERS = tuple(name for name in inspect.signature(gsm8k).parameters if name != "unknown")
"""The parameters ``-T`` takes (README's table mirrors them)."""
