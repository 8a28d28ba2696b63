"""Checks on the task's parameters, run before any data is read: each error names the parameter
and says what to pass instead."""

from __future__ import annotations

from typing import Literal, get_args

from gsm8k.data.family.sources import MGSM_LANGUAGES, VARIANTS, is_variant
from gsm8k.prompting.fewshot import PLACEMENTS, Placement

Mode = Literal["cot", "pal"]
Tools = Literal["none", "calculator", "python"]


def validate_parameters(
    fewshot: int, fewshot_seed: int, placement: str, votes: int, mode: str, tools: str
) -> None:
    """Refuse values of the general parameters that the task cannot run with.

    Raises:
        ValueError: naming the parameter, its value and what it accepts.
    """
    if isinstance(fewshot, bool) or not isinstance(fewshot, int) or fewshot < 0:
        raise ValueError(f"fewshot={fewshot!r}: pass a whole number of examples, 0 or more.")
    if isinstance(fewshot_seed, bool) or not isinstance(fewshot_seed, int) or fewshot_seed < 0:
        # numpy would take True as 1 and refuse a negative seed with a message naming no parameter.
        raise ValueError(f"fewshot_seed={fewshot_seed!r}: pass a whole number, 0 or more.")
    if placement not in get_args(Placement):
        raise ValueError(f"placement={placement!r}: choose one of {', '.join(PLACEMENTS)}.")
    if isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
        raise ValueError(f"votes={votes!r}: pass 1 or more completions per question.")
    if mode not in get_args(Mode):
        raise ValueError(f"mode={mode!r}: choose cot (reasoning in text) or pal (a program).")
    if tools not in get_args(Tools):
        raise ValueError(f"tools={tools!r}: choose one of {', '.join(get_args(Tools))}.")
    if mode == "pal" and tools != "none":
        raise ValueError("tools= applies to mode=cot; mode=pal already runs the model's program.")


def validate_family(
    source: str, language: str | None, mode: str, tools: str, fewshot_dataset: str | None
) -> None:
    """Refuse combinations that a GSM-family dataset cannot run with (MGSM's ``language``, its
    own exemplars; GSM-Plus's unanswerable items in ``pal`` mode).

    Raises:
        ValueError: naming the parameter and the dataset it conflicts with.
    """
    if source == "mgsm":
        if language not in MGSM_LANGUAGES:
            raise ValueError(
                f"language={language!r}: dataset=mgsm needs one of {', '.join(MGSM_LANGUAGES)}."
            )
        if mode != "cot" or tools != "none":
            raise ValueError(
                "dataset=mgsm runs with mode=cot and tools=none: its prompt is MGSM's own "
                "exemplars in the question's language."
            )
        if fewshot_dataset is not None:
            raise ValueError(
                "fewshot_dataset does not apply to dataset=mgsm: its exemplars are MGSM's own "
                "for the chosen language."
            )
    elif language is not None:
        raise ValueError(f"language={language!r} applies to dataset=mgsm only.")
    if is_variant(source) and VARIANTS[source].family == "plus" and mode == "pal":
        raise ValueError(
            f"dataset={source} runs with mode=cot: a program cannot say that a question has no "
            "answer, and some GSM-Plus answers are fractions."
        )
