"""The prompt's settings once a preset's own values or the task's defaults are applied."""

from __future__ import annotations

from dataclasses import dataclass

from gsm8k.prompting.fewshot import Placement
from gsm8k.prompting.presets import PresetChoice


@dataclass(frozen=True)
class PromptSettings:
    """The prompt's settings once a preset's own values or the task's defaults are applied."""

    fewshot: int
    fewshot_seed: int | None
    """``None`` only for a preset whose original draws its exemplars its own way."""
    placement: Placement
    fewshot_dataset: str | None
    calculator_annotations: bool
    preset: PresetChoice | None = None
    """Another harness's setup (``-T preset=``); ``None`` for the task's own prompt."""
