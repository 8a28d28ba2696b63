from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from datasets import Dataset
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import TaskState

from gsm8k.prompting.fewshot import select_indices, strip_annotations
from gsm8k.task import gsm8k


def prompt_messages(task_dataset: str, **params: object) -> list[list[object]]:
    """The messages the task's solver builds for every sample, without calling a model."""
    task = gsm8k(dataset=task_dataset, **params)  # type: ignore[arg-type]
    fewshot_solver = task.solver[0]  # type: ignore[index]
    out = []
    for sample in task.dataset:
        state = TaskState(
            model="mockllm/model",
            sample_id=sample.id or 0,
            epoch=1,
            input=sample.input,  # type: ignore[arg-type]
            messages=[ChatMessageUser(content=str(sample.input))],
            target=None,  # type: ignore[arg-type]
        )
        state = asyncio.run(fewshot_solver(state, None))  # type: ignore[arg-type]
        out.append(state.messages)
    return out


def test_same_seed_same_exemplars_other_seed_other_exemplars() -> None:
    assert select_indices(7473, 10, 42) == select_indices(7473, 10, 42)
    assert select_indices(7473, 10, 42) != select_indices(7473, 10, 7)
    assert len(set(select_indices(7473, 10, 42))) == 10


def test_selection_matches_hf_shuffle_used_by_inspect_hf_dataset() -> None:
    # Inspect's hf_dataset(shuffle=True, seed=s, limit=k) takes the first k rows of
    # datasets.Dataset.shuffle(seed=s): the same exemplars must come out.
    population = 500
    shuffled = Dataset.from_dict({"i": list(range(population))}).shuffle(seed=42)
    assert select_indices(population, 10, 42) == shuffled["i"][:10]


def test_annotations_are_stripped_but_numbers_kept() -> None:
    assert strip_annotations("48/2 = <<48/2=24>>24 clips") == "48/2 = 24 clips"


@pytest.mark.parametrize("placement", ["user", "system", "turns"])
def test_prefix_before_the_question_is_identical_for_every_sample(
    mini_data: Path, placement: str
) -> None:
    prompts = prompt_messages(str(mini_data), fewshot=3, placement=placement)
    first, second = prompts[0], prompts[1]
    assert [m.role for m in first] == [m.role for m in second]  # type: ignore[attr-defined]
    # Everything except the final user message is shared, and that message differs only after
    # the last "Question:" marker.
    assert [m.text for m in first[:-1]] == [m.text for m in second[:-1]]  # type: ignore[attr-defined]
    assert first[-1].text.rsplit("Question:", 1)[0] == second[-1].text.rsplit("Question:", 1)[0]  # type: ignore[attr-defined]


def test_user_placement_puts_exemplars_then_question_in_one_user_message(mini_data: Path) -> None:
    messages = prompt_messages(str(mini_data), fewshot=2, placement="user")[0]
    assert len(messages) == 1 and isinstance(messages[0], ChatMessageUser)
    text = messages[0].text
    assert text.count("Question:") == 3 and text.count("ANSWER:") >= 3
    assert text.rstrip().endswith("How much does she make?")
    assert "<<" not in text


def test_system_placement_keeps_exemplars_in_system_message(mini_data: Path) -> None:
    messages = prompt_messages(str(mini_data), fewshot=2, placement="system")[0]
    assert isinstance(messages[0], ChatMessageSystem) and isinstance(messages[1], ChatMessageUser)
    assert messages[0].text.count("Question:") == 2
    assert messages[1].text.count("Question:") == 1


def test_turns_placement_alternates_user_and_assistant(mini_data: Path) -> None:
    messages = prompt_messages(str(mini_data), fewshot=3, placement="turns")[0]
    assert [type(m) for m in messages] == [ChatMessageUser, ChatMessageAssistant] * 3 + [
        ChatMessageUser
    ]
    for assistant in messages[1:-1:2]:
        assert assistant.text.splitlines()[-1].startswith("ANSWER: ")


def test_zero_shot_is_a_single_chain_of_thought_prompt(mini_data: Path) -> None:
    messages = prompt_messages(str(mini_data), fewshot=0)[0]
    assert len(messages) == 1
    assert "step by step" in messages[0].text and "ANSWER: $NUMBER" in messages[0].text  # type: ignore[attr-defined]


def test_calculator_annotations_kept_on_request(mini_data: Path) -> None:
    text = prompt_messages(str(mini_data), fewshot=12, calculator_annotations=True)[0][0].text  # type: ignore[attr-defined]
    assert "<<" in text


def test_exemplars_never_come_from_the_evaluation_split(mini_data: Path) -> None:
    with pytest.raises(ValueError, match="also in the evaluation set"):
        gsm8k(dataset=str(mini_data / "train.jsonl"), fewshot_dataset=str(mini_data), fewshot=3)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        pytest.param({"fewshot": -1}, "fewshot=-1", id="negative-fewshot"),
        pytest.param({"fewshot_seed": True}, "fewshot_seed=True: pass a whole", id="bool-seed"),
        pytest.param({"fewshot_seed": -3}, "fewshot_seed=-3: pass a whole", id="negative-seed"),
        pytest.param({"fewshot_seed": 4.5}, "fewshot_seed=4.5: pass a whole", id="float-seed"),
        pytest.param({"fewshot_seed": "42"}, "fewshot_seed='42': pass a whole", id="text-seed"),
        pytest.param({"fewshot": 13}, "has only 12 records", id="fewshot-larger-than-train"),
        pytest.param(
            {"placement": "assistant"},
            "placement='assistant': choose one of user, system, turns",
            id="unknown-placement",
        ),
        pytest.param({"votes": 0}, "votes=0", id="zero-votes"),
        pytest.param({"dataset": "gsm8k-diamond"}, "neither a known dataset", id="unknown-variant"),
    ],
)
def test_bad_parameters_are_rejected_before_any_model_call(
    mini_data: Path, params: dict[str, object], message: str
) -> None:
    params.setdefault("dataset", str(mini_data))
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        gsm8k(**params)  # type: ignore[arg-type]
