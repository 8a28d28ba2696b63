"""GSM8K and its variants as tasks of one file, so that one ``inspect eval-set`` runs them all.

    inspect eval-set gsm8k/family_set.py --log-dir logs/family -T fewshot=5 \\
      --model openai/gpt-4o-mini,anthropic/claude-haiku-4-5
    inspect eval-set gsm8k/family_set.py@gsm8k_original gsm8k/family_set.py@gsm_symbolic_p2 ...

Each task is :func:`gsm8k.task.gsm8k` with its ``dataset`` set; every ``-T`` option applies to
all of them (a ``dataset`` other than the task's own is refused: the task's name chooses it).
A log records the same arguments and names its variant the same way (dataset, display name, tag)
as ``gsm8k/task.py -T dataset=...`` would, so ``gsm8k-family`` and ``gsm8k-compare`` merge and rank
these logs with the task's own. Without ``@name`` the command runs
every task below, the full family (about 27,000 items per model): name the ones wanted.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task

from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k

FAMILY_SET_TASKS = {
    "gsm8k_original": None,  # GSM8K itself: $GSM8K_DATA_DIR when set, else the bundled copy
    "gsm8k_platinum": "gsm8k-platinum",
    "gsm_symbolic": "gsm-symbolic",
    "gsm_symbolic_p1": "gsm-symbolic-p1",
    "gsm_symbolic_p2": "gsm-symbolic-p2",
    "gsm_plus": "gsm-plus",
    "gsm_plus_mini": "gsm-plus-mini",
}
"""Task name: the ``dataset`` it runs (MGSM needs a language per run: ``-T dataset=mgsm``)."""


def _variant(name: str, task_args: dict[str, Any]) -> Task:
    own = FAMILY_SET_TASKS[name]
    if task_args.get("dataset", own) != own:
        raise TaskInputError(
            f"-T dataset: gsm8k/family_set.py@{name} runs dataset={own!r}; "
            "run gsm8k/task.py for -T dataset=..."
        )
    return gsm8k(**{**task_args, "dataset": own})


def member(function: Callable[..., Task]) -> Callable[..., Task]:
    """Give a family task the parameters of :func:`gsm8k.task.gsm8k`, its ``dataset`` defaulting
    to the variant's.

    Inspect reads a task's signature to pass ``-T`` names (the task's ``**unknown`` receives a
    mistyped one, which the task refuses in one line before anything runs) and to record every
    argument in the log. With the same signature, a log of ``family_set.py@gsm_plus`` records
    the same arguments as ``task.py -T dataset=gsm-plus``, so the two merge and rank together.
    """
    signature = inspect.signature(gsm8k)
    parameters = [
        parameter.replace(default=FAMILY_SET_TASKS[function.__name__])
        if parameter.name == "dataset"
        else parameter
        for parameter in signature.parameters.values()
    ]
    function.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return function


@task
@member
def gsm8k_original(**task_args: Any) -> Task:
    """GSM8K's test split (the baseline every variant is paired with)."""
    return _variant("gsm8k_original", task_args)


@task
@member
def gsm8k_platinum(**task_args: Any) -> Task:
    """GSM8K-Platinum: the test split with flawed questions removed and labels fixed."""
    return _variant("gsm8k_platinum", task_args)


@task
@member
def gsm_symbolic(**task_args: Any) -> Task:
    """GSM-Symbolic: 100 test questions as templates, 50 draws each."""
    return _variant("gsm_symbolic", task_args)


@task
@member
def gsm_symbolic_p1(**task_args: Any) -> Task:
    """GSM-Symbolic P1: one added clause."""
    return _variant("gsm_symbolic_p1", task_args)


@task
@member
def gsm_symbolic_p2(**task_args: Any) -> Task:
    """GSM-Symbolic P2: two added clauses."""
    return _variant("gsm_symbolic_p2", task_args)


@task
@member
def gsm_plus(**task_args: Any) -> Task:
    """GSM-Plus: eight perturbations of each test question."""
    return _variant("gsm_plus", task_args)


@task
@member
def gsm_plus_mini(**task_args: Any) -> Task:
    """GSM-Plus testmini: its 2,400-item subset."""
    return _variant("gsm_plus_mini", task_args)
