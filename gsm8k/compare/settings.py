"""What identifies a run: every setting that can change a model's outputs, and nothing else.

Two logs belong to the same run when they share the model and every output-affecting setting;
runs that differ in any of them are different experiments and are flagged before ranking. Settings
that only change how a run was executed (concurrency, retries, timeouts, logging) are ignored, so an
eval resumed with more connections still merges with its first attempt.

Inspect's ``GenerateConfig`` and ``EvalConfig`` fields are classified explicitly below. A field this
module does not know (one a newer Inspect adds) counts as output-affecting: an unknown setting can
only split runs apart, never silently merge two different experiments.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.log import EvalLog

# GenerateConfig fields that change what the model writes (or which model writes it).
GENERATION_OUTPUT_FIELDS = frozenset(
    {
        "system_message",
        "max_tokens",
        "top_p",
        "temperature",
        "stop_seqs",
        "best_of",
        "frequency_penalty",
        "presence_penalty",
        "logit_bias",
        "seed",
        "top_k",
        "num_choices",
        "parallel_tool_calls",
        "internal_tools",
        "max_tool_output",  # tool results the model reads are cut at this size
        "fallback_models",  # a refusal is answered by another model
        "verbosity",
        "effort",
        "reasoning_effort",
        "reasoning_mode",
        "reasoning_tokens",
        "reasoning_summary",
        "reasoning_history",
        "response_schema",
        "extra_body",  # provider sampling options (e.g. a server's repeat_penalty) travel here
        "modalities",
    }
)

# GenerateConfig fields that change how requests are made, not what comes back.
GENERATION_OPERATIONAL_FIELDS = frozenset(
    {
        "max_retries",
        "timeout",
        "attempt_timeout",
        "stream_idle_timeout",
        "max_connections",
        "adaptive_connections",
        "logprobs",  # extra information returned alongside the same text
        "top_logprobs",
        "prompt_logprobs",
        "cache_prompt",  # provider prefix caching: same outputs, cheaper
        "fail_on_refusal",  # a refusal becomes a failed sample; sample sets show that
        "extra_headers",  # routing and authentication
        "cache",  # Inspect's response cache replays outputs of the same request
        "batch",  # the provider's batch API serves the same model
    }
)

# EvalConfig fields that change outputs. Sample selection (limit, sample_id) is not identity:
# an interrupted run and its completion cover different samples of the same experiment, and
# differing sample sets are reported separately.
EVAL_OUTPUT_FIELDS = frozenset(
    {
        "epochs",
        "approval",  # tool calls may be refused
        "review",
        "sentinel",
        "message_limit",
        "token_limit",
        "token_limit_type",
        "turn_limit",
        "time_limit",
        "working_limit",
        "cost_limit",
    }
)

EVAL_OPERATIONAL_FIELDS = frozenset(
    {
        "limit",
        "sample_id",
        "sample_shuffle",
        "epochs_reducer",  # this report reduces epochs itself
        "notification",
        "fail_on_error",
        "continue_on_fail",
        "retry_on_error",
        "score_on_error",  # samples with errors are never counted here
        "max_samples",
        "max_dataset_memory",
        "max_tasks",
        "max_subprocesses",
        "max_sandboxes",
        "sandbox_cleanup",
        "sandbox_prebuilt",
        "log_samples",
        "log_realtime",
        "log_images",
        "log_model_api",
        "log_buffer",
        "log_shared",
        "score_display",
        "acp_server",
    }
)

# Task settings (from the task's metadata and arguments) that do not change outputs.
TASK_OPERATIONAL_SETTINGS = frozenset(
    {
        "sandbox",  # which isolation ran model-written code: see `code_isolation` below
        "trust_model_code",  # an opt-in; what it led to is recorded as `code_isolation`
        "votes",  # recorded as `epochs`
    }
)

CODE_ISOLATION = "code_isolation"
ISOLATED = "isolated"
"""Model-written code run in isolation (bubblewrap or an Inspect sandbox), under the same
limits, is graded alike wherever it ran; code run as a trusted local process can read files
(the answers included), so such a run is a different experiment and keeps its own value."""

# Model arguments (``-M``) that only change speed or connection; any other model argument (a
# repeat penalty, a context size, a chat template) is output-affecting. The gguf provider's
# thread count is speed only: llama.cpp computes each value on one thread, and greedy text is the
# same on 1, 2 and 3 threads (gsm8k.local.threads; tests/test_local_determinism.py).
MODEL_ARGS_OPERATIONAL = frozenset(
    {"verbose", "api_key", "base_url", "timeout", "max_retries", "n_threads"}
)

MODEL_ARGS_PREFIX = "model_args."
"""Model arguments appear in a run's settings as ``model_args.<name>``."""

# Shown first, in this order, in reports; other task settings follow alphabetically.
TASK_SETTINGS_ORDER = (
    "dataset",
    "dataset_revision",
    "dataset_sha256",
    "split",
    "fewshot",
    "fewshot_seed",
    "fewshot_dataset",
    "fewshot_revision",
    "placement",
    "calculator_annotations",
    "mode",
    "tools",
    "task_version",
)


def task_settings(log: EvalLog) -> dict[str, Any]:
    """The task's output-affecting settings: its metadata (which records resolved values, such as
    the dataset's location and checksum), task arguments the metadata does not record, and the
    task version."""
    metadata = dict(log.eval.metadata or {})
    settings = {
        name: value for name, value in metadata.items() if name not in TASK_OPERATIONAL_SETTINGS
    }
    for name, value in (log.eval.task_args or {}).items():
        if name not in metadata and name not in TASK_OPERATIONAL_SETTINGS:
            settings[name] = value
    isolation = settings.get(CODE_ISOLATION)
    if isolation == "bwrap" or str(isolation).startswith("inspect sandbox"):
        settings[CODE_ISOLATION] = ISOLATED
    settings["task_version"] = str(log.eval.task_version)
    return _ordered(settings, TASK_SETTINGS_ORDER)


def generation_settings(log: EvalLog) -> dict[str, Any]:
    """Output-affecting generation and eval settings that were set (unset means the provider's
    or Inspect's default). The eval's config (task and command line) overrides the model's own,
    as Inspect resolves it for the model under evaluation."""
    config = log.plan.config if log.plan else None
    model_config = log.eval.model_generate_config
    merged = model_config.merge(config) if config else model_config
    generation = merged.model_dump(exclude_none=True)
    settings = {
        name: value
        for name, value in generation.items()
        if name not in GENERATION_OPERATIONAL_FIELDS
    }
    eval_config = log.eval.config.model_dump(exclude_none=True)
    settings |= {
        name: value for name, value in eval_config.items() if name not in EVAL_OPERATIONAL_FIELDS
    }
    settings.setdefault("epochs", 1)
    return dict(sorted(settings.items()))


def model_args(log: EvalLog) -> dict[str, Any]:
    """Output-affecting model arguments, named ``model_args.<name>``."""
    return {
        f"{MODEL_ARGS_PREFIX}{name}": value
        for name, value in sorted((log.eval.model_args or {}).items())
        if name not in MODEL_ARGS_OPERATIONAL
    }


def provider(model: str) -> str:
    """The provider part of an Inspect model name (``gguf`` in ``gguf/smollm2``): model
    arguments mean something only within one provider."""
    return model.split("/", 1)[0]


def _ordered(settings: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    known = [name for name in order if name in settings]
    rest = sorted(name for name in settings if name not in order)
    return {name: settings[name] for name in known + rest}
