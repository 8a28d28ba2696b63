"""Where model-written code runs (``mode=pal``, ``tools=python``), decided once per task.

A bubblewrap sandbox per program by default; an Inspect sandbox when ``sandbox`` is given; a
plain local process only with ``trust_model_code=true``. No isolation and no opt-in is a refusal
before anything runs, never a silent risk.
"""

from __future__ import annotations

from dataclasses import dataclass

from gsm8k.execution.cgroup import memory_limit_kind
from gsm8k.execution.isolation import (
    CONTAINER_SANDBOXES,
    Isolation,
    check_sandbox_trust,
    choose_isolation,
)
from gsm8k.execution.packages import program_packages


@dataclass(frozen=True)
class CodePolicy:
    """The decision for one task, and what its log records about it."""

    runs_code: bool
    """Whether the model's code is run at all (``mode=pal`` or ``tools=python``)."""
    sandbox: str | None
    """The Inspect sandbox type the user asked for, if any."""
    isolation: Isolation
    """How code runs on this machine when no Inspect sandbox is used."""
    trust_model_code: bool

    @property
    def in_sandbox(self) -> bool:
        """Whether programs go to an Inspect sandbox rather than a process on this machine."""
        return self.sandbox is not None

    def code_isolation(self) -> str | None:
        """Where model-written code ran, as the log records it."""
        if not self.runs_code:
            return None
        if self.sandbox is not None:
            if self.sandbox in CONTAINER_SANDBOXES:
                return f"inspect sandbox: {self.sandbox}"
            return f"inspect sandbox: {self.sandbox}, not isolated, trusted (trust_model_code=true)"
        if self.isolation == "bwrap":
            return "bwrap"
        return "local process, trusted (trust_model_code=true)"

    def program_packages(self) -> list[str] | None:
        """What a program may import besides the standard library where it runs (numpy, sympy),
        as the prompt names it and the log records it."""
        if not self.runs_code:
            return None
        if self.sandbox is None:
            return program_packages(in_container=False)
        # This project's image has them; another sandbox's image (k8s, local) is the user's own.
        return program_packages(in_container=True) if self.sandbox == "docker" else []

    def memory_limit(self) -> str | None:
        """Which memory limit model-written code ran under, as the log records it."""
        if not self.runs_code:
            return None
        if self.sandbox is not None:
            return "container" if self.sandbox in CONTAINER_SANDBOXES else "per-process rlimit"
        return memory_limit_kind() if self.isolation == "bwrap" else "per-process rlimit"


def code_policy(mode: str, tools: str, sandbox: str | None, trust_model_code: bool) -> CodePolicy:
    """Decide where model-written code runs.

    Raises:
        PrerequisiteError: the code would run without isolation and ``trust_model_code`` is
            not set (no bubblewrap here, or a ``sandbox`` that is not a container).
    """
    runs_code = mode == "pal" or tools == "python"
    if runs_code and sandbox is not None:
        check_sandbox_trust(sandbox, trust_model_code)
    isolation: Isolation = (
        choose_isolation(trust_model_code) if runs_code and sandbox is None else "bwrap"
    )
    return CodePolicy(runs_code, sandbox, isolation, trust_model_code)
