"""Each preset sends the original's generation settings on the wire, as defaults the command line
overrides: request bodies recorded by an OpenAI-compatible server on 127.0.0.1.

The expected values are the originals' own (docs/presets.md, "On the wire", cites each):
lm-eval 0.4.13's API models send max_tokens 256 and seed 1234 with temperature 0 and the task's
until strings; Kojima et al. send temperature 0 with 128 tokens for the reasoning and 32 for the
answer; inspect_evals sets nothing; simple-evals' published GPT-4o samplers send temperature
0.5, max_tokens 2048 and the system message "You are a helpful assistant.".
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.preset_wire import FAMILY_FIXTURES, settings, wire_requests
from benchmarks.scripted_server import SERVICE, ScriptedServer

ROOT = Path(__file__).resolve().parent.parent
LM_EVAL = {"max_tokens": 256, "seed": 1234, "temperature": 0.0}

EXPECTED: dict[str, list[dict[str, Any]]] = {
    "lm-eval-gsm8k": [LM_EVAL | {"stop": ["Question:", "</s>", "<|im_end|>"], "system": None}],
    "lm-eval-gsm8k-cot": [LM_EVAL | {"stop": ["Q:", "</s>", "<|im_end|>"], "system": None}],
    "lm-eval-gsm8k-cot-zeroshot": [
        LM_EVAL | {"stop": ["Q:", "</s>", "<|im_end|>"], "system": None}
    ],
    "kojima-zero-shot-cot": [
        {"max_tokens": 128, "temperature": 0.0, "system": None},
        {"max_tokens": 32, "temperature": 0.0, "system": None},
    ],
    "simple-evals-mgsm": [
        {"max_tokens": 2048, "temperature": 0.5, "system": "You are a helpful assistant."}
    ],
}


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_a_preset_sends_the_originals_generation_settings(preset: str) -> None:
    assert [settings(body) for body in wire_requests(preset)] == EXPECTED[preset]


def test_inspect_evals_sends_no_generation_settings_and_its_exemplars_as_system() -> None:
    [body] = wire_requests("inspect-evals")
    sent = settings(body)
    assert {key for key in sent if key != "system"} == set()  # the provider's own defaults
    assert str(sent["system"]).endswith("ANSWER: 18")  # its exemplars' system message


def test_generation_options_override_a_presets_defaults() -> None:
    overrides = {"max_tokens": 64, "seed": 7, "temperature": 0.2}
    [body] = wire_requests("lm-eval-gsm8k", **overrides)
    assert settings(body) == overrides | {"stop": ["Question:", "</s>", "<|im_end|>"]} | {
        "system": None
    }
    first, answer = wire_requests("kojima-zero-shot-cot", max_tokens=256)
    assert first["max_tokens"] == 256 and answer["max_tokens"] == 32  # the answer step's own


@pytest.mark.slow  # a process or a large input: seconds each
def test_the_command_line_overrides_a_presets_defaults(tmp_path: Path) -> None:
    """``inspect eval``'s own flags, an empty --system-message removing simple-evals' one."""
    inspect_cli = shutil.which("inspect", path=str(Path(sys.executable).parent)) or "inspect"
    with ScriptedServer(lambda model, prompt: "Antwort: 18") as server:
        result = subprocess.run(
            [inspect_cli, "eval", "gsm8k/task.py", "-T", "preset=simple-evals-mgsm",
             "-T", "dataset=mgsm", "-T", "language=de", "--limit", "1",
             "--model", f"openai-api/{SERVICE}/cli", "--log-dir", str(tmp_path),
             "--max-tokens", "100", "--temperature", "0", "--system-message", "",
             "--display", "plain"],
            cwd=ROOT, env={**os.environ, **server.environment(), "PWD": str(ROOT),
                           "GSM8K_FAMILY_DIR": str(FAMILY_FIXTURES)},
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
        [body] = server.bodies
    assert settings(body) == {"max_tokens": 100, "temperature": 0.0, "system": None}
