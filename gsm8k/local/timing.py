"""Where a local run's time went, read back from the per-request figures the gguf provider logs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput


@dataclass(frozen=True)
class RunTimings:
    samples: int
    requests: int
    wall_seconds: float
    prompt_tokens: int
    prompt_tokens_cached: int
    prompt_seconds: float
    output_tokens: int
    generation_seconds: float
    threads: tuple[int, ...] = ()
    """The llama.cpp thread counts the requests ran with (one, unless runs were merged)."""

    @property
    def generation_tokens_per_second(self) -> float:
        return self.output_tokens / self.generation_seconds if self.generation_seconds else 0.0

    def summary(self) -> str:
        share = self.prompt_tokens_cached / self.prompt_tokens if self.prompt_tokens else 0.0
        on = f" on {'/'.join(map(str, self.threads))} thread(s)" if self.threads else ""
        return (
            f"{self.samples} samples{on} in {self.wall_seconds:.0f} s: "
            f"prompt processing {self.prompt_seconds:.1f} s for the "
            f"{self.prompt_tokens - self.prompt_tokens_cached:,} prompt tokens not in llama.cpp's "
            f"cache (the other {self.prompt_tokens_cached:,} of {self.prompt_tokens:,}, "
            f"{share:.0%}, were reused), "
            f"generation {self.generation_seconds:.1f} s for {self.output_tokens:,} tokens "
            f"({self.generation_tokens_per_second:.0f} tokens/s)."
        )


def run_timings(log: EvalLog) -> RunTimings | None:
    """Totals over every model request in a log's samples (a tool-using sample makes several),
    or None when no request carries the gguf provider's figures."""
    samples = 0
    outputs: list[ModelOutput] = []
    for sample in log.samples or []:
        requests = [
            event.output
            for event in sample.events
            if isinstance(event, ModelEvent) and _has_timings(event.output)
        ]
        samples += bool(requests)
        outputs.extend(requests)
    if not outputs:
        return None
    usages = [output.usage for output in outputs if output.usage is not None]
    return RunTimings(
        samples=samples,
        requests=len(outputs),
        wall_seconds=_wall_seconds(log),
        prompt_tokens=sum(usage.input_tokens for usage in usages),
        prompt_tokens_cached=sum(usage.input_tokens_cache_read or 0 for usage in usages),
        prompt_seconds=sum(_metadata_seconds(output, "prompt_seconds") for output in outputs),
        output_tokens=sum(usage.output_tokens for usage in usages),
        generation_seconds=sum(
            _metadata_seconds(output, "generation_seconds") for output in outputs
        ),
        threads=tuple(
            sorted({int((output.metadata or {}).get("n_threads") or 0) for output in outputs} - {0})
        ),
    )


def _has_timings(output: ModelOutput) -> bool:
    return output.usage is not None and "generation_seconds" in (output.metadata or {})


def _metadata_seconds(output: ModelOutput, key: str) -> float:
    return float((output.metadata or {})[key])


def _wall_seconds(log: EvalLog) -> float:
    started, completed = log.stats.started_at, log.stats.completed_at
    if not started or not completed:
        return 0.0
    return (datetime.fromisoformat(completed) - datetime.fromisoformat(started)).total_seconds()
