"""Exact prompt presets of the standard GSM8K setups (``-T preset=NAME``)."""

from gsm8k.prompting.presets.build import PresetChoice, PresetSetup, build_preset, choose_preset
from gsm8k.prompting.presets.registry import (
    DEFAULT_PRESET,
    PRESETS,
    Preset,
    get_preset,
    preset_names,
)

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "Preset",
    "PresetChoice",
    "PresetSetup",
    "build_preset",
    "choose_preset",
    "get_preset",
    "preset_names",
]
