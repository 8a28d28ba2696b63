"""Synthetic GSM8K files and GSM-Symbolic-format templates, and three scripted models: a
memorizer, a reasoner and a guesser, for the contamination report's tests.

Template ``i`` is made from test question ``i``: with its slots at their defaults it is that
question, word for word, and its solution that question's solution.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path

from gsm8k.contamination.overlap import words

ITEMS = ("apples", "pencils", "stickers", "marbles", "cookies", "shells", "stamps", "beads")
PLACES = ("market", "school", "library", "park", "garden", "museum", "bakery", "harbor")
VERBS = ("buys", "finds", "gets", "wins", "receives", "collects", "picks", "earns")
NAMES = ("Ava", "Liam", "Noor", "Mateo", "Chen", "Zara", "Ivan", "Lena")
INSTRUCTION_END = "nothing else.\n\n"


def _parts(index: int) -> tuple[str, str, str, str, int, int]:
    item = ITEMS[index % len(ITEMS)]
    place = PLACES[(index // len(ITEMS)) % len(PLACES)]
    verb = VERBS[(index // 3) % len(VERBS)]
    name = NAMES[index % len(NAMES)]
    return item, place, verb, name, 3 + index % 17, 5 + (index * 7) % 23


def question(index: int) -> str:
    item, place, verb, name, x, y = _parts(index)
    return (
        f"{name} has {x} {item} at the {place} on day {index}. Then {name} {verb} {y} more "
        f"{item}. How many {item} does {name} have now?"
    )


def solution(index: int) -> str:
    item, _, _, name, x, y = _parts(index)
    worked = f"{name} starts with {x} {item} and adds {y}.\n{x} + {y} = <<{x}+{y}={x + y}>>{x + y}"
    return f"{worked}\n#### {x + y}"


def write_gsm8k(folder: Path, templates: int, train: int = 120) -> Path:
    """``test.jsonl`` (one question per template) and ``train.jsonl`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "test.jsonl").open("w", encoding="utf-8") as file:
        for index in range(templates):
            file.write(json.dumps({"question": question(index), "answer": solution(index)}) + "\n")
    with (folder / "train.jsonl").open("w", encoding="utf-8") as file:
        for index in range(train):
            item, size = ITEMS[index % len(ITEMS)], index + 2
            record = {
                "question": f"A box holds {size} {item} in row {index}. Two boxes hold how many?",
                "answer": f"Two boxes hold 2 * {size} = {2 * size} {item}.\n#### {2 * size}",
            }
            file.write(json.dumps(record) + "\n")
    return folder


def write_templates(folder: Path, templates: int) -> Path:
    """``templates`` GSM-Symbolic-format files (``symbolic/0000.json`` ...)."""
    symbolic = folder / "symbolic"
    symbolic.mkdir(parents=True, exist_ok=True)
    for index in range(templates):
        item, place, verb, name, x, y = _parts(index)
        annotated = (
            f"{{name,{name}}} has {{x,{x}}} {item} at the {place} on day {index}. Then "
            f"{{name,{name}}} {verb} {{y,{y}}} more {item}. How many {item} does "
            f"{{name,{name}}} have now?\n\n#init:\n- name = sample(names)\n"
            "- $x = range(3, 60)\n- $y = range(5, 60)\n\n#conditions:\n- x + y < 120\n\n"
            "#answer: x + y"
        )
        answer = (
            f"{{name}} starts with {{x}} {item} and adds {{y}}.\n{{x}} + {{y}} = "
            "<<{x}+{y}={x+y}>>{x+y}\n#### {x+y}"
        )
        record = {
            "question": question(index),
            "answer": solution(index),
            "id_orig": index,
            "id_shuffled": index,
            "question_annotated": annotated,
            "answer_annotated": answer,
        }
        (symbolic / f"{index:04d}.json").write_text(json.dumps(record), encoding="utf-8")
    return folder


def _hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def _question_of(prompt: str) -> str:
    return prompt.rsplit("Question:", 1)[-1].strip()


def _shown(prompt: str) -> str:
    tail = prompt.rsplit(INSTRUCTION_END, 1)[-1]
    return tail.rsplit("Solution: ", 1)[-1] if "Solution: " in tail else tail


def _is_probe(prompt: str) -> bool:
    return "word for word" in prompt


def _recite(shown: str, texts: list[str]) -> str:
    """The rest of the known text whose opening words agree longest with ``shown``, cut after
    as many words as were shown: a model reciting what it saw."""
    shown_words = words(shown)

    def agreement(text: str) -> int:
        count = 0
        for a, b in zip(words(text), shown_words, strict=False):
            if a != b:
                break
            count += 1
        return count

    best = max(texts, key=agreement)
    chunks = list(re.finditer(r"\S+", best))
    position = min(len(shown.split()), len(chunks) - 1)
    return best[chunks[position].start() :]


def memorizer(templates: int) -> Callable[[str], str]:
    """Knows the test questions, their solutions and answers by heart; on anything else it
    recites the nearest test text and answers with that question's answer."""
    questions = [question(i) for i in range(templates)]
    texts = questions + [solution(i) for i in range(templates)]

    def respond(prompt: str) -> str:
        if _is_probe(prompt):
            return _recite(_shown(prompt), texts)
        asked = _question_of(prompt)
        nearest = max(
            range(templates), key=lambda i: len(set(words(questions[i])) & set(words(asked)))
        )
        return f"I remember this one.\nANSWER: {solution(nearest).rsplit('#### ', 1)[1]}"

    return respond


def reasoner(answers: dict[str, str], rate: float = 0.8) -> Callable[[str], str]:
    """Solves a share ``rate`` of all questions, originals and fresh alike (decided by the
    question's text), and recites nothing."""

    def respond(prompt: str) -> str:
        if _is_probe(prompt):
            return "The problem goes on to ask a question about the total amount."
        asked = _question_of(prompt)
        right = (_hash(asked) % 1000) / 1000 < rate
        answer = answers[asked] if right else str(int(answers[asked]) + 1)
        return f"Adding the two amounts gives the total.\nANSWER: {answer}"

    return respond


def guesser() -> Callable[[str], str]:
    """A number and some words picked by the prompt's hash: right by chance only."""

    def respond(prompt: str) -> str:
        seed = _hash(prompt)
        if _is_probe(prompt):
            return " ".join(ITEMS[(seed >> k) % len(ITEMS)] for k in range(12))
        return f"ANSWER: {1000 + seed % 9000}"

    return respond
