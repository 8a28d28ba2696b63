"""What each preset sends on the wire: one question per preset against a local OpenAI-compatible
server on 127.0.0.1 that keeps every request body, the generation settings read back from them.

    python -m benchmarks.preset_wire                          # the table in docs/presets.md
    python -m benchmarks.preset_wire --max-tokens 64 --seed 7 # the command line's overrides

The data are the test fixtures (one question is enough: the settings do not depend on it);
Inspect reaches the server as ``--model openai-api/scripted/<name>`` with ``SCRIPTED_BASE_URL``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from benchmarks.scripted_server import SERVICE, ScriptedServer
from gsm8k.prompting.presets.registry import PRESETS
from gsm8k.task import gsm8k

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
GSM8K_FIXTURE = FIXTURES / "mini"
FAMILY_FIXTURES = FIXTURES / "family"
REPLY = "The answer is 18.\n#### 18\nANSWER: 18"
"""One reply every preset's rules can read (the settings, not the score, are measured here)."""
SETTINGS = ("max_tokens", "max_completion_tokens", "seed", "temperature", "stop")


def preset_arguments(preset: str) -> dict[str, Any]:
    """The task arguments one preset runs with here."""
    if PRESETS[preset].mgsm:
        return {"preset": preset, "dataset": "mgsm", "language": "de"}
    return {"preset": preset, "dataset": str(GSM8K_FIXTURE)}


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def wire_requests(preset: str, **generation: Any) -> list[dict[str, Any]]:
    """The request bodies one question of ``preset`` sends, in order (Kojima's two steps are
    two requests). ``generation`` is what the command line would add (``max_tokens=64``)."""
    with (
        ScriptedServer(lambda model, prompt: REPLY) as server,
        tempfile.TemporaryDirectory() as logs,
        _environment(server.environment() | {"GSM8K_FAMILY_DIR": str(FAMILY_FIXTURES)}),
    ):
        [log] = inspect_eval(
            gsm8k(**preset_arguments(preset)),
            # Inspect keeps a model's client per name: a name of this server's own (its port)
            # keeps a later run from reaching an earlier, closed server.
            model=f"openai-api/{SERVICE}/wire-{server.base_url.rsplit(':', 1)[-1].split('/')[0]}",
            limit=1,
            log_dir=logs,
            display="none",
            **generation,
        )
        if log.status != "success":
            raise RuntimeError(f"preset={preset}: the run ended {log.status}: {log.error}")
        return list(server.bodies)


def settings(body: dict[str, Any]) -> dict[str, Any]:
    """A request's generation settings, and its system message (``None`` when it has none)."""
    shown = {name: body[name] for name in SETTINGS if name in body}
    messages = body.get("messages") or []
    first = messages[0] if messages else {}
    shown["system"] = first.get("content") if first.get("role") == "system" else None
    return shown


def markdown(generation: dict[str, Any]) -> str:
    """One row per request of every preset: the generation settings and system message sent."""
    rows = ["| preset | request | sent on the wire |", "|---|---|---|"]
    for name in PRESETS:
        for step, body in enumerate(wire_requests(name, **generation), start=1):
            sent = settings(body)
            if sent["system"] is not None and len(sent["system"]) > 40:
                sent["system"] = sent["system"][:37] + "..."  # inspect_evals' exemplars
            cells = ", ".join(f"{key}={json.dumps(value)}" for key, value in sent.items())
            rows.append(f"| `{name}` | {step} | {_cell(cells)} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tokens", type=int, help="as inspect eval's --max-tokens")
    parser.add_argument("--seed", type=int, help="as inspect eval's --seed")
    parser.add_argument("--temperature", type=float, help="as inspect eval's --temperature")
    parser.add_argument("--system-message", help="as inspect eval's --system-message")
    args = parser.parse_args(argv)
    generation = {name: value for name, value in vars(args).items() if value is not None}
    print(markdown(generation))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
