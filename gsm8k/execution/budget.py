"""What a sample's programs may use in all, and the text a program's run reads as to the model.

Free of Inspect, so that ``gsm8k-mcp`` (a process per sample where it is started per sample)
loads only what it serves with: importing Inspect costs seconds of CPU on a busy machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from gsm8k.execution.runner import ExecutionResult

TOOL_OUTPUT_CHARS = 4000
"""How much of a program's output goes back to the model (the log's score keeps its own)."""


@dataclass(frozen=True)
class ProgramBudget:
    """What one sample's python_runner calls may use in all.

    The task's message limit counts messages, and one assistant message may hold any number of
    tool calls, so without this a single reply could run hundreds of programs to their limits.
    """

    runs: int = 20
    seconds: float = 60.0
    """Wall-clock seconds of all the sample's programs together."""


DEFAULT_BUDGET = ProgramBudget()


def describe(result: ExecutionResult) -> str:
    """What the model sees: the program's output (clipped), then its result or error."""
    output = result.stdout
    if len(output) > TOOL_OUTPUT_CHARS or result.dropped_bytes:
        output = f"{output[:TOOL_OUTPUT_CHARS]}\n[output clipped]"
    printed = f"Output:\n{output.rstrip()}\n" if output.strip() else ""
    if result.status == "ok":
        return f"{printed}Result: {result.value}"
    if result.status == "no_result" and printed:
        return printed.rstrip()  # a program that only prints is fine for a tool
    errors = result.stderr.strip()[-TOOL_OUTPUT_CHARS:]
    printed += f"Errors:\n{errors}\n" if errors else ""
    return f"{printed}Error ({result.status}): {result.error}"
