"""The two runs of a with/without MCP experiment: one model, with the server and without it.

The baseline is the same task with ``-T mcp=none`` (the same tool loop and limits, no server), so
the pair differs in the server alone. Everything else that can change outputs (model, prompt,
generation settings, limits, planned samples) must agree, as :mod:`gsm8k.compare.checks` decides
for the ordinary comparison; a pair that differs is refused with the differences named. What the
ordinary comparison does not read is read here from each sample: its tool calls, how many came
back as errors, and its wall time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool

from gsm8k.compare.checks import comparability_problems
from gsm8k.compare.results import Run, SampleId
from gsm8k.compare.runs import UNREAD_SAMPLE_FIELDS, _sample_key

SERVER_KEYS = ("mcp", "mcp_server", "mcp_server_name", "mcp_transport", "mcp_runs_as")
"""Settings that name the server; the only ones a with/without pair may differ in."""
SERVER = "mcp_server"


class PairError(ValueError):
    """The runs found are not one with/without pair; the message says what was found."""


class MismatchError(PairError):
    """The two runs differ in more than the server."""


@dataclass(frozen=True)
class SampleUse:
    """What one completed (sample, epoch) used: tool calls, failed calls, seconds."""

    calls: int
    errors: int
    seconds: float


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
    if second.settings.get("mcp") != "none":
        raise MismatchError(
            f"{second.label} was not run with -T mcp=none: without it the tool loop's limits "
            "differ from the run with the server. Run the baseline with -T mcp=none."
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
            use[key] = SampleUse(calls, errors, float(sample.total_time or 0.0))
    return use
