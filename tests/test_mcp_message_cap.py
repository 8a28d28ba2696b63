"""A stdio server's one huge message, end to end: the eval completes, the sample is scored, the
model reads an error naming the cap, and the eval process's memory does not grow with the
message (the relay, gsm8k/mcp_tools/relay.py, drops it before the MCP client reads it whole).

Each eval runs in a process of its own, whose peak memory (``ru_maxrss``) is read before and
after the eval: a peak can only be compared within one process."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gsm8k.mcp_tools.config import MAX_MESSAGE_VARIABLE
from tests.mcp_support import FAULTY, ROOT

pytestmark = pytest.mark.slow

MESSAGE_BYTES = 64 * 1024 * 1024
"""The result the server sends: 64 times the cap the test sets, big enough that holding it once
(let alone parsing it) shows in the eval's peak memory."""
CAP_BYTES = 1024 * 1024


def huge_server(tmp_path: Path, size: int) -> str:
    path = tmp_path / "huge.json"
    block = {
        "command": sys.executable,
        "args": [str(FAULTY), "huge"],
        "env": {"PYTHONPATH": str(ROOT), "HUGE_BYTES": str(size)},
    }
    path.write_text(json.dumps(block), encoding="utf-8")
    return str(path)


def eval_in_child(mcp: str) -> None:
    """Run one sample calling ``lookup`` once, in this process; print what the test reads."""
    from gsm8k.task import gsm8k
    from tests.conftest import MINI_DATA
    from tests.mcp_support import tool_model
    from tests.scripted import run_eval
    from tests.test_mcp_eval import lookup_then_answer, score, tool_texts

    task = gsm8k(dataset=str(MINI_DATA), fewshot=0, mcp=mcp)
    model = tool_model(lookup_then_answer)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    log = run_eval(task, model, limit=1)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    [sample] = log.samples or []
    errors = [m.error.message for m in sample.messages if getattr(m, "error", None) is not None]
    report = {
        "status": log.status,
        "growth_kib": after - before,
        "errors": errors,
        "texts": [text[:200] for text in tool_texts(sample)],
        "value": score(sample).value,
    }
    print(json.dumps(report))


def run_child(mcp: str, cap: int | None) -> dict[str, Any]:
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    env.pop(MAX_MESSAGE_VARIABLE, None)
    if cap is not None:
        env[MAX_MESSAGE_VARIABLE] = str(cap)
    code = f"from tests.test_mcp_message_cap import eval_in_child; eval_in_child({mcp!r})"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_huge_result_is_an_error_naming_the_cap_and_memory_stays_bounded(
    tmp_path: Path,
) -> None:
    # The same eval with a result under the cap: what the eval itself grows by (about 43 MiB).
    under = run_child(huge_server(tmp_path, CAP_BYTES // 4), CAP_BYTES)
    assert under["status"] == "success" and under["errors"] == []
    [text] = under["texts"]
    assert "9" * 50 in text  # reached the model, clipped as any long result
    assert under["value"]["accuracy"] == 1.0

    # The result's text is sent twice (as text and as structured content): 128 MiB in one line.
    over = run_child(huge_server(tmp_path, MESSAGE_BYTES), CAP_BYTES)
    assert over["status"] == "success"
    assert over["value"]["accuracy"] == 1.0  # scored: the model went on and answered
    [error] = over["errors"]
    assert f"over the {CAP_BYTES:,} bytes the evaluation harness accepts" in error, error
    extra = (over["growth_kib"] - under["growth_kib"]) * 1024
    # Read whole, the line alone would be 128 MiB (136 MiB more was measured before the relay).
    assert extra < 16 * 1024 * 1024, f"the huge result cost the eval {extra >> 20} MiB more"
