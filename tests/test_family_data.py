"""The GSM family as task datasets: local copies, paired ids, prompts, split hygiene."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from gsm8k.data.family.samples import plus_target
from gsm8k.data.family.sources import MGSM_LANGUAGES, VARIANTS, load_variant
from gsm8k.data.splits import DatasetUnavailableError
from gsm8k.grading.golds import UNANSWERABLE_INSTRUCTION
from gsm8k.task import gsm8k
from tests.conftest import FIXTURES, REAL_DATA_DIR

FAMILY = FIXTURES / "family"
GSM8K_FIXTURE = FAMILY / "gsm8k"


@pytest.fixture
def family_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    """GSM8K_DATA_DIR points at the fixture GSM8K copy; the variants sit beside it."""
    monkeypatch.setenv("GSM8K_DATA_DIR", str(GSM8K_FIXTURE))
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    return FAMILY


def _fixture_questions() -> list[str]:
    lines = (GSM8K_FIXTURE / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines]


def test_symbolic_ids_name_the_gsm8k_question_and_instance(family_data: Path) -> None:
    task = gsm8k(dataset="gsm-symbolic-p2", fewshot=2)
    samples = list(task.dataset)
    assert task.dataset.name == "gsm-symbolic-p2"
    assert [s.id for s in samples[:4]] == ["0001-00", "0001-01", "0001-02", "0001-03"]
    assert {s.metadata["gsm8k_index"] for s in samples} == {1, 3}
    questions = _fixture_questions()
    for sample in samples:
        assert sample.metadata["original_question"] == questions[sample.metadata["gsm8k_index"]]
    assert samples[4].target == "-4"
    assert task.metadata["variant"] == "gsm-symbolic-p2"
    assert task.metadata["paired_with_gsm8k"] is True
    assert task.metadata["fewshot_dataset"] == str((GSM8K_FIXTURE / "train.jsonl").resolve())


@pytest.mark.parametrize(
    ("name", "count"), [("gsm-symbolic", 2), ("gsm-symbolic-p1", 2), ("gsm-plus", 24)]
)
def test_each_variant_loads_from_its_local_copy(family_data: Path, name: str, count: int) -> None:
    task = gsm8k(dataset=name, fewshot=0)
    assert len(task.dataset) == count
    assert task.dataset.name == name
    assert all("gsm8k_index" in (s.metadata or {}) for s in task.dataset)


def test_plus_ids_targets_and_instruction(family_data: Path) -> None:
    task = gsm8k(dataset="gsm-plus-mini", fewshot=0)
    by_id = {s.id: s for s in task.dataset}
    assert len(by_id) == 16
    assert by_id["0000-critical-thinking"].target == "NONE"
    assert by_id["0000-integer-decimal-fraction-conversion"].target == "2/5"
    assert by_id["0000-numerical-substitution"].target == "4.33"
    assert by_id["0002-integer-decimal-fraction-conversion"].target == "0.5"
    assert by_id["0002-digit-expansion"].metadata["gsm8k_index"] == 2
    assert by_id["0002-digit-expansion"].metadata["perturbation"] == "digit expansion"


@pytest.mark.slow
def test_plus_prompt_offers_none_on_every_item(family_data: Path) -> None:
    from tests.scripted import run_eval, scripted_model

    prompts: list[str] = []

    def reply(prompt: str) -> str:
        prompts.append(prompt)
        return "ANSWER: 18"

    run_eval(gsm8k(dataset="gsm-plus-mini", fewshot=1), scripted_model(reply))
    assert len(prompts) == 16
    assert all(UNANSWERABLE_INSTRUCTION in prompt for prompt in prompts)
    plain: list[str] = []
    run_eval(gsm8k(fewshot=0), scripted_model(lambda p: plain.append(p) or "ANSWER: 1"))
    assert not any(UNANSWERABLE_INSTRUCTION in prompt for prompt in plain)


def test_plus_targets() -> None:
    assert plus_target("None") == "NONE"
    assert plus_target(None) == "NONE"
    assert plus_target("2 / 5") == "2/5"
    assert plus_target("45.0") == "45"
    assert plus_target("1,200") == "1200"
    assert plus_target("4.33") == "4.33"
    with pytest.raises(ValueError, match="not a number"):
        plus_target("four")
    with pytest.raises(ValueError, match="divides by zero"):
        plus_target("3/0")


def test_ids_sort_as_text_in_numeric_order(family_data: Path) -> None:
    ids = [str(s.id) for s in gsm8k(dataset="gsm-plus", fewshot=0).dataset]
    by_index = sorted(ids, key=lambda i: (int(i.split("-", 1)[0]), i))
    assert sorted(ids) == by_index


def test_mgsm_language_prompt_and_ids(family_data: Path) -> None:
    from tests.scripted import run_eval, scripted_model

    task = gsm8k(dataset="mgsm", language="de", fewshot=2)
    assert task.dataset.name == "mgsm-de"
    assert [s.id for s in task.dataset] == [0, 1, 2, 3]
    assert [s.target for s in task.dataset] == ["18", "3", "1450000", "-10"]
    assert task.metadata["language"] == "de"
    prompts: list[str] = []

    def reply(prompt: str) -> str:
        prompts.append(prompt)
        return "Sie hat 9 Eier, 9 * 2 = 18. Die Antwort ist 18."

    log = run_eval(task, scripted_model(reply), limit=1)
    prompt = prompts[0]
    assert prompt.startswith("Frage: Anna hat 2 Stifte")
    assert "Die Antwort ist 12.\n\nFrage: Janet hat 16 Eier" in prompt
    assert prompt.endswith("\nSchritt-für-Schritt-Antwort:")
    assert "ANSWER" not in prompt
    headline = next(score for score in log.results.scores if score.name == "accuracy")
    assert headline.metrics["accuracy"].value == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dataset": "mgsm"}, "needs one of bn, de, en"),
        ({"dataset": "mgsm", "language": "xx"}, "needs one of"),
        ({"language": "de"}, "applies to dataset=mgsm only"),
        ({"dataset": "mgsm", "language": "de", "fewshot": 3}, "has 2 exemplars"),
        ({"dataset": "mgsm", "language": "de", "mode": "pal"}, "mode=cot"),
        ({"dataset": "mgsm", "language": "de", "fewshot_dataset": "gsm8k"}, "MGSM's own"),
        ({"dataset": "gsm-plus-mini", "mode": "pal"}, "cannot say"),
        ({"dataset": "mgsm", "language": "fr"}, "has no mgsm_fr.tsv"),
    ],
)
def test_family_parameter_errors(
    family_data: Path, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        gsm8k(**kwargs)  # type: ignore[arg-type]


def test_platinum_ids_are_gsm8k_indices(family_data: Path) -> None:
    task = gsm8k(dataset=str(FAMILY / "gsm8k-platinum"), fewshot=0)
    assert [s.id for s in task.dataset] == [0, 2, 3, 5]
    assert [s.metadata["gsm8k_index"] for s in task.dataset] == [0, 2, 3, 5]
    assert [s.metadata["index"] for s in task.dataset] == [0, 1, 2, 3]
    assert task.dataset.name == "gsm8k-platinum"
    assert task.metadata["paired_with_gsm8k"] is True


def test_gsm8k_itself_is_named_and_paired(family_data: Path) -> None:
    task = gsm8k(fewshot=0)
    assert task.dataset.name == "gsm8k"
    assert [s.id for s in task.dataset] == list(range(6))
    assert [s.metadata["gsm8k_index"] for s in task.dataset] == list(range(6))


def test_a_custom_set_is_not_paired(family_data: Path, tmp_path: Path) -> None:
    custom = tmp_path / "mine.jsonl"
    custom.write_text(json.dumps({"question": "What is 1 + 1?", "answer": "#### 2"}) + "\n")
    task = gsm8k(dataset=str(custom), fewshot=0)
    assert [s.id for s in task.dataset] == [0]
    assert task.metadata["paired_with_gsm8k"] is False
    assert "gsm8k_index" not in (task.dataset[0].metadata or {})


def test_family_dir_overrides_the_sibling_folders(
    family_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(FAMILY / "gsm-symbolic", tmp_path / "gsm-symbolic")
    (tmp_path / "gsm-symbolic" / "GSM_p2.jsonl").write_text(
        (FAMILY / "gsm-symbolic" / "GSM_p2.jsonl").read_text().splitlines()[0] + "\n"
    )
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(tmp_path))
    assert len(gsm8k(dataset="gsm-symbolic-p2", fewshot=0).dataset) == 1


def test_a_local_copy_without_the_file_names_it(
    family_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "gsm-symbolic").mkdir()
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"has no GSM_p2\.jsonl"):
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0)


def test_a_bad_row_names_its_file_and_line(
    family_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "gsm-symbolic"
    folder.mkdir()
    rows = (FAMILY / "gsm-symbolic" / "GSM_p2.jsonl").read_text().splitlines()
    broken = json.loads(rows[1]) | {"answer": "no final line"}
    duplicate = rows[0]
    (folder / "GSM_p2.jsonl").write_text(f"{rows[0]}\n{json.dumps(broken)}\n")
    monkeypatch.setenv("GSM8K_FAMILY_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"GSM_p2\.jsonl:2: 'answer' has no"):
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0)
    (folder / "GSM_p2.jsonl").write_text(f"{rows[0]}\n{duplicate}\n")
    with pytest.raises(ValueError, match=r"GSM_p2\.jsonl:2: sample id 0001-00 repeats"):
        gsm8k(dataset="gsm-symbolic-p2", fewshot=0)


def test_offline_without_a_local_copy_fails_fast_with_the_recipe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(DatasetUnavailableError, match="GSM8K_FAMILY_DIR"):
        load_variant(VARIANTS["gsm-plus-mini"])


def test_an_exemplar_that_is_an_evaluated_items_original_is_refused(
    family_data: Path, tmp_path: Path
) -> None:
    """A fewshot_dataset whose train split holds GSM8K test questions (here: the originals of
    the GSM-Symbolic items) would show the model the question its variant was made from."""
    leaky = tmp_path / "leaky"
    leaky.mkdir()
    shutil.copy(GSM8K_FIXTURE / "test.jsonl", leaky / "train.jsonl")
    with pytest.raises(ValueError, match="original"):
        gsm8k(dataset="gsm-symbolic-p2", fewshot=6, fewshot_dataset=str(leaky))
    with pytest.raises(ValueError, match="original"):
        gsm8k(dataset="gsm-plus-mini", fewshot=6, fewshot_dataset=str(leaky))
    # The default exemplars (GSM8K train) are accepted.
    assert gsm8k(dataset="gsm-symbolic-p2", fewshot=6).metadata["fewshot"] == 6


# Real data: the local copies in ../shared/data, when GSM8K_DATA_DIR names the GSM8K one.

real = pytest.mark.skipif(not REAL_DATA_DIR, reason="GSM8K_DATA_DIR is not set")


@pytest.fixture
def real_family(monkeypatch: pytest.MonkeyPatch) -> Path:
    assert REAL_DATA_DIR
    monkeypatch.setenv("GSM8K_DATA_DIR", REAL_DATA_DIR)
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    return Path(REAL_DATA_DIR).resolve().parent


def _gsm8k_questions(root: Path) -> list[str]:
    lines = (root / "gsm8k" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines]


@real
def test_real_symbolic_p2(real_family: Path) -> None:
    if not (real_family / "gsm-symbolic" / "GSM_p2.jsonl").is_file():
        pytest.skip("no local GSM-Symbolic copy beside GSM8K_DATA_DIR")
    samples = list(gsm8k(dataset="gsm-symbolic-p2").dataset)
    assert len(samples) == 2500
    originals = {s.metadata["gsm8k_index"] for s in samples}
    assert len(originals) == 50
    questions = _gsm8k_questions(real_family)
    assert all(
        s.metadata["original_question"].strip() == questions[s.metadata["gsm8k_index"]].strip()
        for s in samples
    )
    assert sorted({s.metadata["instance"] for s in samples}) == list(range(50))


@real
def test_real_plus_testmini(real_family: Path) -> None:
    if not (real_family / "gsm-plus" / "testmini.jsonl").is_file():
        pytest.skip("no local GSM-Plus copy beside GSM8K_DATA_DIR")
    samples = list(gsm8k(dataset="gsm-plus-mini").dataset)
    assert len(samples) == 2400
    assert len({s.metadata["gsm8k_index"] for s in samples}) == 300
    targets = [s.target for s in samples]
    assert targets.count("NONE") == 300
    assert "2/5" in targets and "4.33" in targets


@real
def test_real_mgsm_all_languages(real_family: Path) -> None:
    if not (real_family / "mgsm" / "mgsm_en.tsv").is_file():
        pytest.skip("no local MGSM copy beside GSM8K_DATA_DIR")
    questions = _gsm8k_questions(real_family)
    for language in MGSM_LANGUAGES:
        task = gsm8k(dataset="mgsm", language=language, fewshot=8)
        assert len(task.dataset) == 250, language
        assert [s.id for s in task.dataset] == list(range(250))
    english = gsm8k(dataset="mgsm", language="en", fewshot=0).dataset
    assert [s.input for s in english] == [q.strip() for q in questions[:250]]


@real
def test_real_platinum_pairs_by_question(real_family: Path) -> None:
    platinum = real_family / "gsm8k-platinum"
    if not (platinum / "mapping_to_gsm8k_test.jsonl").is_file():
        pytest.skip("no local GSM8K-Platinum copy beside GSM8K_DATA_DIR")
    mapping = [
        json.loads(line)["gsm8k_test_index"]
        for line in (platinum / "mapping_to_gsm8k_test.jsonl").read_text().splitlines()
    ]
    task = gsm8k(dataset=str(platinum), fewshot=0)
    assert [s.id for s in task.dataset] == mapping
    assert task.dataset.name == "gsm8k-platinum"


# Network: each variant by its hub id (off by default; `pytest -m network`).


@pytest.mark.network
@pytest.mark.parametrize(
    ("name", "language", "count", "originals"),
    [
        ("gsm-symbolic", None, 5000, 100),
        ("gsm-symbolic-p1", None, 5000, 100),
        ("gsm-symbolic-p2", None, 2500, 50),
        ("gsm-plus", None, 10552, 1319),
        ("gsm-plus-mini", None, 2400, 300),
        *[("mgsm", language, 250, 250) for language in MGSM_LANGUAGES],
    ],
)
def test_hub_variants(
    monkeypatch: pytest.MonkeyPatch, name: str, language: str | None, count: int, originals: int
) -> None:
    monkeypatch.delenv("GSM8K_FAMILY_DIR", raising=False)
    monkeypatch.delenv("GSM8K_DATA_DIR", raising=False)
    assert not os.environ.get("GSM8K_DATA_DIR")
    task = gsm8k(dataset=name, language=language, fewshot=5 if name == "mgsm" else 0)
    assert len(task.dataset) == count
    assert len({s.metadata["gsm8k_index"] for s in task.dataset}) == originals
    assert task.metadata["dataset"].startswith("hf://")
    assert task.metadata["dataset_revision"]
