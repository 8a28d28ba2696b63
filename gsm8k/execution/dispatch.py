"""One entry point for running a model's program wherever the task was told to run it."""

from __future__ import annotations

import asyncio

from gsm8k.execution.container import run_in_container
from gsm8k.execution.isolation import Isolation, refusal, unavailable_reason
from gsm8k.execution.runner import ExecutionResult, Limits, run_program


def check_isolation(in_sandbox: bool, isolation: Isolation) -> None:
    """Refuse, before any sample runs, to build a scorer or tool whose sandbox cannot start.

    Raises:
        PrerequisiteError: naming ``-T sandbox=docker`` and the opt-in for trusted models.
    """
    if not in_sandbox and isolation == "bwrap":
        reason = unavailable_reason()
        if reason is not None:
            # Imported here: gsm8k-mcp runs programs through this module without Inspect.
            from inspect_ai._util.error import PrerequisiteError

            raise PrerequisiteError(refusal(reason))


async def run_model_code(
    code: str, limits: Limits, in_sandbox: bool, isolation: Isolation
) -> ExecutionResult:
    """Run ``code`` in the task's Inspect sandbox, or locally (off the event loop)."""
    if in_sandbox:
        return await run_in_container(code, limits)
    return await asyncio.to_thread(run_program, code, limits, isolation)
