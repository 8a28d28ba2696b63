"""A preset's solvers, scorers and generation settings, and the rule for parameters it fixes.

The rule: a preset fixes its prompt, exemplars and answer format. Parameters the original itself
lets a user change may still be given and mean what they mean there: ``fewshot`` (lm-eval's
``--num_fewshot``, inspect_evals' ``-T fewshot``), ``fewshot_seed`` (lm-eval's
``--fewshot_random_seed``, inspect_evals' ``-T fewshot_seed``), ``placement`` among the
original's own (lm-eval: ``user`` or ``turns``), and ``fewshot_dataset`` where exemplars come
from a train split. Anything else that would change the prompt (``mode``, ``tools``,
``calculator_annotations``, a zero-shot preset with exemplars, a seed for fixed exemplars) is an
error naming the parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Solver, generate

import gsm8k.prompting.presets.inspect_evals_gsm8k as inspect_evals
import gsm8k.prompting.presets.lm_evaluation_harness as lm_eval
import gsm8k.prompting.presets.simple_evals_mgsm as simple_evals
import gsm8k.prompting.presets.zero_shot_cot as kojima
from gsm8k.data.family.samples import normalize_question
from gsm8k.data.splits import LoadedSplit
from gsm8k.prompting.fewshot import Placement
from gsm8k.prompting.presets.lookup import Lookup
from gsm8k.prompting.presets.registry import DEFAULT_PRESET, Preset, get_preset

LM_EVAL_TASKS = {
    "lm-eval-gsm8k": lm_eval.GSM8K,
    "lm-eval-gsm8k-cot": lm_eval.GSM8K_COT,
    "lm-eval-gsm8k-cot-zeroshot": lm_eval.GSM8K_COT_ZEROSHOT,
}
TRAIN_PRESETS = frozenset({"lm-eval-gsm8k", "inspect-evals"})
"""Presets whose exemplars are drawn from a train split (``fewshot_dataset`` applies)."""
ANNOTATED_PRESETS = TRAIN_PRESETS
"""Presets that show GSM8K's solutions with their calculator annotations."""


@dataclass(frozen=True)
class PresetChoice:
    """A preset with the parameters it was given, resolved."""

    preset: Preset
    fewshot: int
    fewshot_seed: int | None
    placement: Placement


@dataclass
class PresetSetup:
    """What the task runs for a preset."""

    solvers: list[Solver]
    scorers: list[Scorer]
    """The original's own scoring rule; the task puts its exact grader before them."""
    config: GenerateConfig
    metadata: dict[str, Any] = field(default_factory=dict)
    exemplar_split: LoadedSplit | None = None


def choose_preset(
    name: str,
    *,
    fewshot: int | None,
    fewshot_seed: int | None,
    placement: str | None,
    fewshot_dataset: str | None,
    calculator_annotations: bool,
    mode: str,
    tools: str,
    source: str,
) -> PresetChoice | None:
    """The preset and its resolved parameters; ``None`` for the task's own prompt.

    Raises:
        ValueError: one line naming the parameter that the preset does not allow.
    """
    preset = get_preset(name)
    if preset is None:
        return None
    where = f"preset={name}"
    fixed = (
        ("mode", mode, "cot"),
        ("tools", tools, "none"),
        ("calculator_annotations", calculator_annotations, False),
    )
    for parameter, value, allowed in fixed:
        if value != allowed:
            raise ValueError(
                f"{parameter}={value!r}: {where} reproduces {preset.origin} as published; "
                f"leave {parameter} unset, or use preset={DEFAULT_PRESET}."
            )
    if preset.mgsm != (source == "mgsm"):
        wanted = "dataset=mgsm" if preset.mgsm else "a GSM8K-format dataset (not mgsm)"
        raise ValueError(f"dataset={source}: {where} runs on {wanted}.")
    if fewshot_dataset is not None and name not in TRAIN_PRESETS:
        raise ValueError(
            f"fewshot_dataset={fewshot_dataset!r}: {where} shows fixed exemplars, not train "
            "records."
        )
    shots = preset.fewshot if fewshot is None else fewshot
    if isinstance(shots, bool) or not isinstance(shots, int) or shots < 0:
        raise ValueError(f"fewshot={fewshot!r}: pass a whole number of examples, 0 or more.")
    if preset.max_fewshot is not None and shots > preset.max_fewshot:
        limit = "is zero-shot" if preset.max_fewshot == 0 else f"has {preset.max_fewshot} exemplars"
        raise ValueError(f"fewshot={shots}: {where} {limit}; pass fewshot={preset.max_fewshot}.")
    if fewshot_seed is not None and preset.fewshot_seed is None:
        raise ValueError(
            f"fewshot_seed={fewshot_seed!r}: {where} has no seed (its exemplars are fixed)."
        )
    seed = preset.fewshot_seed if fewshot_seed is None else fewshot_seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"fewshot_seed={fewshot_seed!r}: pass a whole number, 0 or more.")
    chosen = next(iter(preset.placements)) if placement is None else placement
    if chosen not in preset.placements:
        raise ValueError(
            f"placement={placement!r}: {where} places its prompt as "
            f"{' or '.join(preset.placements)}."
        )
    return PresetChoice(preset, shots, seed, chosen)


def build_preset(
    choice: PresetChoice,
    samples: Sequence[Sample],
    evaluation: LoadedSplit,
    train: Callable[[], LoadedSplit],
    language: str | None,
    forbidden: frozenset[str] = frozenset(),
) -> PresetSetup:
    """The solvers, scorers and settings of a chosen preset for these samples.

    Args:
        samples: The evaluated samples, in the dataset's order (lm-eval's draws follow it).
        evaluation: The records the samples came from (Kojima's rule reads their golds).
        train: Loads the train split exemplars are drawn from.
        language: MGSM's language (``simple-evals-mgsm``).
        forbidden: Normalized questions no exemplar may be (the evaluated ones).

    Raises:
        ValueError: the train split is too small, or shows an evaluated question.
    """
    preset, name = choice.preset, choice.preset.name
    split: LoadedSplit | None = None
    solvers: list[Solver]
    scorers: list[Scorer]
    config = preset.generation  # the original's request settings, the run's defaults
    if name in LM_EVAL_TASKS:
        task = LM_EVAL_TASKS[name]
        by_id: dict[int | str, list[tuple[str, str]]]
        if name == "lm-eval-gsm8k" and choice.fewshot > 0:
            split = _train(train, choice.fewshot)
            shots = lm_eval.train_exemplars(split.records)
            draws = lm_eval.fewshot_draws(
                int(choice.fewshot_seed or 0), len(shots), choice.fewshot, len(samples)
            )
            _check_unseen(split, {i for draw in draws for i in draw}, name, forbidden)
            by_id = {_id(s): [shots[i] for i in d] for s, d in zip(samples, draws, strict=True)}
        else:
            fixed = lm_eval.wei_exemplars()[: choice.fewshot] if choice.fewshot else []
            by_id = {_id(sample): fixed for sample in samples}
        summary = f"{choice.fewshot} exemplars per item, {_how(name, choice)}, {len(by_id)} items"
        table = Lookup(by_id, summary)
        solvers = [lm_eval.lm_eval_prompt(task, table, choice.placement), generate()]
        scorers = [lm_eval.lm_eval_strict_match(task), lm_eval.lm_eval_flexible_extract(task)]
        config = task.config()  # the preset's settings and this task's stop strings
    elif name == "inspect-evals":
        block = ""
        if choice.fewshot > 0:
            split = _train(train, choice.fewshot)
            seed = int(choice.fewshot_seed or 0)
            chosen = inspect_evals.chosen_indices(len(split.records), choice.fewshot, seed)
            _check_unseen(split, set(chosen), name, forbidden)
            block = inspect_evals.exemplar_block(split.records, chosen)
        solvers = [inspect_evals.inspect_evals_prompt(block), generate()]
        scorers = []  # its rule, match(numeric=True), is the grader's own `match` score
    elif name == "kojima-zero-shot-cot":
        golds = _golds_as_written(samples, evaluation)
        solvers = [kojima.zero_shot_cot_two_stage()]
        scorers = [kojima.kojima_match(Lookup(golds, f"golds as written, {len(golds)} items"))]
    else:
        instruction = simple_evals.instruction_for(str(language))
        solvers = [simple_evals.simple_evals_mgsm_prompt(instruction), generate()]
        scorers = [simple_evals.simple_evals_mgsm_match(instruction.answer_prefix)]
    return PresetSetup(
        solvers=solvers,
        scorers=scorers,
        config=config,
        metadata={
            "preset": name,
            "preset_origin": preset.origin,
            "fewshot_source": preset.fewshot_source if choice.fewshot else "none (zero-shot)",
            "original_rule": preset.original_rule,
            "calculator_annotations": name in ANNOTATED_PRESETS and choice.fewshot > 0,
        },
        exemplar_split=split,
    )


def _how(name: str, choice: PresetChoice) -> str:
    if name == "lm-eval-gsm8k":
        return f"drawn from train with random.Random({choice.fewshot_seed})"
    return "Wei et al. 2022"


def _id(sample: Sample) -> int | str:
    if sample.id is None:
        raise ValueError("a preset needs sample ids: every sample of this task has one.")
    return sample.id


def _train(train: Callable[[], LoadedSplit], shots: int) -> LoadedSplit:
    split = train()
    if shots > len(split.records):
        raise ValueError(
            f"fewshot={shots}: the train split at {split.location} has only "
            f"{len(split.records)} records; pass fewshot={len(split.records)} or fewer."
        )
    return split


def _check_unseen(split: LoadedSplit, used: set[int], name: str, forbidden: frozenset[str]) -> None:
    """No exemplar shown may be an evaluated question (or the original of an evaluated item)."""
    for row in sorted(used):
        record = split.records[row]
        for key in ("question", "answer"):
            if not isinstance(record.get(key), str):
                raise ValueError(
                    f"{split.location} record {row}: an exemplar needs a '{key}' text."
                )
        if normalize_question(str(record["question"])) in forbidden:
            raise ValueError(
                f"fewshot_dataset: train record {row} of {split.location} is an evaluated "
                f"question; preset={name} needs exemplars from a separate split."
            )


def _golds_as_written(samples: Sequence[Sample], evaluation: LoadedSplit) -> dict[int | str, str]:
    """Each sample's gold as its record writes it (``#### 1,450,000`` gives ``1,450,000``), for
    the rules that compare text; samples whose record has no such answer keep their target."""
    golds: dict[int | str, str] = {}
    if len(evaluation.records) != len(samples):
        return golds
    for sample, record in zip(samples, evaluation.records, strict=True):
        answer = record.get("answer")
        if sample.id is not None and isinstance(answer, str) and kojima.GOLD_DELIMITER in answer:
            golds[sample.id] = kojima.gold_as_written(answer)
    return golds
