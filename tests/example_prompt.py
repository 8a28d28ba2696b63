"""The README's example prompt, rendered by running the task: ``python -m tests.example_prompt``
prints the block that ``tests/test_docs.py`` compares with the README (from the bundled GSM8K copy,
or ``$GSM8K_DATA_DIR``'s)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

EXAMPLE_ARGS = {"fewshot": 2}
"""Task parameters of the example (the README says which); the rest are the defaults."""
BEGIN, END = "<!-- example-prompt -->", "<!-- /example-prompt -->"


def render(data_dir: Path | None = None) -> str:
    """The messages the model receives for GSM8K test question 0, as the README shows them
    (``data_dir``: a GSM8K copy; the bundled one by default)."""

    def reply(prompt: str) -> str:
        return "ANSWER: 18"

    # Its log goes to a temporary folder: the user's logs/ holds their own runs only.
    with tempfile.TemporaryDirectory() as log_dir:
        log = run_eval(
            gsm8k(dataset=str(data_dir) if data_dir else None, **EXAMPLE_ARGS),
            scripted_model(reply),
            limit=1,
            log_dir=log_dir,
        )
        messages = [m for m in log.samples[0].messages if m.role != "assistant"]
    blocks = [f"[{message.role}]\n{message.text}" for message in messages]
    return "\n".join([BEGIN, "```text", *blocks, "```", END])


if __name__ == "__main__":
    data = os.environ.get("GSM8K_DATA_DIR")
    print(render(Path(data) if data else None))
