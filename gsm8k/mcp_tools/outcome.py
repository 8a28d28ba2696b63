"""A ``-T mcp=`` run in which no sample was scored says so in one line and fails.

Every metric of such a run is NaN while Inspect records the eval as ``success`` and its command
line exits 0, so a script (or a person skimming the output) reads an empty experiment as a
finished one. Once the run's logs are written, :class:`EmptyRunCheck` looks at each ``mcp=`` log
of this task: when samples ran and none was scored, it prints one line naming the log and the
first reason, and the ``inspect eval`` / ``gsm8k-local`` command exits with status 1. Called
from Python (``inspect_ai.eval()``), nothing is raised: :func:`empty_run` gives the same line.
The hook is registered when a task with ``mcp=`` is built (this module is imported then).
"""

from __future__ import annotations

import sys
from pathlib import Path

from inspect_ai.hooks import Hooks, RunEnd, hooks
from inspect_ai.log import EvalLog

SERVER_KEY = "mcp_server"
COMMANDS = ("inspect", "gsm8k-local")
"""Console scripts whose process may exit with the run's status."""
MODULE_COMMANDS = (("inspect_ai", "__main__.py"), ("local", "run.py"))
"""The same commands run as ``python -m`` (the program's folder and file)."""


def from_command_line(program: str | None = None) -> bool:
    """Whether this process is one of the commands (``sys.argv[0]``), not Python calling
    ``eval()`` (a notebook, a test run, a script)."""
    path = Path(program if program is not None else (sys.argv[0] if sys.argv else ""))
    return path.name in COMMANDS or (path.parent.name, path.name) in MODULE_COMMANDS


def empty_run(log: EvalLog) -> str | None:
    """The line for an ``mcp=`` log whose samples were all left unscored, else ``None``."""
    metadata = log.eval.metadata or {}
    if SERVER_KEY not in metadata or log.results is None or not log.results.scores:
        return None
    ran = log.results.completed_samples or log.results.total_samples
    headline = log.results.scores[0]
    if not ran or headline.scored_samples is None or headline.scored_samples > 0:
        return None
    server = metadata.get(SERVER_KEY) or "none"
    reason = _first_reason(log)
    return (
        f"gsm8k: mcp={server}: none of the {ran} samples was scored, so this run measures "
        f"nothing{f' ({reason})' if reason else ''}; see {log.location or 'the log'}, and for a "
        "server that is slow to start raise -T mcp_start_timeout."
    )


def _first_reason(log: EvalLog) -> str:
    for sample in log.samples or []:
        for score in (sample.scores or {}).values():
            if score.explanation:
                return score.explanation.splitlines()[0][:200]
    return ""


@hooks(name="gsm8k_mcp_empty_run", description="Fail a -T mcp= run in which no sample was scored.")
class EmptyRunCheck(Hooks):
    """Ends the command with status 1 after a run whose every ``mcp=`` sample was unscored."""

    async def on_run_end(self, data: RunEnd) -> None:
        if data.exception is not None:
            return
        lines = [line for line in (empty_run(log) for log in data.logs) if line]
        if lines and from_command_line():
            # SystemExit passes through Inspect's hook guard (which catches Exception) after the
            # logs are written: the command prints the line and exits 1.
            raise SystemExit("\n".join(lines))
