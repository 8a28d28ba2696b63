"""Working written on the answer line: the value is the result it gives (gsm8k/grading/reader)."""

from __future__ import annotations

import pytest

from gsm8k.grading import grade


@pytest.mark.parametrize(
    ("stated", "answer"),
    [
        ("ANSWER: Half of 40 is 20", "20"),
        ("ANSWER: 25% of 80 is 20", "20"),
        ("ANSWER: 2 times 9 is 18", "18"),
        ("ANSWER: 9 eggs at $2 each makes $18", "18"),
        ("ANSWER: The cost of 9 eggs is $18", "18"),
        ("ANSWER: $18 = $2 × 9 eggs", "18"),
        ("Answer: In 10 years, Tim gets 300 lemons.", "300"),
        ("Answer: After 3 days, she has 45 apples.", "45"),
        # Not working: a value with a note, arithmetic with no result.
        ("ANSWER: 18, which is 2 more than 16", "18"),
        ("ANSWER: 18 (9 × 2 is 18)", "18"),
        ("ANSWER: In total, 18", "18"),
        ("ANSWER: 2 times 9", None),
        ("ANSWER: 18 = 2 × 9 = 20", "20"),
    ],
)
def test_the_answer_line_states_the_result_of_its_working(stated: str, answer: str | None) -> None:
    assert grade("Working it out.\n" + stated, answer or "18").answer == answer
