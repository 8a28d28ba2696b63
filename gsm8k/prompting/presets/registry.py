"""The standard GSM8K setups this task reproduces, by name, and what each fixes.

A preset is another harness's prompt, exemplars and answer format, rendered byte for byte, with
that harness's own scoring rule reported beside this project's grader. ``default`` is this task's
own prompt. The names are what ``-T preset=NAME`` takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_ai.model import GenerateConfig

from gsm8k.prompting.fewshot import Placement

DEFAULT_PRESET = "default"


@dataclass(frozen=True)
class Preset:
    """What a preset fixes, and what of it a user may still change."""

    name: str
    origin: str
    """The harness (with version or commit) and task whose prompt this reproduces."""
    fewshot: int
    """Exemplars shown by default."""
    max_fewshot: int | None
    """Most exemplars the original can show (``None``: as many as its source has)."""
    fewshot_source: str
    """Where the exemplars come from and how they are picked, for the methods card."""
    fewshot_seed: int | None
    """The seed that picks the exemplars (``None``: no seed, the exemplars are fixed)."""
    placements: dict[Placement, str]
    """Placements the original has (the first is the default), each with how the prompt then
    reaches the model, for the methods card."""
    original_rule: str
    """The original's own scoring rule, reported beside this project's grader."""
    mgsm: bool = False
    """Whether the preset is MGSM's (``dataset=mgsm``) rather than GSM8K's."""
    generation: GenerateConfig = field(default_factory=GenerateConfig)
    """What the original sends with every request (the run's defaults; the command line's
    ``--max-tokens``, ``--seed``, ``--temperature``, ``--system-message`` override them)."""
    generation_source: str = ""
    """Where the original sets them (file and setting), for the methods card."""


LM_EVAL = "lm-evaluation-harness 0.4.13"
LM_EVAL_NUMBER_RULE = (
    "flexible-extract: last match of (-?[$0-9.,]{2,})|(-?[0-9]+); both exact_match after "
    "removing ',', '$', everything up to '#### ' and a final '.', ignoring case; generation "
    "stops at the task's `until` strings"
)

LM_EVAL_PLACEMENTS: dict[Placement, str] = {
    "user": (
        "the whole context as one user message (lm-eval --apply_chat_template "
        "--fewshot_as_multiturn false; a base model without a chat template reads the same text)"
    ),
    "turns": (
        "exemplars as user/assistant turns (lm-eval --apply_chat_template, which turns "
        "--fewshot_as_multiturn on unless it is set to false)"
    ),
}
LM_EVAL_MAX_GEN_TOKS = 256
"""lm-eval's API models' ``max_gen_toks`` (the GSM8K tasks set none of their own)."""
LM_EVAL_SEED = 1234
"""The ``seed`` lm-eval's API models put in every request."""
LM_EVAL_GENERATION = GenerateConfig(
    max_tokens=LM_EVAL_MAX_GEN_TOKS, seed=LM_EVAL_SEED, temperature=0.0
)
LM_EVAL_GENERATION_SOURCE = (
    "lm_eval/models/api_models.py (max_gen_toks=256, seed=1234) and openai_completions.py "
    "(temperature 0 unless the task sets one; the task's until strings as stop)"
)
KOJIMA_REASONING_MAX_TOKENS = 128
"""Kojima et al.'s ``--max_length_cot`` (the answer step's ``--max_length_direct`` is 32)."""
SIMPLE_EVALS_SYSTEM_MESSAGE = "You are a helpful assistant."
"""simple-evals' ``OPENAI_SYSTEM_MESSAGE_API``, which its published GPT-4o samplers send."""

PRESETS: dict[str, Preset] = {
    "lm-eval-gsm8k": Preset(
        name="lm-eval-gsm8k",
        origin=f"{LM_EVAL}, task gsm8k",
        fewshot=5,
        max_fewshot=None,
        fewshot_source=(
            "GSM8K train, solutions as written (calculator annotations and '#### N' kept); "
            "each test item gets its own draw: item k takes the (k+1)-th "
            "random.Random(seed).sample(train, n), the order lm-eval builds its requests in"
        ),
        fewshot_seed=1234,
        placements=LM_EVAL_PLACEMENTS,
        generation=LM_EVAL_GENERATION,
        generation_source=LM_EVAL_GENERATION_SOURCE,
        original_rule=f"strict-match: first '#### (-?[0-9.,]+)'; {LM_EVAL_NUMBER_RULE}",
    ),
    "lm-eval-gsm8k-cot": Preset(
        name="lm-eval-gsm8k-cot",
        origin=f"{LM_EVAL}, task gsm8k_cot",
        fewshot=8,
        max_fewshot=8,
        fewshot_source=(
            "the 8 fixed chain-of-thought exemplars of Wei et al. 2022 (lm-eval's first_n "
            "sampler: the first n, in the paper's order)"
        ),
        fewshot_seed=None,
        placements=LM_EVAL_PLACEMENTS,
        generation=LM_EVAL_GENERATION,
        generation_source=LM_EVAL_GENERATION_SOURCE,
        original_rule=(f"strict-match: first 'The answer is (-?[0-9.,]+).'; {LM_EVAL_NUMBER_RULE}"),
    ),
    "lm-eval-gsm8k-cot-zeroshot": Preset(
        name="lm-eval-gsm8k-cot-zeroshot",
        origin=f"{LM_EVAL}, task gsm8k_cot_zeroshot",
        fewshot=0,
        max_fewshot=0,
        fewshot_source="none (zero-shot)",
        fewshot_seed=None,
        placements={
            "user": "one user message 'Q: <question>\\nA: Let's think step by step.', one "
            "generation"
        },
        generation=LM_EVAL_GENERATION,
        generation_source=LM_EVAL_GENERATION_SOURCE,
        original_rule=(f"strict-match: first 'The answer is (-?[0-9.,]+).'; {LM_EVAL_NUMBER_RULE}"),
    ),
    "kojima-zero-shot-cot": Preset(
        name="kojima-zero-shot-cot",
        origin=(
            "Kojima et al. 2022, kojima-takeshi188/zero_shot_cot (commit 5ef330f), "
            "method zero_shot_cot"
        ),
        fewshot=0,
        max_fewshot=0,
        fewshot_source="none (zero-shot)",
        fewshot_seed=None,
        placements={
            "user": "two generations: 'Q: <question>\\nA: Let's think step by step.' as one "
            "user message, then that prompt, the reasoning and ' \\nTherefore, the answer "
            "(arabic numerals) is' as one user message (answer extraction, at most 32 tokens)"
        },
        original_rule=(
            "first -?\\d+\\.?\\d* in the answer-extraction output after removing ',', a "
            "final '.' dropped, compared as text with the gold as GSM8K writes it (commas "
            "kept, so golds such as 1,450,000 never match)"
        ),
        generation=GenerateConfig(temperature=0.0, max_tokens=KOJIMA_REASONING_MAX_TOKENS),
        generation_source=(
            "utils.py decoder_for_gpt3 (temperature=0) and main.py (--max_length_cot 128 for "
            "the reasoning, --max_length_direct 32 for the answer step)"
        ),
    ),
    "inspect-evals": Preset(
        name="inspect-evals",
        origin="inspect_evals 0.26.0, task gsm8k",
        fewshot=10,
        max_fewshot=None,
        fewshot_source=(
            "GSM8K train, solutions as written (calculator annotations kept); the first n of "
            "the train split shuffled with datasets' shuffle(seed) "
            "(numpy.random.default_rng(seed).permutation), the same for every item"
        ),
        fewshot_seed=42,
        placements={
            "system": "exemplars in a system message, the question in inspect_evals' user "
            "prompt (ends 'Reasoning:')"
        },
        original_rule="inspect_ai match(numeric=True): the last number, compared numerically",
        generation_source="inspect_evals 0.26.0's gsm8k task, which sets no generation options",
    ),
    "simple-evals-mgsm": Preset(
        name="simple-evals-mgsm",
        origin="openai/simple-evals (commit ee3b031), mgsm_eval.py",
        fewshot=0,
        max_fewshot=0,
        fewshot_source="none (zero-shot)",
        fewshot_seed=None,
        placements={"user": "one user message: the language's instruction, then the question"},
        original_rule=(
            "text after the last answer label (e.g. 'Answer'), commas removed, its last "
            "\\d+\\.?\\d*, trailing zeros of a decimal dropped, compared as text with the gold"
        ),
        mgsm=True,
        generation=GenerateConfig(
            temperature=0.5, max_tokens=2048, system_message=SIMPLE_EVALS_SYSTEM_MESSAGE
        ),
        generation_source=(
            "sampler/chat_completion_sampler.py (temperature 0.5) and simple_evals.py (the "
            "GPT-4o samplers behind its published MGSM figures: max_tokens=2048, system "
            "message 'You are a helpful assistant.')"
        ),
    ),
}


def preset_names() -> tuple[str, ...]:
    """Every name ``preset`` takes, the task's own first."""
    return (DEFAULT_PRESET, *PRESETS)


def get_preset(name: str) -> Preset | None:
    """The preset called ``name``; ``None`` for the task's own prompt.

    Raises:
        ValueError: one line naming the parameter and every valid name.
    """
    if name == DEFAULT_PRESET:
        return None
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"preset={name!r}: choose one of {', '.join(preset_names())}.")
    return PRESETS[name]
