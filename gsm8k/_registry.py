"""Entry point for Inspect: the tasks (``inspect eval gsm8k/gsm8k``, ``gsm8k/gsm8k_memorization``),
the grader (``inspect score LOG --scorer gsm8k/gsm8k_grader``), the majority-vote reducer, the
in-process ``gguf/`` model provider and the ``plumbing-demo/`` scripted tool-calling demo,
registered when Inspect loads installed extensions."""

from inspect_ai._eval.registry import task_register
from inspect_ai._util.registry import registry_info
from inspect_ai.scorer._scorer import scorer_register

from gsm8k.contamination.memorization import gsm8k_memorization
from gsm8k.grading.scorer import gsm8k_grader
from gsm8k.local.provider import gguf
from gsm8k.mcp_tools.demo import plumbing_demo
from gsm8k.metrics.reducers import majority_answer
from gsm8k.task import gsm8k

TASK_NAME = "gsm8k/gsm8k"
MEMORIZATION_TASK_NAME = "gsm8k/gsm8k_memorization"
SCORER_NAME = "gsm8k/gsm8k_grader"

# Inspect namespaces a task by its distribution's name, which it finds only for a regular install:
# under `pip install -e .` the task registers as plain `gsm8k` and `gsm8k/gsm8k` would not resolve.
_info = registry_info(gsm8k)
if _info.name != TASK_NAME:
    task_register(gsm8k, TASK_NAME, _info.metadata["attribs"], _info.metadata["params"])
_probe_info = registry_info(gsm8k_memorization)
if _probe_info.name != MEMORIZATION_TASK_NAME:
    task_register(
        gsm8k_memorization,
        MEMORIZATION_TASK_NAME,
        _probe_info.metadata["attribs"],
        _probe_info.metadata["params"],
    )
# The same for the grader, which `inspect score` finds by this name (scores keep the plain name).
_scorer_info = registry_info(gsm8k_grader)
if _scorer_info.name != SCORER_NAME:
    scorer_register(gsm8k_grader, SCORER_NAME, _scorer_info.metadata)

__all__ = [
    "gguf",
    "gsm8k",
    "gsm8k_grader",
    "gsm8k_memorization",
    "majority_answer",
    "plumbing_demo",
]
