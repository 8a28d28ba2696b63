"""Presets: each renders its original's prompt byte for byte and scores by its original's rule.

The expected prompts and verdicts in ``fixtures/presets/expected.json`` were produced by the
originals' own code (lm-evaluation-harness 0.4.13, inspect_evals 0.26.0) and published code
(simple-evals, Kojima et al.) by ``fixtures/presets/record.py``; these tests need none of them.
``test_presets_originals.py`` checks the same against the installed originals on real GSM8K items.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import Scorer, Target
from inspect_ai.solver import TaskState

from gsm8k.prompting.fewshot import seeded_order
from gsm8k.prompting.presets import PRESETS, preset_names
from gsm8k.prompting.presets import lm_evaluation_harness as lm_eval
from gsm8k.prompting.presets import simple_evals_mgsm as simple_evals
from gsm8k.prompting.presets import zero_shot_cot as kojima
from gsm8k.prompting.presets.lookup import Lookup
from gsm8k.task import gsm8k
from tests.preset_support import rendered
from tests.scripted import run_eval, scripted_model

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "presets" / "expected.json").read_text(encoding="utf-8"))
CASES = json.loads((FIXTURES / "presets" / "cases.json").read_text(encoding="utf-8"))
MINI = FIXTURES / "mini"
FAMILY = FIXTURES / "family"
GSM8K_TRAIN_SIZE = 7473


@pytest.mark.parametrize(
    ("preset", "placement"),
    [
        ("lm-eval-gsm8k", "user"),
        ("lm-eval-gsm8k", "turns"),
        ("lm-eval-gsm8k-cot", "user"),
        ("lm-eval-gsm8k-cot", "turns"),
        ("lm-eval-gsm8k-cot-zeroshot", "user"),
        ("inspect-evals", "system"),
        ("kojima-zero-shot-cot", "user"),
    ],
)
def test_prompt_is_the_originals_byte_for_byte(preset: str, placement: str) -> None:
    task = gsm8k(preset=preset, dataset=str(MINI), placement=placement)
    ours = list(rendered(task).values())
    assert ours == EXPECTED["prompts"][f"{preset}/{placement}"]


@pytest.mark.parametrize("language", ["de", "en"])
def test_simple_evals_mgsm_prompt_is_the_published_one(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(FAMILY))
    task = gsm8k(preset="simple-evals-mgsm", dataset="mgsm", language=language)
    ours = list(rendered(task).values())
    assert ours == EXPECTED["prompts"][f"simple-evals-mgsm/{language}"]


def test_lm_eval_draws_the_train_records_lm_eval_shows() -> None:
    """Item k of GSM8K's test set sees the records lm-eval's sampler gave it (seed 1234)."""
    recorded = EXPECTED["lm_eval_gsm8k_train_indices"]
    assert lm_eval.fewshot_draws(1234, GSM8K_TRAIN_SIZE, 5, len(recorded)) == recorded


def test_inspect_evals_shows_the_train_records_inspect_evals_shows() -> None:
    recorded = EXPECTED["inspect_evals_train_indices"]
    assert seeded_order(GSM8K_TRAIN_SIZE, 42)[:10] == recorded


def _score(scorer: Scorer, completion: str, target: str, sample_id: int = 0) -> Any:
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id=sample_id,
        epoch=1,
        input="q",
        messages=[],
        output=ModelOutput.from_content(model="mockllm/model", content=completion),
    )
    return asyncio.run(scorer(state, Target(target)))


def _target(case: dict[str, str]) -> str:
    return case["answer"].split("#### ")[-1].strip().replace(",", "")


RULES = {rule["id"]: rule for rule in EXPECTED["rules"]}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
@pytest.mark.parametrize(
    "preset", ["lm-eval-gsm8k", "lm-eval-gsm8k-cot", "lm-eval-gsm8k-cot-zeroshot"]
)
def test_lm_eval_rule_gives_lm_evals_verdict(preset: str, case: dict[str, str]) -> None:
    task = {
        "lm-eval-gsm8k": lm_eval.GSM8K,
        "lm-eval-gsm8k-cot": lm_eval.GSM8K_COT,
        "lm-eval-gsm8k-cot-zeroshot": lm_eval.GSM8K_COT_ZEROSHOT,
    }[preset]
    strict = _score(lm_eval.lm_eval_strict_match(task), case["completion"], _target(case))
    flexible = _score(lm_eval.lm_eval_flexible_extract(task), case["completion"], _target(case))
    expected = RULES[case["id"]][preset]
    assert (strict.value, flexible.value) == (
        expected["strict-match"],
        expected["flexible-extract"],
    )


@given(st.text(alphabet="#### 1,.$\n-ab", max_size=40))
def test_lm_eval_normalization_is_lm_evals_regexes(text: str) -> None:
    """The linear form of ``(?s).*#### `` removes exactly what the regex removes."""
    for pattern in lm_eval.IGNORED_PATTERNS:
        assert lm_eval._ignore(pattern, text) == re.sub(pattern, "", text)


def test_a_flood_of_digits_is_scored_quickly_enough_to_finish() -> None:
    """A million digits: every original rule reads it in linear time (no hang, no raise)."""
    flood = "1" * 1_000_000
    for scorer in (
        lm_eval.lm_eval_strict_match(lm_eval.GSM8K),
        lm_eval.lm_eval_flexible_extract(lm_eval.GSM8K),
        kojima.kojima_match(Lookup({0: "18"}, "gold")),
        simple_evals.simple_evals_mgsm_match("Answer"),
    ):
        assert _score(scorer, f"The answer is {flood}.\nAnswer: {flood}", "18").value == 0.0


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_kojima_rule_gives_their_codes_verdict(case: dict[str, str]) -> None:
    gold = kojima.gold_as_written(case["answer"])
    scorer = kojima.kojima_match(Lookup({0: gold}, "gold"))
    score = _score(scorer, case["completion"], _target(case))
    assert score.value == float(RULES[case["id"]]["kojima-zero-shot-cot"])


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_simple_evals_rule_gives_their_codes_verdict_in_every_language(
    case: dict[str, str],
) -> None:
    verdicts = {
        language: _score(
            simple_evals.simple_evals_mgsm_match(instruction.answer_prefix),
            case["completion"],
            _target(case),
        ).value
        for language, instruction in simple_evals.instructions().items()
    }
    expected = RULES[case["id"]]["simple-evals-mgsm"]
    assert verdicts == {language: float(value) for language, value in expected.items()}


def test_unknown_preset_is_one_line_listing_the_names() -> None:
    with pytest.raises(ValueError) as error:
        gsm8k(preset="lm-eval", dataset=str(MINI))
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("preset='lm-eval': choose one of default, ")
    assert all(name in message for name in preset_names())


@pytest.mark.parametrize(
    ("arguments", "names"),
    [
        pytest.param({"mode": "pal"}, "mode='pal'", id="mode-changes-the-prompt"),
        pytest.param({"tools": "calculator"}, "tools='calculator'", id="tools"),
        pytest.param({"calculator_annotations": True}, "calculator_annotations", id="annotations"),
        pytest.param({"placement": "system"}, "placement='system'", id="no-system-in-lm-eval"),
    ],
)
def test_parameters_a_preset_fixes_are_refused(arguments: dict[str, Any], names: str) -> None:
    with pytest.raises(ValueError, match=f"^{names}"):
        gsm8k(preset="lm-eval-gsm8k", dataset=str(MINI), **arguments)


@pytest.mark.parametrize(
    ("preset", "arguments", "start"),
    [
        ("lm-eval-gsm8k-cot", {"fewshot": 9}, "fewshot=9: preset=lm-eval-gsm8k-cot has 8"),
        ("lm-eval-gsm8k-cot", {"fewshot_seed": 3}, "fewshot_seed=3: preset=lm-eval-gsm8k-cot"),
        ("kojima-zero-shot-cot", {"fewshot": 2}, "fewshot=2: preset=kojima-zero-shot-cot is zero"),
        ("inspect-evals", {"placement": "user"}, "placement='user': preset=inspect-evals"),
        ("lm-eval-gsm8k-cot", {"fewshot_dataset": str(MINI)}, "fewshot_dataset="),
        ("simple-evals-mgsm", {}, "dataset="),
    ],
)
def test_preset_conflicts_name_the_parameter(
    preset: str, arguments: dict[str, Any], start: str
) -> None:
    with pytest.raises(ValueError) as error:
        gsm8k(preset=preset, dataset=str(MINI), **arguments)
    assert str(error.value).startswith(start)


def test_gsm8k_presets_refuse_mgsm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(FAMILY))
    with pytest.raises(ValueError, match=r"^dataset=mgsm: preset=lm-eval-gsm8k runs on a GSM8K"):
        gsm8k(preset="lm-eval-gsm8k", dataset="mgsm", language="de")


def test_overrides_the_original_allows_change_the_prompt_as_there() -> None:
    """lm-eval's --num_fewshot and --fewshot_as_multiturn; inspect_evals' -T fewshot."""
    three = rendered(gsm8k(preset="lm-eval-gsm8k", dataset=str(MINI), fewshot=3), 1)["0"][0]
    assert three[0]["content"].count("Question: ") == 4
    cot = rendered(gsm8k(preset="lm-eval-gsm8k-cot", dataset=str(MINI), fewshot=2), 1)["0"][0]
    wei = lm_eval.wei_exemplars()
    assert cot[0]["content"].startswith(f"Q: {wei[0][0]}\nA: {wei[0][1]}\n\nQ: {wei[1][0]}")
    assert cot[0]["content"].count("Q: ") == 3
    zero = rendered(gsm8k(preset="inspect-evals", dataset=str(MINI), fewshot=0), 1)["0"][0]
    assert [m["role"] for m in zero] == ["user"]


def test_default_preset_leaves_the_task_unchanged() -> None:
    """The task's own prompt and metadata are what they were before presets existed."""
    default = gsm8k(dataset=str(MINI))
    explicit = gsm8k(dataset=str(MINI), preset="default", fewshot=5, fewshot_seed=42)
    assert rendered(default) == rendered(explicit)
    assert "preset" not in (default.metadata or {})
    assert (default.metadata or {})["fewshot"] == 5
    assert (default.metadata or {})["fewshot_seed"] == 42
    assert (default.metadata or {})["placement"] == "user"


def _reply(prompt: str) -> str:
    # Answers the mini set's questions as a model under lm-eval's gsm8k prompt would.
    answers = {"Janet": "9 * 2 = 18\n#### 18", "robe": "2 + 1 = 3 bolts. The answer is 3."}
    tail = prompt[-400:]
    return next((reply for key, reply in answers.items() if key in tail), "I don't know.")


def _accuracies(log: Any) -> dict[str, float]:
    """Each score's accuracy by name (the grader's headline is ``accuracy``)."""
    return {
        score.name: score.metrics["accuracy"].value
        for score in log.results.scores
        if "accuracy" in score.metrics
    }


@pytest.mark.slow
def test_run_reports_the_grader_first_then_the_originals_rule() -> None:
    task = gsm8k(preset="lm-eval-gsm8k", dataset=str(MINI))
    log = run_eval(task, scripted_model(_reply), limit=2)
    assert log.status == "success"
    scorers = [score.scorer for score in log.results.scores]
    assert list(dict.fromkeys(scorers)) == [
        "gsm8k_grader",
        "lm_eval_strict_match",
        "lm_eval_flexible_extract",
    ]
    scores = _accuracies(log)
    # Item 0 answers '#### 18' (strict and flexible), item 1 'The answer is 3.' (flexible only).
    assert scores["lm_eval_strict_match"] == 0.5
    assert scores["lm_eval_flexible_extract"] == 1.0
    assert scores["accuracy"] == 1.0  # the grader reads '#### 18' and 'The answer is 3.'
    metadata = log.eval.metadata or {}
    assert metadata["preset"] == "lm-eval-gsm8k"
    assert metadata["fewshot"] == 5 and metadata["fewshot_seed"] == 1234
    assert metadata["calculator_annotations"] is True
    config = log.plan.config
    assert config.stop_seqs == ["Question:", "</s>", "<|im_end|>"]
    assert config.temperature == 0.0
    # The per-item exemplar table is logged as one line, not written out.
    step = next(s for s in log.plan.steps if s.solver.endswith("lm_eval_prompt"))
    assert step.params["exemplars_by_id"] == (
        "5 exemplars per item, drawn from train with random.Random(1234), 6 items"
    )


def test_an_item_run_alone_sees_the_exemplars_it_sees_in_a_full_run() -> None:
    """lm-eval's draws follow the item's row, not the order Inspect happens to run samples in."""
    seen: list[str] = []

    def reply(prompt: str) -> str:
        seen.append(prompt)
        return "#### 0"

    task = gsm8k(preset="lm-eval-gsm8k", dataset=str(MINI))
    run_eval(task, scripted_model(reply), sample_id=[3])
    assert seen == [EXPECTED["prompts"]["lm-eval-gsm8k/user"][3][0][0]["content"]]


def test_kojima_runs_two_generations_and_grades_the_second() -> None:
    def reply(prompt: str) -> str:
        if prompt.endswith(kojima.ANSWER_TRIGGER):
            return " 18."
        return " Janet has 16 - 3 - 4 = 9 eggs and makes 9 * 2 = 18 dollars."

    task = gsm8k(preset="kojima-zero-shot-cot", dataset=str(MINI))
    log = run_eval(task, scripted_model(reply), limit=1)
    assert log.status == "success"
    scores = _accuracies(log)
    assert (scores["accuracy"], scores["kojima_match"]) == (1.0, 1.0)


def test_votes_work_with_a_presets_rule() -> None:
    """Several completions per question: the originals' scalar scores reduce like match()."""
    task = gsm8k(preset="lm-eval-gsm8k-cot", dataset=str(MINI), votes=3)
    log = run_eval(task, scripted_model(lambda prompt: "The answer is 18."), limit=1)
    assert log.status == "success"
    scores = _accuracies(log)
    assert scores["lm_eval_strict_match"] == scores["lm_eval_flexible_extract"] == 1.0
    assert scores["accuracy"] == 1.0


def test_every_preset_is_documented() -> None:
    docs = (Path(__file__).parents[1] / "docs" / "presets.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in docs for name in PRESETS)
