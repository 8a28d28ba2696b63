"""Fresh questions from GSM-Symbolic-style templates: the evaluator, drawing, the self-check, the
task's parameters. Every template here is written by these tests (GSM-Symbolic's own are
CC BY-NC-ND and read only by tests/test_fresh_real_templates.py from a local copy)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from gsm8k.data.fresh import (
    InstantiationError,
    Labelled,
    TemplateError,
    fresh_set,
    from_json,
    instance_rng,
    instantiate,
    load_template,
    load_templates,
    render_question,
    self_check,
    to_json,
    values,
)
from gsm8k.data.fresh.expressions import compile_expression
from gsm8k.data.fresh.quantities import parse_quantity, write_number
from gsm8k.data.fresh.values import DrawError, ExpressionError
from gsm8k.settings.errors import TaskInputError
from gsm8k.task import gsm8k

SHOP = {
    "question": "Ana buys 3 pens at $2 each. How much does she spend?",
    "answer": "She spends 3 * 2 = <<3*2=6>>6 dollars.\n#### 6",
    "id_orig": 0,
    "question_annotated": (
        "{name,Ana} buys {n,3} {item,pen}s at {cur,$}{p,2} each. How much does she spend?\n\n"
        "#init:\n"
        "- name = sample(names_female)\n"
        '- item = sample(["pen", "cup", "apple"])\n'
        "- cur = sample(currencies_sym)\n"
        "- $n = range(2, 20)\n"
        "- $p = range(2, 10)\n\n"
        "#conditions:\n"
        "- n * p < 100\n\n"
        "#answer: n * p"
    ),
    "answer_annotated": "She spends {n} * {p} = <<{n}*{p}={n*p}>>{n*p} dollars.\n#### {n*p}",
}
EGGS = {
    "question": "A box holds 12 eggs. Tom eats half of them and gives away two. How many are left?",
    "answer": "Tom eats 12 / 2 = <<12/2=6>>6.\nLeft: 12 - 6 - 2 = <<12-6-2=4>>4.\n#### 4",
    "id_orig": 1,
    "question_annotated": (
        "A box holds {n,12} eggs. {name,Tom} eats {frac,half} of them and gives away {k,two}. "
        "How many are left?\n\n"
        "#init:\n"
        "- name = sample(names_male)\n"
        "- $n = range(10, 60, 2)\n"
        "- $frac = sample(fraction_alnum)\n"
        "- $k = range(1, 5)\n"
        "- $left = range(0, 60)\n\n"
        "#conditions:\n"
        "- is_int(n * frac)\n"
        "- left == n - n * frac - k\n\n"
        "#answer: $left"
    ),
    "answer_annotated": (
        "Tom eats {n} * {frac} = {n*frac}.\nLeft: {n} - {n*frac} - {k} = {left}.\n#### {left}"
    ),
}
RECORDS = [{"question": t["question"], "answer": t["answer"]} for t in (SHOP, EGGS)]


def write_templates(folder: Path, *templates: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for number, template in enumerate(templates):
        (folder / f"{number:04d}.json").write_text(json.dumps(template, indent=2), "utf-8")
    return folder


def variant(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_templates(tmp_path / "symbolic", SHOP, EGGS)


# --- the evaluator -------------------------------------------------------------------------


def run(expression: str, **env: Any) -> Any:
    compiled = compile_expression(expression, lambda name: name in env)
    return compiled.evaluate(env, random.Random(0))


@pytest.mark.parametrize(
    "expression",
    [
        pytest.param("__import__('os').system('true')", id="import-call"),
        pytest.param("open('/etc/passwd')", id="unknown-function"),
        pytest.param("x.__class__", id="dunder-attribute"),
        pytest.param("(lambda: 1)()", id="lambda"),
        pytest.param("[y for y in x]", id="comprehension"),
        pytest.param("sample(x, k=2)", id="keyword-argument"),
        pytest.param("eval('1')", id="eval"),
        pytest.param("y", id="unknown-name"),
        pytest.param("x[0](1)", id="call-through-subscript"),
        pytest.param("np.save", id="numpy-attribute"),
        pytest.param("b'1'", id="bytes-constant"),
        pytest.param("x := 1", id="walrus"),
        pytest.param("1 +", id="syntax-error"),
        pytest.param("-" * 3000 + "1", id="deep-nesting"),
        pytest.param("1e999", id="infinite-literal"),
        pytest.param("1" * 45, id="literal-past-the-digit-bound"),
        pytest.param("1+" * 1900 + "1", id="too-many-parts"),
        pytest.param("1+" * 2500 + "1", id="too-long"),
    ],
)
def test_an_expression_outside_the_language_is_refused_before_it_runs(expression: str) -> None:
    with pytest.raises(ExpressionError):
        compile_expression(expression, lambda name: name == "x")


@pytest.mark.parametrize(
    "expression",
    [
        pytest.param("10 ** 10 ** 10", id="power-tower"),
        pytest.param("2 ** 1000", id="large-power"),
        pytest.param("range(10 ** 9)", id="huge-range"),
        pytest.param("[1] * 10 ** 8", id="huge-repetition"),
        pytest.param("10 ** 50", id="past-the-digit-bound"),
        pytest.param("1 / 0", id="division-by-zero"),
        pytest.param("x[5]", id="index-out-of-range"),
        pytest.param("'a' + 1", id="text-as-number"),
        pytest.param("[[1] * 100000] * 100000", id="list-of-repeated-lists"),
        pytest.param("Fraction('1e999999999')", id="fraction-of-a-huge-exponent"),
        pytest.param("'ab' * 100", id="text-repetition"),
    ],
)
def test_a_value_past_the_bounds_rejects_the_draw_not_the_process(expression: str) -> None:
    with pytest.raises(DrawError):
        run(expression, x=[1, 2])


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        pytest.param("is_int(10 * 0.1)", True, id="decimal-literals-are-exact"),
        pytest.param("0.1 + 0.2 == 0.3", True, id="no-binary-rounding"),
        pytest.param("divides(12, 4)", True, id="divides-a-by-b"),
        pytest.param("divides(4, 12)", False, id="divides-is-not-symmetric"),
        pytest.param("divides(5, 0)", False, id="divides-by-zero-is-false"),
        pytest.param("numbers_within(2, 4)", [2, 3, 4], id="numbers-within-includes-both-ends"),
        pytest.param("range(1, 7, 2)", [1, 3, 5], id="range-excludes-its-end"),
        pytest.param("np.arange(0.5, 1.6, 0.5)", [Fraction(1, 2), 1, Fraction(3, 2)], id="arange"),
        pytest.param("round(2.5)", 3, id="round-half-away-from-zero"),
        pytest.param("round(-2.5)", -3, id="round-negative-half"),
        pytest.param("int(-7 / 2)", -3, id="int-truncates-toward-zero"),
        pytest.param("7 // 2", 3, id="floor-division"),
        pytest.param("Fraction(3, 4) * 4", 3, id="fraction"),
        pytest.param("format_frac(7 / 2)", "3 1/2", id="mixed-fraction"),
        pytest.param("2 < 3 < 4", True, id="chained-comparison"),
        pytest.param("3 if 'week' == 'week' else 1", 3, id="conditional-on-text"),
        pytest.param("pair[0]", "six-sided", id="pair-text"),
        pytest.param("pair - 2", 4, id="pair-number-in-arithmetic"),
        pytest.param("pair[1] * 2", 12, id="pair-number-by-index"),
        pytest.param("[1, 2] + [3]", [1, 2, 3], id="list-concatenation"),
        pytest.param("$pair == 6", True, id="dollar-marks-a-variable"),
    ],
)
def test_the_language_means_what_the_templates_mean(expression: str, expected: Any) -> None:
    assert run(expression, pair=Labelled("six-sided", 6)) == expected


def test_sample_sequential_wraps_around_a_cycle() -> None:
    days = ["Mon", "Tue", "Wed"]
    seen = {
        tuple(run_draw("sample_sequential(days, 2)", days=days, seed=seed)) for seed in range(40)
    }
    assert seen == {("Mon", "Tue"), ("Tue", "Wed"), ("Wed", "Mon")}


def run_draw(expression: str, seed: int, **env: Any) -> Any:
    compiled = compile_expression(expression, lambda name: name in env)
    return compiled.evaluate(env, random.Random(seed))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2250", 2250),
        ("1,000", 1000),
        ("1.50", Fraction(3, 2)),
        ("1/16", Fraction(1, 16)),
        ("forty-two", 42),
        ("half", Fraction(1, 2)),
        ("a third", Fraction(1, 3)),
        ("two-thirds", Fraction(2, 3)),
        ("three quarters", Fraction(3, 4)),
        ("twice", 2),
        ("three times", 3),
        ("triple", 3),
        ("payphone", None),
    ],
)
def test_a_default_is_read_as_the_quantity_it_writes(text: str, value: Any) -> None:
    assert parse_quantity(text) == value


@pytest.mark.parametrize(
    ("value", "default", "written"),
    [
        (7, "three", "seven"),
        (7, "Three", "Seven"),
        (Fraction(12, 5), "1.50", "2.40"),
        (Fraction(9, 4), "1.5", "2.25"),
        (Fraction(1, 4), "1/2", "1/4"),
        (12, "3", "12"),
        (Fraction(1, 3), "3", "1/3"),
    ],
)
def test_a_drawn_number_is_written_in_its_defaults_style(
    value: Any, default: str, written: str
) -> None:
    assert write_number(value, default) == written


# --- reading templates ---------------------------------------------------------------------


def test_a_template_is_read_into_slots_lines_conditions_and_answer(folder: Path) -> None:
    shop = load_template(folder / "0000.json")
    assert shop.name == "0000" and shop.original_index == 0
    assert [s.name for s in shop.slots] == ["name", "n", "item", "cur", "p"]
    assert shop.variables == ("name", "item", "cur", "n", "p")
    assert [c.line for c in shop.conditions] == [11]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            {"question_annotated": SHOP["question_annotated"].replace("n * p < 100", "open(n)")},
            "0000.json, question_annotated line 11: unknown function 'open'",
            id="unknown-function",
        ),
        pytest.param(
            {"question_annotated": SHOP["question_annotated"].replace("\n#answer: n * p", "")},
            "0000.json: question_annotated has no '#answer: <formula>' line",
            id="no-answer",
        ),
        pytest.param(
            {"question_annotated": "{x,1} apples\n#init:\n- $y = range(1, 3)\n#answer: y"},
            "0000.json, question_annotated line 1: slot {x,...} names a variable",
            id="slot-without-variable",
        ),
        pytest.param(
            {"question_annotated": SHOP["question_annotated"].replace("- $p =", "- $p ==")},
            "0000.json, question_annotated line 8: expected 'name = expression'",
            id="not-an-assignment",
        ),
        pytest.param({"id_orig": "zero"}, "0000.json: 'id_orig' must be", id="bad-index"),
        pytest.param({"answer_annotated": 3}, "0000.json: field 'answer_annotated'", id="not-text"),
    ],
)
def test_a_malformed_template_names_its_file_and_line(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    write_templates(tmp_path, variant(SHOP, **change))
    with pytest.raises(TemplateError) as raised:
        load_templates(tmp_path)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_invalid_json_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "0000.json").write_text('{\n  "question": "x",\n  oops\n}', "utf-8")
    with pytest.raises(TemplateError, match=r"0000\.json: line 3: not valid JSON"):
        load_templates(tmp_path)


def test_two_templates_of_one_gsm8k_question_are_refused(tmp_path: Path) -> None:
    write_templates(tmp_path, SHOP, variant(EGGS, id_orig=0))
    with pytest.raises(TemplateError, match=r"0000\.json and 0001\.json were both made from"):
        load_templates(tmp_path)


def test_a_json_name_that_is_not_a_file_is_refused_unread(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "0000.json")  # reading it would block forever
    with pytest.raises(TemplateError, match=r"0000\.json: not a regular file"):
        load_templates(tmp_path)


def test_a_missing_or_empty_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="does not exist"):
        load_templates(tmp_path / "nowhere")
    with pytest.raises(TemplateError, match="holds no"):
        load_templates(tmp_path)


# --- drawing ---------------------------------------------------------------------------------


def test_every_drawn_instance_meets_the_conditions_and_its_formula(folder: Path) -> None:
    eggs = load_template(folder / "0001.json")
    for k in range(30):
        instance = instantiate(eggs, instance_rng(5, eggs.name, k))
        values = {name: from_json(value) for name, value in instance.bindings.items()}
        n, frac, k_, left = values["n"], values["frac"].value, values["k"], values["left"]
        assert (n * frac).denominator == 1 and left == n - n * frac - k_
        assert instance.answer == left
        assert render_question(eggs, values) == instance.question
        assert instance.solution.endswith(f"#### {left}")


def test_bindings_round_trip_through_json(folder: Path) -> None:
    eggs = load_template(folder / "0001.json")
    instance = instantiate(eggs, instance_rng(1, eggs.name, 0))
    recorded = json.loads(json.dumps(instance.bindings))
    assert to_json({k: from_json(v) for k, v in recorded.items()}) == instance.bindings
    assert isinstance(recorded["frac"], dict) and set(recorded["frac"]) == {"text", "value"}


def test_the_same_seed_draws_the_same_questions_and_another_seed_others(folder: Path) -> None:
    first = fresh_set(folder, seed=3, per_template=4, gsm8k_records=lambda: RECORDS)
    again = fresh_set(folder, seed=3, per_template=4, gsm8k_records=lambda: RECORDS)
    other = fresh_set(folder, seed=4, per_template=4, gsm8k_records=lambda: RECORDS)
    questions = [str(s.input) for s in first.samples]
    assert questions == [str(s.input) for s in again.samples]
    fresh = [str(s.input) for s in first.samples if s.metadata and s.metadata["kind"] == "fresh"]
    other_fresh = [str(s.input) for s in other.samples if s.metadata["kind"] == "fresh"]
    assert fresh != other_fresh and len(set(fresh) & set(other_fresh)) < len(fresh)


def test_instance_k_does_not_depend_on_how_many_are_asked(folder: Path) -> None:
    two = fresh_set(folder, seed=9, per_template=2, gsm8k_records=lambda: RECORDS)
    five = fresh_set(folder, seed=9, per_template=5, gsm8k_records=lambda: RECORDS)
    by_id = {s.id: s.input for s in five.samples}
    assert all(by_id[s.id] == s.input for s in two.samples)


def test_originals_and_fresh_instances_are_paired_by_template(folder: Path) -> None:
    drawn = fresh_set(folder, seed=0, per_template=3, gsm8k_records=lambda: RECORDS)
    ids = [s.id for s in drawn.samples]
    assert ids == [
        "0000-original",
        "0000-fresh-00",
        "0000-fresh-01",
        "0000-fresh-02",
        "0001-original",
        "0001-fresh-00",
        "0001-fresh-01",
        "0001-fresh-02",
    ]
    original, fresh = drawn.samples[4], drawn.samples[5]
    assert original.input == EGGS["question"] and original.target == "4"
    assert original.metadata == original.metadata | {
        "template": "0001",
        "original_index": 1,
        "instance": "original",
        "kind": "original",
        "bindings": None,
    }
    assert fresh.metadata is not None
    assert fresh.metadata["template"] == "0001" and fresh.metadata["original_index"] == 1
    assert fresh.metadata["instance"] == 0 and fresh.metadata["fresh_seed"] == 0
    assert set(fresh.metadata["bindings"]) == {"name", "n", "frac", "k", "left"}
    assert "####" not in fresh.metadata["solution"]


def test_a_template_whose_conditions_cannot_be_met_is_an_error_naming_it(tmp_path: Path) -> None:
    never = variant(
        SHOP, question_annotated=SHOP["question_annotated"].replace("n * p < 100", "n > 100")
    )
    write_templates(tmp_path, never)
    template = load_templates(tmp_path)[0]
    with pytest.raises(InstantiationError, match=r"template 0000\.json: no draw of 500 .*line 11"):
        instantiate(template, random.Random(0), max_tries=500)


def test_a_condition_on_no_variable_is_still_checked(tmp_path: Path) -> None:
    never = variant(
        SHOP, question_annotated=SHOP["question_annotated"].replace("n * p < 100", "1 > 2")
    )
    template = load_templates(write_templates(tmp_path, never))[0]
    with pytest.raises(InstantiationError, match="no draw of 50"):
        instantiate(template, random.Random(0), max_tries=50)


def test_a_template_that_works_too_hard_is_refused_not_run_for_hours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(values, "MAX_WORK", 5_000_000)  # a tenth: the same path, faster
    heavy = variant(
        SHOP,
        question_annotated=SHOP["question_annotated"]
        .replace("- $p = range(2, 10)", "- $p = sample(np.random.randint(2, 10, 100000))")
        .replace("n * p < 100", "n * p > 100000"),
    )
    template = load_templates(write_templates(tmp_path, heavy))[0]
    with pytest.raises(InstantiationError, match=r"0000\.json: more than 5,000,000 steps"):
        instantiate(template, random.Random(0))


def test_a_template_whose_formula_contradicts_its_solution_is_skipped_not_used(
    tmp_path: Path,
) -> None:
    wrong = variant(SHOP, question_annotated=SHOP["question_annotated"] + " + 1")
    write_templates(tmp_path, wrong, EGGS)
    drawn = fresh_set(tmp_path, seed=0, per_template=2, gsm8k_records=lambda: RECORDS)
    assert set(drawn.skipped) == {"0000"}
    assert "differs from #answer" in drawn.skipped["0000"]
    assert {s.metadata["template"] for s in drawn.samples if s.metadata} == {"0001"}


def test_an_original_that_is_not_gsm8ks_record_is_refused(folder: Path) -> None:
    swapped = [RECORDS[1], RECORDS[0]]
    with pytest.raises(ValueError, match=r"0000\.json \(id_orig 0\): GSM8K test record 0 is not"):
        fresh_set(folder, seed=0, per_template=1, gsm8k_records=lambda: swapped)


# --- the self-check --------------------------------------------------------------------------


def test_templates_with_their_defaults_give_back_their_originals(folder: Path) -> None:
    results = self_check(folder, [r["question"] for r in RECORDS])
    assert [r.reproduces for r in results] == [True, True]
    assert results[1].answer == 4 and results[1].gold == 4  # `left` solved from the equation
    assert all(r.matches_gsm8k for r in results)


def test_the_self_check_says_why_a_template_does_not_reproduce(tmp_path: Path) -> None:
    edited = variant(
        SHOP,
        question_annotated=SHOP["question_annotated"].replace("How much", "How many dollars"),
    )
    wrong = variant(EGGS, question_annotated=EGGS["question_annotated"] + " + 1")
    results = self_check(load_templates(write_templates(tmp_path, edited, wrong)))
    assert not results[0].reproduces and results[0].answer == 6
    assert results[0].reasons == (
        'the wording departs from GSM8K\'s at " 3 pens at $2 each. How much does she spend?"',
    )
    assert not results[1].reproduces and results[1].question_matches
    assert results[1].reasons == ("#answer gives 5, the gold answer is 4",)


def test_the_self_check_reports_spacing_apart_from_wording(tmp_path: Path) -> None:
    spaced = variant(SHOP, question=SHOP["question"].replace(". How", ".  How"))
    result = self_check(load_templates(write_templates(tmp_path, spaced)))[0]
    assert not result.reproduces
    assert result.reasons == ("the question differs from the original in spacing only",)


# --- the task's parameters -------------------------------------------------------------------


@pytest.fixture
def gsm8k_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "gsm8k"
    data.mkdir()
    lines = "".join(json.dumps(record) + "\n" for record in RECORDS)
    (data / "test.jsonl").write_text(lines, "utf-8")
    (data / "train.jsonl").write_text(lines.replace("Ana", "Bea").replace("Tom", "Tim"), "utf-8")
    monkeypatch.setenv("GSM8K_DATA_DIR", str(data))
    monkeypatch.delenv("GSM_SYMBOLIC_TEMPLATES", raising=False)
    return data


def test_the_task_evaluates_originals_beside_fresh_questions(
    folder: Path, gsm8k_copy: Path
) -> None:
    task = gsm8k(
        dataset="gsm-symbolic-fresh",
        fresh_seed=2,
        fresh_per_template=3,
        templates=str(folder),
        fewshot=0,
    )
    assert len(task.dataset) == 8
    assert task.metadata is not None
    assert task.metadata["fresh_seed"] == 2 and task.metadata["fresh_per_template"] == 3
    assert task.metadata["templates"] == str(folder.resolve())
    assert task.metadata["templates_skipped"] == {} and task.metadata["paired_with_gsm8k"]


def test_the_templates_folder_comes_from_the_environment_too(
    folder: Path, gsm8k_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GSM_SYMBOLIC_TEMPLATES", str(folder.parent))  # templates/ works too
    task = gsm8k(dataset="gsm-symbolic-fresh", fresh_per_template=1, fewshot=0)
    assert len(task.dataset) == 4


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(
            {"fresh_seed": "abc"}, "fresh_seed='abc': pass a whole number, 0 or more.", id="seed"
        ),
        pytest.param({"fresh_seed": -1}, "fresh_seed=-1: pass a whole number", id="negative"),
        pytest.param(
            {"fresh_per_template": 101},
            "fresh_per_template=101: at most 100 per template",
            id="too-many",
        ),
        pytest.param(
            {"fresh_per_template": 0}, "fresh_per_template=0: pass a whole number", id="none"
        ),
        pytest.param(
            {"templates": "/no/such/folder"},
            "templates='/no/such/folder': no such folder",
            id="missing-folder",
        ),
        pytest.param(
            {"templates": None},
            "dataset=gsm-symbolic-fresh needs GSM-Symbolic's templates: pass -T templates=PATH",
            id="no-folder-given",
        ),
    ],
)
def test_bad_fresh_parameters_are_one_line_refusals(
    folder: Path, gsm8k_copy: Path, arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(TaskInputError) as raised:
        gsm8k(**({"dataset": "gsm-symbolic-fresh", "templates": str(folder)} | arguments))
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_malformed_template_stops_the_task_with_its_file_and_line(
    tmp_path: Path, gsm8k_copy: Path
) -> None:
    broken = variant(SHOP, question_annotated=SHOP["question_annotated"].replace("range", "rnge"))
    write_templates(tmp_path / "t", broken)
    with pytest.raises(TaskInputError, match=r"0000\.json, question_annotated line 7: unknown"):
        gsm8k(dataset="gsm-symbolic-fresh", templates=str(tmp_path / "t"))


def test_fresh_parameters_with_another_dataset_are_refused(gsm8k_copy: Path) -> None:
    with pytest.raises(TaskInputError, match="fresh_seed applies to dataset=gsm-symbolic-fresh"):
        gsm8k(fresh_seed=1)


# --- the independent checker (benchmarks/fresh_check.py) can fail ----------------------------


def test_the_independent_check_catches_a_wrong_answer_or_a_wrong_binding(folder: Path) -> None:
    from benchmarks.fresh_check import sample_problems

    drawn = fresh_set(folder, seed=1, per_template=1, include_originals=False)
    eggs = next(s for s in drawn.samples if s.metadata and s.metadata["template"] == "0001")
    assert sample_problems(EGGS, eggs) == []
    wrong_answer = eggs.model_copy(update={"target": str(int(str(eggs.target)) + 1)})
    assert "#answer evaluates to" in sample_problems(EGGS, wrong_answer)[0]
    metadata = dict(eggs.metadata or {})
    metadata["bindings"] = dict(metadata["bindings"], k=metadata["bindings"]["k"] + 1)
    wrong_binding = eggs.model_copy(update={"metadata": metadata})
    assert any(p.startswith("k shows") for p in sample_problems(EGGS, wrong_binding))


@pytest.mark.slow
def test_a_fresh_run_logs_its_pairs_and_a_command_that_runs_it_again(
    folder: Path, gsm8k_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gsm8k.compare.rerun import rerun_prefix
    from tests.scripted import run_eval, scripted_model

    monkeypatch.setenv("GSM_SYMBOLIC_TEMPLATES", str(folder))
    task = gsm8k(dataset="gsm-symbolic-fresh", fresh_seed=4, fresh_per_template=1, fewshot=0)
    log = run_eval(task, scripted_model(lambda prompt: "ANSWER: 6"), log_dir=str(tmp_path))
    assert log.status == "success" and log.samples is not None
    kinds = {str(s.id): (s.metadata["kind"], s.metadata["template"]) for s in log.samples}
    assert kinds == {
        "0000-original": ("original", "0000"),
        "0000-fresh-00": ("fresh", "0000"),
        "0001-original": ("original", "0001"),
        "0001-fresh-00": ("fresh", "0001"),
    }
    command = rerun_prefix(log)
    assert f"GSM_SYMBOLIC_TEMPLATES={folder.resolve()}" in command
    assert "-T dataset=gsm-symbolic-fresh" in command and "-T fresh_seed=4" in command
    assert f"GSM8K_DATA_DIR={gsm8k_copy}" in command  # where the originals came from
    assert log.eval.metadata is not None
    assert log.eval.metadata["originals"] == str((gsm8k_copy / "test.jsonl").resolve())
