"""``dataset=gsm-symbolic-fresh``: questions drawn at run time from GSM-Symbolic's templates,
each template's GSM8K original beside its fresh instances.

For every template the set holds its GSM8K original (the GSM8K test record itself, read by the
same loader as ``dataset=gsm8k``) and ``per_template`` fresh instances. Sample ids name the GSM8K
test question first, as the other GSM-family sets do: ``0473-original`` and ``0473-fresh-00`` ...
``0473-fresh-04`` all come from the template made from GSM8K test item 473, so one run pairs
originals and fresh questions by template. The same seed always draws the same questions (with
the same templates and the same version of this package); instance k of a template does not
depend on how many instances, or which other templates, a run asks for.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from gsm8k.data.fresh.instances import Drawer, InstantiationError, instance_rng
from gsm8k.data.fresh.templates import (
    MAX_TEMPLATE_BYTES,
    Template,
    TemplateError,
    load_templates,
)
from gsm8k.data.splits import GOLD_DELIMITER, LoadedSplit, from_start_directory
from gsm8k.grading.numbers import normalize, parse_gold

FRESH_SOURCE = "gsm-symbolic-fresh"
"""The ``dataset`` name of this set."""
TEMPLATES_ENV = "GSM_SYMBOLIC_TEMPLATES"
"""Environment variable naming the templates folder when ``-T templates`` is not given."""
DEFAULT_FRESH_SEED = 0
DEFAULT_PER_TEMPLATE = 5
MAX_PER_TEMPLATE = 100
"""At most this many fresh instances per template (10,000 questions over the 100 templates):
past a few dozen, more instances barely narrow the paired drop, whose interval is set by the 100
originals, while the run's cost grows with every question."""
INDEX_WIDTH = 4

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FreshSet:
    """The samples of one run and what went into them."""

    samples: list[Sample]
    folder: Path
    seed: int
    per_template: int
    templates: int
    """Templates read from the folder."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Templates that yielded no instance (file stem → why); neither their original nor any
    fresh instance is in the set, so the pairs stay balanced."""
    checksum: str = ""
    """SHA-256 over the template files' names and contents, in file order."""


@dataclass(frozen=True)
class FreshOptions:
    """The task's ``fresh_seed``, ``fresh_per_template`` and ``templates``, checked."""

    folder: Path
    seed: int
    per_template: int


def fresh_options(
    source: str, seed: object, per_template: object, templates: str | None
) -> FreshOptions | None:
    """The fresh-question settings for ``dataset=gsm-symbolic-fresh`` (``None`` for any other
    dataset), checked before anything is read or run.

    Raises:
        ValueError: one line naming the parameter: a setting given for another dataset, a seed
            that is not a whole number, too many instances, no templates folder.
    """
    if source != FRESH_SOURCE:
        given = [
            name
            for name, value in (
                ("fresh_seed", seed),
                ("fresh_per_template", per_template),
                ("templates", templates),
            )
            if value is not None
        ]
        if given:
            raise ValueError(f"{', '.join(given)} applies to dataset={FRESH_SOURCE} only.")
        return None
    checked_seed, count = validate_fresh_arguments(
        DEFAULT_FRESH_SEED if seed is None else seed,
        DEFAULT_PER_TEMPLATE if per_template is None else per_template,
    )
    return FreshOptions(templates_folder(templates), checked_seed, count)


def validate_fresh_arguments(seed: object, per_template: object) -> tuple[int, int]:
    """The seed and instance count, or a one-line error naming the parameter.

    Raises:
        ValueError: the seed is not a whole number ≥ 0, or the count is not 1 to
            :data:`MAX_PER_TEMPLATE`.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"fresh_seed={seed!r}: pass a whole number, 0 or more.")
    if isinstance(per_template, bool) or not isinstance(per_template, int) or per_template < 1:
        raise ValueError(
            f"fresh_per_template={per_template!r}: pass a whole number of instances per "
            f"template, 1 to {MAX_PER_TEMPLATE}."
        )
    if per_template > MAX_PER_TEMPLATE:
        raise ValueError(
            f"fresh_per_template={per_template}: at most {MAX_PER_TEMPLATE} per template "
            f"({MAX_PER_TEMPLATE * 100:,} questions over the 100 templates); more barely "
            "narrows the paired drop, whose interval the 100 originals set."
        )
    return seed, per_template


def templates_folder(templates: str | None) -> Path:
    """The folder of templates named by ``-T templates`` or ``$GSM_SYMBOLIC_TEMPLATES``.

    A relative path is taken from the directory the command was started in. A copy of the whole
    ``templates/`` folder is accepted too: its ``symbolic/`` subfolder is used.

    Raises:
        ValueError: neither is given, or the folder does not exist.
    """
    value = templates or os.environ.get(TEMPLATES_ENV)
    if not value:
        raise ValueError(
            f"dataset={FRESH_SOURCE} needs GSM-Symbolic's templates: pass -T templates=PATH or "
            f"set {TEMPLATES_ENV} to a local copy of apple/ml-gsm-symbolic's templates/symbolic "
            "(CC BY-NC-ND 4.0; not shipped with this package)."
        )
    where = "templates" if templates else TEMPLATES_ENV
    path = from_start_directory(value)
    if not path.is_dir():
        raise ValueError(
            f"{where}={value!r}: no such folder ({path}); point it at a copy of "
            "apple/ml-gsm-symbolic's templates/symbolic."
        )
    if not any(path.glob("*.json")) and (path / "symbolic").is_dir():
        return path / "symbolic"
    return path


def fresh_set(
    folder: str | Path,
    seed: int = DEFAULT_FRESH_SEED,
    per_template: int = DEFAULT_PER_TEMPLATE,
    include_originals: bool = True,
    gsm8k_records: Callable[[], Sequence[dict[str, Any]]] | None = None,
    reader: str = FRESH_SOURCE,
) -> FreshSet:
    """Draw ``per_template`` fresh instances of every template in ``folder``.

    Args:
        folder: The templates folder (``templates/symbolic`` of apple/ml-gsm-symbolic).
        seed: The seed; the same seed gives the same questions.
        per_template: Fresh instances per template.
        include_originals: Add each template's GSM8K original.
        gsm8k_records: Returns GSM8K's test records in order (default: the test split of the
            default GSM8K source, as ``dataset=gsm8k`` reads it).
        reader: What draws them, as the warning about a skipped template names it
            (``gsm-symbolic-fresh``, or the memorization probe).

    Raises:
        TemplateError: a template is malformed (file and line named).
        ValueError: a bad seed or count, or a GSM8K record that does not match its template.
    """
    seed, per_template = validate_fresh_arguments(seed, per_template)
    path = Path(folder)
    templates = load_templates(path)
    records: Sequence[dict[str, Any]] = []
    if include_originals:
        records = (gsm8k_records or gsm8k_test_records)()
    samples: list[Sample] = []
    skipped: dict[str, str] = {}
    for template in templates:
        try:
            fresh = fresh_instances(template, seed, per_template)
        except InstantiationError as error:
            skipped[template.name] = str(error)
            logger.warning("%s: skipped: %s", reader, error)
            continue
        if include_originals:
            samples.append(original_sample(template, records))
        samples.extend(fresh)
    if not samples and skipped:
        first, why = next(iter(skipped.items()))
        raise TemplateError(
            f"every template in {path} was skipped, nothing to evaluate ({first}: {why})"
        )
    return FreshSet(
        samples=samples,
        folder=path.resolve(),
        seed=seed,
        per_template=per_template,
        templates=len(templates),
        skipped=skipped,
        checksum=templates_checksum(templates),
    )


def fresh_samples(
    folder: str | Path,
    seed: int = DEFAULT_FRESH_SEED,
    per_template: int = DEFAULT_PER_TEMPLATE,
    include_originals: bool = True,
) -> list[Sample]:
    """The samples of :func:`fresh_set` (skipped templates are logged as warnings)."""
    return fresh_set(folder, seed, per_template, include_originals).samples


def fresh_instances(template: Template, seed: int, per_template: int) -> list[Sample]:
    """The fresh samples of one template.

    Raises:
        InstantiationError: the template yields no instance.
    """
    drawer = Drawer(template)
    samples = []
    for k in range(per_template):
        instance = drawer.instance(instance_rng(seed, template.name, k))
        samples.append(
            Sample(
                id=f"{template.original_index:0{INDEX_WIDTH}d}-fresh-{k:02d}",
                input=instance.question,
                target=str(instance.answer),
                metadata={
                    "template": template.name,
                    "original_index": template.original_index,
                    "gsm8k_index": template.original_index,
                    "instance": k,
                    "kind": "fresh",
                    "bindings": instance.bindings,
                    "fresh_seed": seed,
                    # without its "#### N" line, as GSM8K samples keep their solutions
                    "solution": instance.solution.rsplit(GOLD_DELIMITER, 1)[0].strip(),
                    "variant": FRESH_SOURCE,
                },
            )
        )
    return samples


def original_sample(template: Template, records: Sequence[dict[str, Any]]) -> Sample:
    """The GSM8K test record a template was made from, as a sample paired with its instances.

    Raises:
        ValueError: GSM8K has no such record, or its question is not the template's original.
    """
    index = template.original_index
    where = f"{template.path.name} (id_orig {index})"
    if index >= len(records):
        raise ValueError(
            f"{where}: GSM8K's test split has {len(records)} records, not {index + 1}."
        )
    record = records[index]
    question, answer = record.get("question"), record.get("answer")
    if not isinstance(question, str) or not isinstance(answer, str) or GOLD_DELIMITER not in answer:
        raise ValueError(f"{where}: GSM8K test record {index} has no question and answer.")
    if " ".join(question.split()) != " ".join(template.original_question.split()):
        raise ValueError(
            f"{where}: GSM8K test record {index} is not the question this template was made "
            "from; check that the GSM8K copy is the official test split."
        )
    solution, final = answer.rsplit(GOLD_DELIMITER, 1)
    return Sample(
        id=f"{index:0{INDEX_WIDTH}d}-original",
        input=question.strip(),
        target=normalize(parse_gold(final)),
        metadata={
            "template": template.name,
            "original_index": index,
            "gsm8k_index": index,
            "instance": "original",
            "kind": "original",
            "bindings": None,
            "solution": solution.strip(),
            "variant": FRESH_SOURCE,
        },
    )


def gsm8k_test_records() -> list[dict[str, Any]]:
    """GSM8K's test records in order, from the default source (``$GSM8K_DATA_DIR`` or the hub)."""
    from gsm8k.data.splits import default_source, load_split

    source = default_source()
    return load_split(source, "test", parameter="dataset").records


def templates_checksum(templates: Sequence[Template]) -> str:
    """SHA-256 over the templates' file names and bytes: which templates a run drew from."""
    digest = hashlib.sha256()
    for template in templates:
        digest.update(template.path.name.encode())
        with template.path.open("rb") as handle:  # as bounded as when it was read
            digest.update(handle.read(MAX_TEMPLATE_BYTES + 1))
    return digest.hexdigest()


def fresh_details(fresh: FreshSet) -> dict[str, Any]:
    """What a run's log records about its fresh questions."""
    return {
        "fresh_seed": fresh.seed,
        "fresh_per_template": fresh.per_template,
        "templates": str(fresh.folder),
        "templates_sha256": fresh.checksum,
        "templates_read": fresh.templates,
        "templates_skipped": fresh.skipped,
    }


def fresh_split(fresh: FreshSet) -> LoadedSplit:
    """Where the run's questions came from, as the log records a dataset's origin."""
    return LoadedSplit(
        records=[],
        location=str(fresh.folder),
        revision=None,
        sha256=fresh.checksum,
        split="test",
    )
