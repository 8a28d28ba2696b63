"""Render a task's prompts without a model, and the same prompts from the original harnesses.

``rendered`` runs a task's solvers on its samples with a stand-in ``generate`` that records the
messages of every generation and answers with a fixed reply, so a two-generation prompt (Kojima
et al.) shows both. The ``original_*`` helpers run the original harness's own code on the same
files: lm-evaluation-harness builds its requests from the task YAML it ships, inspect_evals runs
its own solvers, and simple-evals' published constants and functions are read from a checkout
(``SIMPLE_EVALS_DIR``; the package is not on PyPI). They are used by the tests that need the
``bench`` extra and by ``tests/fixtures/presets/record.py``, which recorded the always-on fixture.
"""

from __future__ import annotations

import ast
import asyncio
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.model import ChatMessage, ChatMessageUser, ModelName, ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

Rendered = list[list[dict[str, str]]]
"""The messages of each generation one sample makes, as ``{"role", "content"}``."""
REPLY = "There are 16 - 3 - 4 = 9 eggs left. The answer is 18."


def as_dicts(messages: Sequence[ChatMessage] | Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    out = []
    for message in messages:
        if isinstance(message, dict):
            out.append({"role": str(message["role"]), "content": str(message["content"])})
        else:
            out.append({"role": message.role, "content": message.text})
    return out


def rendered(task: Task, limit: int | None = None, reply: str = REPLY) -> dict[str, Rendered]:
    """Each sample's generations' messages, by sample id (as text)."""
    samples = list(task.dataset)[:limit]
    return {str(sample.id): asyncio.run(_render(task, sample, reply)) for sample in samples}


async def _render(task: Task, sample: Any, reply: str) -> Rendered:
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id=sample.id,
        epoch=1,
        input=sample.input,
        messages=[ChatMessageUser(content=sample.input)],
        target=Target(sample.target),
        metadata=dict(sample.metadata or {}),
    )
    calls: Rendered = []

    async def generate(state: TaskState, tool_calls: str = "loop", **kwargs: Any) -> TaskState:
        calls.append(as_dicts(state.messages))
        state.output = ModelOutput.from_content(model="mockllm/model", content=reply)
        state.messages.append(state.output.message)
        return state

    await task.solver(state, generate)
    return calls


# --- lm-evaluation-harness -------------------------------------------------------------------

LM_EVAL_YAML = {
    "lm-eval-gsm8k": "gsm8k.yaml",
    "lm-eval-gsm8k-cot": "gsm8k-cot.yaml",
    "lm-eval-gsm8k-cot-zeroshot": "gsm8k-cot-zeroshot.yaml",
}


def lm_eval_task(preset: str, data_dir: Path, cache: Path) -> Any:
    """lm-eval's own task object, from the YAML it ships, reading the local JSONL files
    (``datasets`` keeps what it builds from them under ``cache``)."""
    import lm_eval
    import yaml
    from lm_eval.api.task import ConfigurableTask

    path = Path(lm_eval.__file__).parent / "tasks" / "gsm8k" / LM_EVAL_YAML[preset]
    config = yaml.safe_load(path.read_text(encoding="utf-8"))
    config.pop("tag", None)
    config["dataset_path"], config["dataset_name"] = "json", None
    files = {"train": str(data_dir / "train.jsonl"), "test": str(data_dir / "test.jsonl")}
    config["dataset_kwargs"] = {"data_files": files, "cache_dir": str(cache)}
    return ConfigurableTask(config=config)


def original_lm_eval(
    preset: str, data_dir: Path, limit: int, placement: str, cache: Path
) -> list[Rendered]:
    """lm-eval's prompts for the first ``limit`` test items.

    ``user``: the contexts lm-eval's request builder makes (seed 1234, items in order) as one
    user message, which is what ``--apply_chat_template --fewshot_as_multiturn false`` sends;
    ``turns``: the messages of ``fewshot_context(..., fewshot_as_multiturn=True)``, built in the
    same order and seed (plain ``--apply_chat_template``, which turns multi-turn on).
    """
    task = lm_eval_task(preset, data_dir, cache)
    task.set_fewshot_seed(1234)
    if placement == "user":
        task.build_all_requests(limit=limit)
        contexts = [instance.args[0] for instance in task.instances]
        return [[[{"role": "user", "content": context}]] for context in contexts]
    docs = list(task.eval_docs)[:limit]
    shots = task.config.num_fewshot
    out = []
    for doc in docs:
        chat = task.fewshot_context(
            doc,
            shots,
            apply_chat_template=True,
            fewshot_as_multiturn=True,
            chat_template=lambda messages, **_: messages,
        )
        out.append([as_dicts(chat)])
    return out


def lm_eval_scores(
    preset: str, data_dir: Path, completions: Sequence[str], cache: Path
) -> dict[str, list[float]]:
    """lm-eval's own per-item ``exact_match`` under each filter, for completions of the first
    ``len(completions)`` test items: the task's filters and ``process_results`` run on them."""
    task = lm_eval_task(preset, data_dir, cache)
    task.set_fewshot_seed(1234)
    task.build_all_requests(limit=len(completions))
    for instance, completion in zip(task.instances, completions, strict=True):
        instance.resps = [completion]
    task.apply_filters()
    docs = list(task.eval_docs)[: len(completions)]
    scores: dict[str, list[float]] = {}
    for instance, doc in zip(task.instances, docs, strict=True):
        for name, responses in instance.filtered_resps.items():
            result = task.process_results(doc, [responses])
            scores.setdefault(name, []).append(float(result["exact_match"]))
    return scores


def lm_eval_verdicts(
    preset: str, data_dir: Path, cases: Sequence[tuple[str, str]], cache: Path
) -> list[dict[str, float]]:
    """lm-eval's own filters and ``process_results`` on (completion, GSM8K answer text) pairs:
    ``exact_match`` under each filter, per case."""
    from lm_eval.api.instance import Instance

    task = lm_eval_task(preset, data_dir, cache)
    docs = [{"question": "", "answer": answer} for _, answer in cases]
    instances = []
    for index, ((completion, _), doc) in enumerate(zip(cases, docs, strict=True)):
        instance = Instance("generate_until", doc, ("", {}), index, (preset, index, 1))
        instance.resps = [completion]
        instances.append(instance)
    task._instances = instances
    task.apply_filters()
    return [
        {
            name: float(task.process_results(doc, [responses])["exact_match"])
            for name, responses in instance.filtered_resps.items()
        }
        for instance, doc in zip(instances, docs, strict=True)
    ]


def kojima_verdict(checkout: Path, completion: str, gold_as_written: str) -> bool:
    """Kojima et al.'s ``answer_cleansing`` (from ``utils.py`` in a checkout) on the answer
    step's output, compared as their ``main.py`` compares it."""
    source = (checkout / "utils.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    kept = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "answer_cleansing"
    ]
    namespace: dict[str, Any] = {"print": lambda *args, **kwargs: None}
    exec("import re", namespace)
    with warnings.catch_warnings():  # their regexes are written with invalid escapes ('\.')
        warnings.simplefilter("ignore", DeprecationWarning)
        code = compile(ast.Module(body=kept, type_ignores=[]), "utils.py", "exec")
    exec(code, namespace)
    from types import SimpleNamespace

    args = SimpleNamespace(method="zero_shot_cot", dataset="gsm8k")
    prediction = namespace["answer_cleansing"](args, completion)
    return bool(prediction == gold_as_written.strip())


# --- inspect_evals ---------------------------------------------------------------------------


def original_inspect_evals(
    data_dir: Path, limit: int, cache: Path, fewshot: int = 10
) -> list[Rendered]:
    """inspect_evals' gsm8k task, its data read from the local files by Inspect's own
    ``hf_dataset`` (the JSON builder; same shuffle), its solvers run on the first items.
    Inspect's and ``datasets``' caches are kept under ``cache``."""
    import importlib

    import inspect_ai.dataset as inspect_dataset
    from inspect_ai.dataset._sources import hf

    def cache_dir(subdir: str | None, create: bool = True) -> Path:
        path = cache / (subdir or "inspect")
        path.mkdir(parents=True, exist_ok=True)
        return path

    module = importlib.import_module("inspect_evals.gsm8k.gsm8k")

    files = {"train": str(data_dir / "train.jsonl"), "test": str(data_dir / "test.jsonl")}

    def local_hf_dataset(path: str, split: str, **kwargs: Any) -> Any:
        kwargs.pop("revision", None)
        kwargs.pop("data_dir", None)
        return inspect_dataset.hf_dataset(
            "json", split=split, data_files=files, cache_dir=str(cache), **kwargs
        )

    original, original_cache = module.hf_dataset, hf.inspect_cache_dir
    module.hf_dataset, hf.inspect_cache_dir = local_hf_dataset, cache_dir
    try:
        task = module.gsm8k(fewshot=fewshot)
    finally:
        module.hf_dataset, hf.inspect_cache_dir = original, original_cache
    return list(rendered(task, limit).values())


# --- simple-evals (published text) ----------------------------------------------------------


def simple_evals_namespace(checkout: Path) -> dict[str, Any]:
    """simple-evals' MGSM constants and its ``parse_answer``/``score_mgsm``, taken from
    ``mgsm_eval.py`` in a checkout (the module itself imports the rest of the repository)."""
    source = (checkout / "mgsm_eval.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    wanted = {"LANG_TO_INSTRUCTIONS", "LANG_TO_ANSWER_PREFIX", "parse_answer", "score_mgsm"}
    kept = [
        node
        for node in tree.body
        if (isinstance(node, ast.FunctionDef) and node.name in wanted)
        or (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in wanted
        )
    ]
    namespace: dict[str, Any] = {}
    exec(compile(ast.Module(body=kept, type_ignores=[]), "mgsm_eval.py", "exec"), namespace)
    exec("import re", namespace)
    return namespace


def original_simple_evals(
    checkout: Path, questions: Sequence[str], language: str
) -> list[Rendered]:
    """simple-evals' MGSM prompt for each question, as its ``MGSMEval.__call__`` builds it."""
    instruction = simple_evals_namespace(checkout)["LANG_TO_INSTRUCTIONS"][language]
    return [[[{"role": "user", "content": instruction.format(input=q)}]] for q in questions]


# --- Kojima et al. (published text) ---------------------------------------------------------


def original_kojima(questions: Sequence[str], reasoning: str) -> list[Rendered]:
    """Kojima et al.'s two prompts as their ``main.py`` concatenates them (method
    ``zero_shot_cot``, trigger 1, dataset ``gsm8k``), for a model whose reasoning is
    ``reasoning``: ``x = "Q: " + x + "\\n" + "A:"``, ``x = x + " " + cot_trigger``,
    ``z2 = x + z + " " + direct_answer_trigger_for_zeroshot_cot``."""
    out = []
    for question in questions:
        x = "Q: " + question + "\n" + "A:"
        x = x + " " + "Let's think step by step."
        z2 = x + reasoning + " " + "\nTherefore, the answer (arabic numerals) is"
        out.append([[{"role": "user", "content": x}], [{"role": "user", "content": z2}]])
    return out


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
