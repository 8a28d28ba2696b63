"""The two runs of a with/without MCP experiment: one model, with the server and without it.

The baseline is the same task with ``-T mcp=none`` (the same tool loop and limits, no server), so
the pair differs in the server alone. Everything else that can change outputs (model, prompt,
generation settings, limits, planned samples) must agree, as :mod:`gsm8k.compare.checks` decides
for the ordinary comparison; a pair that differs is refused with the differences named. What the
ordinary comparison does not read is read here from each sample: its tool calls, how many came
back as errors, its input and output tokens, its wall time and, of that, the seconds its server
took to start (``mcp_start_seconds``, recorded by the task apart from the solving time), and
whether its server died under the model's calls (``mcp_server_died``: graded, counted apart).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool

from gsm8k.compare.checks import comparability_problems
from gsm8k.compare.results import Run, SampleId
from gsm8k.compare.runs import UNREAD_SAMPLE_FIELDS, _sample_key
from gsm8k.mcp_tools.config import BASELINE_PREFIX, NO_SERVER
from gsm8k.mcp_tools.liveness import DIED_KEY
from gsm8k.mcp_tools.startup import START_KEY

SERVER_KEYS = (
    "mcp",
    "mcp_server",
    "mcp_server_name",
    "mcp_transport",
    "mcp_runs_as",
    "mcp_start_timeout",
    "mcp_shared",
)
"""Settings that name the server; the only ones a with/without pair may differ in."""
SERVER = "mcp_server"


class PairError(ValueError):
    """The runs found are not one with/without pair; the message says what was found."""


class MismatchError(PairError):
    """The two runs differ in more than the server."""


@dataclass(frozen=True)
class SampleUse:
    """What one completed (sample, epoch) used: tool calls, failed calls, seconds, tokens."""

    calls: int
    errors: int
    seconds: float
    """Wall time, start to score."""
    start_seconds: float | None = None
    """Of ``seconds``, the server's start (``None``: no server, or a log that did not record
    it)."""
    input_tokens: int = 0
    output_tokens: int = 0
    server_died: bool = False
    """The server died during or because of the model's calls (the sample is graded)."""


@dataclass
class Pair:
    with_server: Run
    without: Run
    server: str
    with_use: dict[tuple[SampleId, int], SampleUse]
    without_use: dict[tuple[SampleId, int], SampleUse]


def find_pair(runs: list[Run]) -> Pair:
    """The with/without pair among ``runs`` (after ``--model``/``--variant`` selection).

    Raises:
        PairError: when the runs are not exactly one with a server and one with ``mcp=none``.
        MismatchError: when the two differ in anything but the server.
    """
    with_server = [run for run in runs if run.settings.get(SERVER)]
    without = [run for run in runs if not run.settings.get(SERVER)]
    if len(with_server) != 1 or len(without) != 1:
        held = "; ".join(f"{run.label} (server: {run.settings.get(SERVER)})" for run in runs)
        raise PairError(
            f"a with/without report needs two runs of one model, one with -T mcp=<server> and "
            f"one with -T mcp=none; found {len(with_server)} with a server and {len(without)} "
            f"without: {held}. Select them with --model or give the two runs' logs only."
        )
    first, second = with_server[0], without[0]
    baseline = second.settings.get("mcp")
    if not isinstance(baseline, str) or not (
        baseline == NO_SERVER or baseline.startswith(BASELINE_PREFIX)
    ):
        how = "without -T mcp" if baseline is None else f"with -T mcp={baseline}"
        raise MismatchError(
            f"{second.label} is not a baseline: it was run {how}, so it had neither the tool "
            "loop nor its limits. Run the baseline with -T mcp=none (or -T mcp=none:FILE for "
            "an mcpbr file's prompt and limits)."
        )
    problems = [
        problem
        for problem in comparability_problems([_unnamed(first), _unnamed(second)])
        if not problem.startswith("samples:")  # unscored samples differ; planned ones must not
    ]
    if first.planned != second.planned:
        problems.append(
            f"planned samples: {len(first.planned)} with the server, {len(second.planned)} "
            "without; run both on the same samples"
        )
    if problems:
        raise MismatchError("the two runs differ in more than the server: " + "; ".join(problems))
    return Pair(first, second, str(first.settings[SERVER]), sample_use(first), sample_use(second))


def _unnamed(run: Run) -> Run:
    """``run`` without the settings that name the server, for the settings check."""
    settings = {name: value for name, value in run.settings.items() if name not in SERVER_KEYS}
    return replace(run, settings=settings)


def sample_use(run: Run) -> dict[tuple[SampleId, int], SampleUse]:
    """Tool calls, failed calls and wall time of each completed (sample, epoch), from the
    newest log that completed it (logs are folded oldest first, as the run's results)."""
    use: dict[tuple[SampleId, int], SampleUse] = {}
    for location in run.logs:
        log = read_eval_log(location, exclude_fields=set(UNREAD_SAMPLE_FIELDS - {"messages"}))
        split = str((log.eval.metadata or {}).get("split", ""))
        for sample in log.samples or []:
            key = (_sample_key(sample.id, split), sample.epoch)
            if sample.error is not None or key[0] not in run.results:
                continue
            calls = sum(
                len(message.tool_calls or [])
                for message in sample.messages
                if isinstance(message, ChatMessageAssistant)
            )
            errors = sum(
                1
                for message in sample.messages
                if isinstance(message, ChatMessageTool) and message.error is not None
            )
            start = (sample.metadata or {}).get(START_KEY)
            usage = list((sample.model_usage or {}).values())
            use[key] = SampleUse(
                calls,
                errors,
                float(sample.total_time or 0.0),
                float(start) if isinstance(start, (int, float)) else None,
                sum(
                    u.input_tokens
                    + (u.input_tokens_cache_read or 0)
                    + (u.input_tokens_cache_write or 0)
                    for u in usage
                ),
                sum(u.output_tokens for u in usage),
                DIED_KEY in (sample.metadata or {}),
            )
    return use
