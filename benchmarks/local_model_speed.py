"""Speed and memory of the bundled model through the in-process gguf provider.

    GSM8K_DATA_DIR=path/to/data python -m benchmarks.local_model_speed [--limit 20]

1. Prompt processing with the few-shot prefix cold, then warm with another question (llama.cpp
   reuses the shared prefix), and generation speed.
2. ``gsm8k-local --limit N`` end to end in a child process: wall time, CPU time, peak memory and
   the load average around it (the machine may be shared), and where the time went (from the
   per-request figures in its log).
3. The floor for those N questions: the time a model would need if it wrote exactly the reference
   solutions, at the generation speed measured in step 2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, ModelName

from gsm8k.local.defaults import DEFAULT_MAX_TOKENS
from gsm8k.local.engine import BATCH_TOKENS
from gsm8k.local.llama import LlamaCppAPI
from gsm8k.local.timing import RunTimings, run_timings
from gsm8k.prompting.fewshot import chain_of_thought_response, strip_annotations
from gsm8k.task import gsm8k


def prefix_reuse() -> None:
    task = gsm8k(fewshot=5)
    solver = task.solver[0]  # type: ignore[index]
    api = LlamaCppAPI("smollm2")
    from inspect_ai.solver import TaskState

    timings = []
    for sample in list(task.dataset)[:3]:
        state = TaskState(
            model=ModelName("gguf/smollm2"),
            sample_id=sample.id or 0,
            epoch=1,
            input=sample.input,
            messages=[],
        )
        state = asyncio.run(solver(state, None))
        started = time.perf_counter()
        output = asyncio.run(api.generate(state.messages, [], "none", GenerateConfig(max_tokens=1)))
        prompt_tokens = output.usage.input_tokens if output.usage else 0
        timings.append((time.perf_counter() - started, prompt_tokens))
    counting: list[ChatMessage] = [
        ChatMessageUser(content="Write the numbers from 1 to 200, separated by commas.")
    ]
    started = time.perf_counter()
    output = asyncio.run(api.generate(counting, [], "none", GenerateConfig(max_tokens=128)))
    generated = output.usage.output_tokens if output.usage else 0
    seconds = time.perf_counter() - started
    api.close()
    (cold, tokens), *warm = timings
    print(
        f"5-shot prompt of {tokens} tokens: cold {cold:.2f} s; next questions (prefix reused): "
        + ", ".join(f"{t:.2f} s" for t, _ in warm)
    )
    print(
        f"generation: {generated} tokens in {seconds:.2f} s ({generated / seconds:.0f} tok/s, "
        "prompt cached)"
    )


def end_to_end(limit: int) -> RunTimings:
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as logs:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "gsm8k.local.run", "--limit", str(limit), "--log-dir", logs],
            check=True,
            capture_output=True,
        )
        seconds = time.perf_counter() - started
        [log_file] = Path(logs).glob("*.eval")
        timings = run_timings(read_eval_log(str(log_file)))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"gsm8k-local --limit {limit} ({BATCH_TOKENS}-token batches): "
        f"{seconds:.1f} s wall (process start included), "
        f"{usage.ru_utime + usage.ru_stime:.0f} s CPU, peak RSS {usage.ru_maxrss / 1024:.0f} MB, "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    assert timings is not None, "the log carries no llama.cpp figures"
    print(f"  {timings.summary()}")
    return timings


def reference_lengths(api: LlamaCppAPI) -> list[int]:
    """Tokens in each test question's reference solution, formatted as the exemplars show it."""
    lengths = []
    for sample in gsm8k(fewshot=0).dataset:
        solution = strip_annotations((sample.metadata or {})["solution"])
        response = chain_of_thought_response(solution, str(sample.target))
        lengths.append(len(asyncio.run(api.tokenize(response))))
    return lengths


def reference_length_floor(limit: int, timings: RunTimings) -> None:
    """How long reference solutions are, and the generation time for a model that wrote them."""
    api = LlamaCppAPI("smollm2")
    lengths = reference_lengths(api)
    api.close()
    deciles = statistics.quantiles(lengths, n=100)
    over_cap = sum(length > DEFAULT_MAX_TOKENS for length in lengths)
    print(
        f"reference solutions, {len(lengths)} test questions: median {deciles[49]:.0f} tokens, "
        f"p90 {deciles[89]:.0f}, p99 {deciles[98]:.0f}, max {max(lengths)}; "
        f"{over_cap} over the {DEFAULT_MAX_TOKENS}-token cap"
    )
    tokens = sum(lengths[:limit])
    seconds = tokens / timings.generation_tokens_per_second
    print(
        f"reference solutions of the first {limit}: {tokens:,} tokens, {seconds:.0f} s of "
        f"generation at the measured {timings.generation_tokens_per_second:.0f} tokens/s; with "
        f"the measured prompt processing, {seconds + timings.prompt_seconds:.0f} s for a model "
        "that wrote exactly those solutions"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    prefix_reuse()
    timings = end_to_end(args.limit)
    reference_length_floor(args.limit, timings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
