"""GSM8K and its variants as tasks of one file, so that one ``inspect eval-set`` runs them all.

    inspect eval-set gsm8k/family_set.py --log-dir logs/family -T fewshot=5 \\
      --model openai/gpt-4o-mini,anthropic/claude-haiku-4-5
    inspect eval-set gsm8k/family_set.py@gsm8k_original gsm8k/family_set.py@gsm_symbolic_p2 ...

Each task is :func:`gsm8k.task.gsm8k` with its ``dataset`` set; every ``-T`` option applies to
all of them (``dataset`` itself is refused: the task's name chooses it). A log names its variant
as the dataset, display name and tag, exactly as ``-T dataset=`` would, so ``gsm8k-family`` and
``gsm8k-compare`` read these logs as they read the task's own. Without ``@name`` the command runs
every task below, the full family (about 27,000 items per model): name the ones wanted.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

from gsm8k.errors import TaskInputError
from gsm8k.task import gsm8k

FAMILY_SET_TASKS = {
    "gsm8k_original": None,  # GSM8K itself: $GSM8K_DATA_DIR when set, else the hub
    "gsm8k_platinum": "gsm8k-platinum",
    "gsm_symbolic": "gsm-symbolic",
    "gsm_symbolic_p1": "gsm-symbolic-p1",
    "gsm_symbolic_p2": "gsm-symbolic-p2",
    "gsm_plus": "gsm-plus",
    "gsm_plus_mini": "gsm-plus-mini",
}
"""Task name: the ``dataset`` it runs (MGSM needs a language per run: ``-T dataset=mgsm``)."""


def _variant(name: str, task_args: dict[str, Any]) -> Task:
    if "dataset" in task_args:
        raise TaskInputError(
            f"-T dataset: gsm8k/family_set.py@{name} sets its own dataset; "
            "run gsm8k/task.py for -T dataset=..."
        )
    return gsm8k(dataset=FAMILY_SET_TASKS[name], **task_args)


@task
def gsm8k_original(**task_args: Any) -> Task:
    """GSM8K's test split (the baseline every variant is paired with)."""
    return _variant("gsm8k_original", task_args)


@task
def gsm8k_platinum(**task_args: Any) -> Task:
    """GSM8K-Platinum: the test split with flawed questions removed and labels fixed."""
    return _variant("gsm8k_platinum", task_args)


@task
def gsm_symbolic(**task_args: Any) -> Task:
    """GSM-Symbolic: 100 test questions as templates, 50 draws each."""
    return _variant("gsm_symbolic", task_args)


@task
def gsm_symbolic_p1(**task_args: Any) -> Task:
    """GSM-Symbolic P1: one added clause."""
    return _variant("gsm_symbolic_p1", task_args)


@task
def gsm_symbolic_p2(**task_args: Any) -> Task:
    """GSM-Symbolic P2: two added clauses."""
    return _variant("gsm_symbolic_p2", task_args)


@task
def gsm_plus(**task_args: Any) -> Task:
    """GSM-Plus: eight perturbations of each test question."""
    return _variant("gsm_plus", task_args)


@task
def gsm_plus_mini(**task_args: Any) -> Task:
    """GSM-Plus testmini: its 2,400-item subset."""
    return _variant("gsm_plus_mini", task_args)
