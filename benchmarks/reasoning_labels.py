"""How the reasoning-model completions are labelled: a reading procedure written apart from the
grader's code (:func:`reference_label`), and the labels set by reading every row the procedure and
a grader disagreed on (:data:`READ_LABELS`, each with its reason).

``build_reasoning_completions.py`` applies them when it redoes the labels; the procedure and the
reading policy are described in ``benchmarks/data/reasoning/README.md``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# Rows read by hand whose label differs from the reading procedure, with the reason.
READ_LABELS: dict[str, tuple[bool, str]] = {}
_CUT = "cut off at the token limit mid-sentence (think/answer cycles or working): never finished"
for _row_id in (
    "14B_NxN/de/s1_infer_8000_en/230",
    "14B_NxN/de/s1_infer_8000_sw/153",
    "14B_NxN/fr/s1_infer_8000_en/198",
    "14B_NxN/ja/s1_infer_8000_bn/20",
    "14B_NxN/ja/s1_infer_8000_te/165",
    "14B_NxN/ja/s1_infer_8000_te/216",
    "14B_NxN/ru/s1_infer_8000_bn/236",
    "14B_NxN/te/s1_infer_8000_en/146",
    "14B_NxN/te/s1_infer_8000_en/179",
    "14B_NxN/zh/s1_infer_8000_ru/172",
    "14B_NxN/zh/s1_infer_8000_te/31",
    "14B_NxN/zh/s1_infer_8000_te/234",
    "14B_combined_en_only/de/s1_infer_8000/230",
    "14B_combined_en_only/fr/s1_infer_8000/198",
    "14B_combined_en_only/te/s1_infer_8000/146",
    "14B_combined_en_only/te/s1_infer_8000/179",
    "32B_combined/ja/s1_infer_8000/127",
    "32B_prefix/es/s1_infer_8000/200",
    "32B_system/en/s1_infer_8000/224",
    "14B_NxN/es/s1_infer_8000_sw/236",
    "14B_NxN/ja/s1_infer_8000_te/87",
    "14B_system/te/s1_infer_8000/201",
    "14B_NxN/sw/s1_infer_8000_zh/232",
    "14B_NxN/fr/s1_infer_8000_bn/146",
    "14B_NxN/fr/s1_infer_8000_zh/107",
    "14B_NxN/ru/s1_infer_8000_zh/138",
    "14B_NxN/zh/s1_infer_8000_zh/0",
    "7B_combined_en_only/ja/s1_infer_8000/245",
):
    READ_LABELS[_row_id] = (False, _CUT)
# Loops after a delivered answer whose every copy restates the same value (every \\boxed{} in
# the text holds the gold): delivered, by the loop policy of docs/grading.md.
_SAME_VALUE_LOOP = (
    "a loop after a delivered \\boxed{} answer restates its value in every "
    "copy: delivered (loop policy)"
)
for _row_id in (
    "14B_NxN/de/s1_infer_8000_en/101",
    "14B_NxN/en/s1_infer_8000_es/207",
    "14B_NxN/es/s1_infer_8000_sw/33",
    "14B_NxN/ja/s1_infer_8000_es/115",
    "14B_NxN/ru/s1_infer_8000_es/246",
    "14B_NxN/ru/s1_infer_8000_fr/92",
    "14B_NxN/ru/s1_infer_8000_th/107",
    "14B_NxN/sw/s1_infer_8000_de/87",
    "14B_NxN/sw/s1_infer_8000_es/35",
    "14B_NxN/te/s1_infer_8000_de/171",
    "14B_NxN/te/s1_infer_8000_en/74",
    "14B_NxN/th/s1_infer_8000_bn/118",
    "14B_NxN/th/s1_infer_8000_ru/58",
    "14B_NxN/th/s1_infer_8000_th/144",
    "14B_combined/de/s1_infer_8000/102",
    "14B_combined/fr/s1_infer_8000/123",
    "14B_combined/zh/s1_infer_8000/136",
    "14B_combined_en_only/de/s1_infer_8000/101",
    "14B_combined_en_only/te/s1_infer_8000/74",
    "32B_combined_en_only/es/s1_infer_8000/57",
):
    READ_LABELS[_row_id] = (True, _SAME_VALUE_LOOP)
READ_LABELS.update(
    {
        "14B_NxN/ja/s1_infer_8000_bn/212": (False, "final \\boxed{\\dfrac{5}{2}} is 2.5, gold 5"),
        "14B_NxN/te/s1_infer_8000_ru/111": (False, "final \\boxed{\\dfrac{16}{300}}, gold 16"),
        "14B_NxN/te/s1_infer_8000_zh/202": (False, "final \\boxed{\\dfrac{100}{7}}, gold 100"),
        "14B_NxN/ja/s1_infer_8000_th/86": (True, "answer section: คำตอบคือ 22 ครั้ง, gold 22"),
        "32B_combined/es/s1_infer_8000/24": (True, "\\boxed{26{,}00} is 26 (decimal comma)"),
        "32B_system/es/s1_infer_8000/58": (True, "\\boxed{57{,}00} is 57 (decimal comma)"),
        "32B_combined_en_only/es/s1_infer_8000/70": (True, "\\boxed{\\$7.425,00} is 7425"),
        "32B_system/sw/s1_infer_8000/54": (True, "Final Answer: … \\boxed{40}, gold 40"),
        "7B_combined_en_only/ja/s1_infer_8000/125": (
            True,
            "\\boxed{10}, then an empty appended Final Answer: the box was delivered, gold 10",
        ),
    }
)


def reference_label(completion: str, target: str) -> tuple[bool, str]:
    """The label by the reading procedure, and which part of the text decided it.

    1. A text whose end repeats one passage at least three times over 400+ characters ran to the
       token limit in a loop: no answer.
    2. The final section is the text after the last ``<|im_start|>answer``; without one, after
       the last ``Final Answer:`` (the string budget forcing appends).
    3. Its answer is the last ``\\boxed{}`` of that section, else the section's last number.
    """
    if _tail_repeats(completion):
        return False, "loop"
    marker = completion.rfind("<|im_start|>answer")
    if marker >= 0:
        section = completion[marker + len("<|im_start|>answer") :]
    else:
        forced = [m.end() for m in re.finditer(r"(?<!\*)Final Answer:", completion)]
        if not forced:
            return False, "no final section"
        section = completion[forced[-1] :]
    boxed = _boxed_contents(section)
    numbers = _NUMBER.findall(section)
    text = boxed[-1] if boxed else (numbers[-1] if numbers else "")
    value = _value(text)
    return value is not None and value == Decimal(target), "boxed" if boxed else "last number"


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def _value(text: str) -> Decimal | None:
    text = re.sub(r"\\[,!; ]|\{,\}(?=\d{3})", "", text).replace("{,}", ",")
    found = _NUMBER.search(text)
    if found is None:
        return None
    number = found.group(0)
    if re.fullmatch(r"-?\d{1,3}(?:\.\d{3})*,\d{1,2}", number):  # 7.425,00  26,00
        number = number.replace(".", "").replace(",", ".")
    try:
        return Decimal(number.replace(",", ""))
    except InvalidOperation:
        return None


def _boxed_contents(text: str) -> list[str]:
    contents = []
    for start in re.finditer(r"\\boxed\s*\{", text):
        depth, position = 1, start.end()
        while position < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            position += 1
        if depth == 0:
            contents.append(text[start.end() : position - 1])
    return contents


def _tail_repeats(text: str, window: int = 6000, shortest: int = 400, times: int = 3) -> bool:
    reversed_tail = text.rstrip()[-window:][::-1]
    border = [0] * len(reversed_tail)
    for index in range(1, len(reversed_tail)):
        length = border[index - 1]
        while length and reversed_tail[index] != reversed_tail[length]:
            length = border[length - 1]
        if reversed_tail[index] == reversed_tail[length]:
            length += 1
        border[index] = length
    return any(
        (size - border[size - 1]) * times <= size
        for size in range(shortest, len(reversed_tail) + 1)
    )
