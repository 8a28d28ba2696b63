"""The prompt's settings a run uses: a preset's own values where it has them, else the task's
defaults, every parameter checked before any data is read."""

from __future__ import annotations

from gsm8k.prompting.fewshot import Placement
from gsm8k.prompting.presets import choose_preset
from gsm8k.prompting.settings import PromptSettings
from gsm8k.settings.checks import Mode, Tools, validate_parameters

DEFAULT_FEWSHOT = 5
DEFAULT_FEWSHOT_SEED = 42
DEFAULT_PLACEMENT: Placement = "user"


def prompt_settings(
    preset: str,
    source: str,
    fewshot: int | None,
    fewshot_seed: int | None,
    placement: Placement | None,
    fewshot_dataset: str | None,
    calculator_annotations: bool,
    mode: Mode,
    tools: Tools,
    votes: int,
) -> PromptSettings:
    """The prompt's settings: a preset's own values where it has them, else the defaults; all
    parameters checked before any data is read."""
    choice = choose_preset(
        preset,
        fewshot=fewshot,
        fewshot_seed=fewshot_seed,
        placement=placement,
        fewshot_dataset=fewshot_dataset,
        calculator_annotations=calculator_annotations,
        mode=mode,
        tools=tools,
        source=source,
    )
    if choice is not None:
        fewshot, fewshot_seed, placement = choice.fewshot, choice.fewshot_seed, choice.placement
    fewshot = DEFAULT_FEWSHOT if fewshot is None else fewshot
    placement = DEFAULT_PLACEMENT if placement is None else placement
    seed = DEFAULT_FEWSHOT_SEED if fewshot_seed is None and choice is None else fewshot_seed
    validate_parameters(fewshot, 0 if seed is None else seed, placement, votes, mode, tools)
    return PromptSettings(fewshot, seed, placement, fewshot_dataset, calculator_annotations, choice)
