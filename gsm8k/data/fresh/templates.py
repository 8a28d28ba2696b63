"""Reading GSM-Symbolic's symbolic templates (apple/ml-gsm-symbolic ``templates/symbolic/``).

Each template is a JSON file: the original GSM8K item (``question``, ``answer``, ``id_orig``), the
question with slots (``question_annotated``) and the worked solution with expressions
(``answer_annotated``). The annotated question is the question text with ``{name,default}``
slots, then sections::

    #init:
    - name = sample(names)
    - $x = range(10, 500, 10)
    - a, b = sample(["red", "blue", "green"], 2)
    #conditions:
    - divides(x, 5)
    #answer: x // 5

The files are CC BY-NC-ND 4.0: they are read where the user keeps them, never copied here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from gsm8k.data.fresh.expressions import Expression, compile_expression
from gsm8k.data.fresh.values import ExpressionError
from gsm8k.data.fresh.vocabulary import VOCABULARIES

TEMPLATE_FIELDS = ("question", "answer", "id_orig", "question_annotated", "answer_annotated")
MAX_TEMPLATE_BYTES = 1_000_000
"""A template file larger than this is refused unread (the real ones are under 10 kB)."""
MAX_TEMPLATES = 1_000
"""A folder with more ``*.json`` files than this is refused before any is read (GSM-Symbolic's
``symbolic/`` holds 100): together with :data:`MAX_TEMPLATE_BYTES` this bounds what a folder
costs to read."""

SLOT = re.compile(r"\{\s*([A-Za-z_]\w*)\s*,([^{}]*)\}")
_STATEMENT = re.compile(r"^\s*(\$?[A-Za-z_]\w*(?:\s*,\s*\$?[A-Za-z_]\w*)*)\s*=(?!=)(.*)$")
_SECTION = re.compile(r"^\s*#\s*(init|conditions|answer)\s*(:|=)?(.*)$")
_EXPRESSION = re.compile(r"\{([^{}]*)\}")


class TemplateError(ValueError):
    """A template cannot be read or instantiated; the message names the file (and line)."""


@dataclass(frozen=True)
class Slot:
    """One ``{name,default}`` in the question."""

    name: str
    default: str
    line: int


@dataclass(frozen=True)
class Statement:
    """One ``#init:`` line: the names it binds and the expression that gives their values."""

    targets: tuple[str, ...]
    expression: Expression
    line: int


@dataclass(frozen=True)
class Condition:
    expression: Expression
    line: int


@dataclass(frozen=True)
class Template:
    """One parsed template."""

    name: str
    """The file's stem, ``0000`` ... ``0099``."""
    path: Path
    original_index: int
    """The GSM8K test index of the question it was made from."""
    original_question: str
    original_answer: str
    text: str
    """The question with its slots, before ``#init:``."""
    slots: tuple[Slot, ...]
    statements: tuple[Statement, ...]
    conditions: tuple[Condition, ...]
    answer: Expression
    answer_line: int
    solution: str
    """The worked solution template (``answer_annotated``) with ``{expression}`` parts."""
    solution_parts: tuple[Expression, ...]
    """The solution's expressions in order of appearance."""

    @property
    def variables(self) -> tuple[str, ...]:
        """Every variable the template defines, in definition order."""
        return tuple(target for statement in self.statements for target in statement.targets)

    def where(self, line: int | None = None) -> str:
        """``0003.json`` or ``0003.json, question_annotated line 14`` for messages."""
        return self.path.name + (f", question_annotated line {line}" if line else "")


def load_templates(folder: str | Path) -> list[Template]:
    """Every ``*.json`` template in ``folder``, in file-name order.

    Raises:
        TemplateError: the folder is missing or empty, or a template is malformed (the file and
            line are named).
    """
    path = Path(folder)
    if not path.is_dir():
        raise TemplateError(
            f"templates folder {path} does not exist: pass -T templates=PATH or set "
            "GSM_SYMBOLIC_TEMPLATES to a copy of apple/ml-gsm-symbolic's templates/symbolic."
        )
    # Listed no further than one past the bound: a folder of millions of files is refused fast.
    files = sorted(islice(path.glob("*.json"), MAX_TEMPLATES + 1))
    if not files:
        raise TemplateError(
            f"templates folder {path} holds no *.json templates (expected apple/ml-gsm-symbolic's "
            "templates/symbolic, 0000.json ... 0099.json)."
        )
    if len(files) > MAX_TEMPLATES:
        raise TemplateError(
            f"templates folder {path} holds more than {MAX_TEMPLATES:,} *.json files; point it at "
            "a copy of apple/ml-gsm-symbolic's templates/symbolic (100 files)."
        )
    templates = [load_template(file) for file in files]
    first: dict[int, str] = {}
    for template in templates:
        other = first.setdefault(template.original_index, template.path.name)
        if other != template.path.name:
            raise TemplateError(
                f"{other} and {template.path.name} were both made from GSM8K test item "
                f"{template.original_index}: a folder holds one template per question (use "
                "templates/symbolic, p1 or p2, not several at once)."
            )
    return templates


def load_template(path: Path) -> Template:
    """Parse one template file.

    Raises:
        TemplateError: naming the file, and the line of ``question_annotated`` where the fault is.
    """
    name = path.name
    try:
        if not path.is_file():  # a FIFO or device would block or never end
            raise TemplateError(f"{name}: not a regular file.")
        # Read no more than the bound whatever the size says: files under /proc claim 0 bytes.
        with path.open("rb") as handle:
            data = handle.read(MAX_TEMPLATE_BYTES + 1)
    except OSError as error:
        raise TemplateError(
            f"{name}: cannot be read ({error.strerror or type(error).__name__}); "
            "a template is a JSON file of apple/ml-gsm-symbolic's templates/symbolic."
        ) from error
    if len(data) > MAX_TEMPLATE_BYTES:
        raise TemplateError(f"{name}: larger than {MAX_TEMPLATE_BYTES} bytes; not a template.")
    try:
        record = json.loads(data.decode("utf-8"))
    except json.JSONDecodeError as error:
        message = f"{name}: line {error.lineno}: not valid JSON ({error.msg})."
        raise TemplateError(message) from error
    except UnicodeDecodeError as error:
        raise TemplateError(f"{name}: not UTF-8 text.") from error
    except RecursionError as error:  # brackets nested thousands deep
        raise TemplateError(f"{name}: JSON nested too deeply; not a template.") from error
    if not isinstance(record, dict):
        raise TemplateError(
            f"{path.name}: expected a JSON object with {', '.join(TEMPLATE_FIELDS)}."
        )
    missing = [f for f in TEMPLATE_FIELDS if f not in record]
    if missing:
        raise TemplateError(f"{path.name}: missing field(s) {', '.join(missing)}.")
    for field in ("question", "answer", "question_annotated", "answer_annotated"):
        if not isinstance(record[field], str):
            raise TemplateError(f"{path.name}: field {field!r} must be text.")
    index = record["id_orig"]
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise TemplateError(f"{path.name}: 'id_orig' must be a GSM8K test index, got {index!r}.")
    return _parse(path, record, index)


def _parse(path: Path, record: dict[str, object], index: int) -> Template:
    annotated = str(record["question_annotated"]).replace("\r\n", "\n")
    lines = annotated.split("\n")
    first_section = next((n for n, line in enumerate(lines) if _SECTION.match(line)), None)
    if first_section is None:
        raise TemplateError(f"{path.name}: question_annotated has no #init: section.")
    text = "\n".join(lines[:first_section]).rstrip()
    slots = _slots(path, text)
    defined: list[str] = []
    statements: list[Statement] = []
    conditions: list[Condition] = []
    answer: tuple[str, int] | None = None
    section = ""

    def known(name: str) -> bool:
        return name in defined or name in VOCABULARIES

    for number, line in enumerate(lines[first_section:], start=first_section + 1):
        header = _SECTION.match(line)
        where = f"{path.name}, question_annotated line {number}"
        if header:
            section = header.group(1)
            rest = header.group(3).strip()
            if section == "answer":
                if answer is not None:
                    raise TemplateError(f"{where}: a second #answer.")
                answer = (rest, number)
            elif rest:
                raise TemplateError(f"{where}: text after #{section}: belongs on its own lines.")
            continue
        content = line.strip()
        if not content:
            continue
        if section == "answer":
            raise TemplateError(f"{where}: unexpected text after the #answer: line.")
        if not content.startswith("-"):
            raise TemplateError(
                f"{where}: expected '- ...' under #{section}:, got {content[:60]!r}."
            )
        body = content[1:].strip()
        try:
            if section == "init":
                statement = _statement(body, number, known)
                statements.append(statement)
                defined.extend(statement.targets)
            else:
                conditions.append(Condition(compile_expression(body, known), number))
        except ExpressionError as error:
            raise TemplateError(f"{where}: {error}.") from error
    if answer is None or not answer[0]:
        raise TemplateError(f"{path.name}: question_annotated has no '#answer: <formula>' line.")
    answer_source, answer_line = answer
    # A few templates wrap the formula in braces, as the solution template writes expressions.
    if answer_source.startswith("{") and answer_source.endswith("}"):
        answer_source = answer_source[1:-1]
    try:
        answer_expression = compile_expression(answer_source, known)
    except ExpressionError as error:
        raise TemplateError(
            f"{path.name}, question_annotated line {answer_line}: #answer: {error}."
        ) from error
    for slot in slots:
        if slot.name not in defined:
            raise TemplateError(
                f"{path.name}, question_annotated line {slot.line}: slot {{{slot.name},...}} "
                "names a variable that #init: does not define."
            )
    solution = str(record["answer_annotated"])
    return Template(
        name=path.stem,
        path=path,
        original_index=index,
        original_question=str(record["question"]),
        original_answer=str(record["answer"]),
        text=text,
        slots=slots,
        statements=tuple(statements),
        conditions=tuple(conditions),
        answer=answer_expression,
        answer_line=answer_line,
        solution=solution,
        solution_parts=_solution_parts(path, solution, known),
    )


def _slots(path: Path, text: str) -> tuple[Slot, ...]:
    slots: list[Slot] = []
    for number, line in enumerate(text.split("\n"), start=1):
        rest = SLOT.sub("", line)
        if "{" in rest or "}" in rest:
            raise TemplateError(
                f"{path.name}, question_annotated line {number}: a brace that is not a "
                "{name,default} slot."
            )
        slots.extend(Slot(m.group(1), m.group(2).strip(), number) for m in SLOT.finditer(line))
    return tuple(slots)


def _statement(body: str, line: int, known: Callable[[str], bool]) -> Statement:
    match = _STATEMENT.match(body)
    if not match:
        raise ExpressionError(f"expected 'name = expression', got {body[:60]!r}")
    targets = tuple(t.strip().lstrip("$") for t in match.group(1).split(","))
    if len(set(targets)) != len(targets):
        raise ExpressionError("a name is bound twice on one line")
    expression = compile_expression(match.group(2), known)
    return Statement(targets, expression, line)


def _solution_parts(
    path: Path, solution: str, known: Callable[[str], bool]
) -> tuple[Expression, ...]:
    parts = []
    for match in _EXPRESSION.finditer(solution):
        try:
            parts.append(compile_expression(match.group(1), known))
        except ExpressionError as error:
            line = solution.count("\n", 0, match.start()) + 1
            raise TemplateError(f"{path.name}, answer_annotated line {line}: {error}.") from error
    return tuple(parts)
