"""Hostile and broken model outputs, run on two checkouts: does the run finish, and how fast?

    python benchmarks/hostile_outputs.py --before PATH --after PATH [--timeout 60] [--only NAME]

Each case is a small script run in its own process against each checkout (``PYTHONPATH`` set to
it), through the same public entry points a user has: an Inspect eval of the task with a scripted
model that writes the hostile output (or calls the calculator with it), ``gsm8k-grade`` on a
file, or the task function with a parameter. A case that has not finished after ``--timeout``
seconds is killed and shown as a timeout. Times are those of the eval (or command) itself,
interpreter start-up excluded; the evaluator's peak RSS is shown where memory is the point.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PRELUDE = r'''
import json, os, resource, subprocess, sys, tempfile, time
from pathlib import Path

def report(outcome, seconds, rss=False):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("RESULT " + json.dumps({"outcome": outcome, "seconds": seconds,
                                  "rss_mb": round(peak) if rss else None}))

def dataset(target="18"):
    folder = Path(tempfile.mkdtemp())
    record = {"question": "How many apples are left?", "answer": f"Some work.\n#### {target}"}
    (folder / "test.jsonl").write_text(json.dumps(record) + "\n")
    return str(folder / "test.jsonl")

def scripted(replies):
    """Replies in turn: a completion, or ("tool", name, arguments) for a tool call."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def respond(messages, tools, tool_choice, config):
        turn = sum(1 for m in messages if m.role == "assistant")
        reply = replies[min(turn, len(replies) - 1)]
        if isinstance(reply, tuple):
            output = ModelOutput.for_tool_call("hostile", reply[1], reply[2])
        else:
            output = ModelOutput.from_content("hostile", reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/hostile", custom_outputs=respond, memoize=False)

def short(text, limit=90):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

def run_task(replies, target="18", rss=False, **parameters):
    from inspect_ai import eval as inspect_eval
    from gsm8k.task import gsm8k

    task = gsm8k(dataset=dataset(target), fewshot=0, **parameters)
    started = time.perf_counter()
    [log] = inspect_eval(task, model=scripted(replies), display="none", log_dir=None)
    seconds = time.perf_counter() - started
    if log.status != "success":
        message = log.error.message if log.error else "no error recorded"
        return report(f"eval {log.status}: {short(message.strip().splitlines()[-1])}", seconds, rss)
    [sample] = log.samples
    if sample.error:
        return report(f"sample error: {short(sample.error.message)}", seconds, rss)
    # the exact grader (first in the text modes since 1.1.0), else pal_grader
    scores = sample.scores
    score = scores.get("gsm8k_grader") or scores.get("pal_grader") or next(iter(scores.values()))
    value = score.value["accuracy"] if isinstance(score.value, dict) else score.value
    verdict = "correct" if value == 1 else "incorrect"
    tools = [m for m in sample.messages if m.role == "tool"]
    if tools:
        tool = tools[-1]
        said = f"tool error: {tool.error.message}" if tool.error else f"tool said: {tool.text}"
        return report(f"{short(said, 70)}; scored {verdict}", seconds, rss)
    answer = score.answer
    if answer is not None and len(answer) > 20:
        answer = f"<{len(answer)} chars>"
    explanation = short(score.explanation, 70)
    return report(f"scored {verdict}, answer {answer}: {explanation}", seconds, rss)

def run_grade(data):
    path = Path(tempfile.mkdtemp()) / "answers.jsonl"
    path.write_bytes(data)
    started = time.perf_counter()
    command = [sys.executable, "-m", "gsm8k.grading.cli", str(path)]
    done = subprocess.run(command, capture_output=True)
    seconds = time.perf_counter() - started
    rows = done.stdout.decode(errors="replace").splitlines()
    errors = [line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()]
    named = [line for line in errors if "Error" in line or "gsm8k-grade:" in line]
    first = (named or errors or [""])[0].replace(str(path), "FILE")
    report(f"exit {done.returncode}, {len(rows)} output lines; {short(first, 80)}", seconds)

def run_call(function):
    started = time.perf_counter()
    try:
        result = function()
        outcome = f"accepted: {short(result, 80)}"
    except Exception as error:
        message = str(error).replace(tempfile.gettempdir(), "/tmp")
        outcome = f"{type(error).__name__}: {short(message, 90)}"
    report(outcome, time.perf_counter() - started)
'''

GOOD_ROW = '{"id": "1", "completion": "ANSWER: 18", "target": "18"}\n'
BAD_TARGET_ROW = '{"id": "2", "completion": "1", "target": "n/a"}\n'
LATIN1_ROW = '{"id": "2", "completion": "ANSWER: 5 \xe9l\xe8ves", "target": "5"}\n'.encode(
    "latin-1"
)


def pal(code: str) -> str:
    return f"```python\n{code}\n```"


@dataclass(frozen=True)
class Case:
    name: str
    area: str
    script: str


CASES = [
    Case("ordinary completion (control)", "-", 'run_task(["Work.\\nANSWER: 18"], rss=True)'),
    *(
        Case(
            f"`ANSWER: 18` then {count // 1000}k newlines",
            "extract",
            f'run_task(["ANSWER: 18" + "\\n" * {count}])',
        )
        for count in (10_000, 20_000, 40_000)
    ),
    Case("`\\boxed{` × 5,700", "extract", 'run_task(["\\\\boxed{" * 5700])'),
    Case("`\\frac{1}{` × 5,000 (added)", "extract", 'run_task(["\\\\frac{1}{" * 5000])'),
    Case("`ANSWER:` × 20,000 lines (added)", "extract", 'run_task(["ANSWER:\\n" * 20000])'),
    Case("5,000-digit number in a completion", "extract", 'run_task(["ANSWER: " + "9" * 5000])'),
    Case(
        "1,000,000-digit number in a completion (added)",
        "extract",
        'run_task(["ANSWER: " + "7" * 1_000_000])',
    ),
    Case(
        "5,000-digit number as a program result",
        "sandbox",
        "run_task(["
        + repr(
            pal("import sys\nsys.set_int_max_str_digits(0)\ndef solution():\n    return 10**5000")
        )
        + '], mode="pal")',
    ),
    Case(
        "non-UTF-8 bytes on a program's stdout",
        "sandbox",
        "run_task(["
        + repr(
            pal(
                "import os\nos.write(1, b'\\xff\\xfe\\x80 not text\\n')\n"
                "def solution():\n    return 18"
            )
        )
        + '], mode="pal")',
    ),
    Case(
        "malformed result line (program forges the marker)",
        "sandbox",
        "run_task(["
        + repr(
            pal(
                "import os, sys, json\n"
                "marker = json.loads(sys.argv[1])['marker'] if len(sys.argv) > 1 else '@@'\n"
                "os.write(1, (marker + '{not json\\n').encode())\n"
                "os._exit(0)"
            )
        )
        + '], mode="pal")',
    ),
    Case(
        "256 MiB on a program's stderr (issue: 1 GiB)",
        "sandbox",
        "run_task(["
        + repr(
            pal(
                "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(256):\n"
                "    sys.stderr.write(chunk)\ndef solution():\n    return 18"
            )
        )
        + '], mode="pal", rss=True)',
    ),
    Case(
        "PAL result `5e-05`, target 5",
        "sandbox",
        "run_task(["
        + repr(pal("def solution():\n    return 5e-05"))
        + '], target="5", mode="pal")',
    ),
    Case(
        "PAL result `3e+16`, target 30000000000000000",
        "sandbox",
        "run_task(["
        + repr(pal("def solution():\n    return 3e16"))
        + '], target="30000000000000000", mode="pal")',
    ),
    Case(
        "PAL result `Decimal('1E+2')`, target 100",
        "sandbox",
        "run_task(["
        + repr(pal("from decimal import Decimal\ndef solution():\n    return Decimal('1E+2')"))
        + '], target="100", mode="pal")',
    ),
    *(
        Case(
            f"calculator `{expression}`"
            if len(expression) < 40
            else "calculator: 450 unary minus signs (added)",
            "robust",
            f'run_task([("tool", "calculator", {{"expression": {expression!r}}}), "ANSWER: 18"], '
            'tools="calculator")',
        )
        for expression in (
            "0 ** -1",
            "1/0",
            "1e59 ** 6",
            "((((1/3)**100)**100)**100)**100",
            "-" * 450 + "1",
        )
    ),
    Case(
        "gsm8k-grade: one malformed row among good ones",
        "robust",
        f"run_grade({(GOOD_ROW + '{not json' + chr(10) + GOOD_ROW).encode()!r})",
    ),
    Case(
        "gsm8k-grade: non-UTF-8 row",
        "robust",
        f"run_grade({GOOD_ROW.encode() + LATIN1_ROW!r})",
    ),
    Case(
        "gsm8k-grade: JSON nested 100,000 deep (added)",
        "robust",
        f"run_grade({(GOOD_ROW + '[' * 100_000 + chr(10)).encode()!r})",
    ),
    Case(
        "gsm8k-grade: ungradeable target (added)",
        "robust",
        f"run_grade({(GOOD_ROW + BAD_TARGET_ROW).encode()!r})",
    ),
    Case(
        "`fewshot_seed=True`",
        "robust",
        "from gsm8k.task import gsm8k\nrun_call(lambda: gsm8k(dataset=dataset(), fewshot=0, "
        "fewshot_seed=True).metadata['fewshot_seed'])",
    ),
    Case(
        "`fewshot_seed=-1` (added)",
        "robust",
        "from gsm8k.task import gsm8k\n"
        "folder = Path(tempfile.mkdtemp())\n"
        "rows = [json.dumps({'question': f'Q{i}?', 'answer': f'#### {i}'}) for i in range(3)]\n"
        "(folder / 'test.jsonl').write_text(rows[0] + '\\n')\n"
        "(folder / 'train.jsonl').write_text('\\n'.join(rows[1:]) + '\\n')\n"
        "run_call(lambda: gsm8k(dataset=str(folder), fewshot=1, fewshot_seed=-1))",
    ),
    Case(
        "non-UTF-8 local dataset file",
        "robust",
        "from gsm8k.task import gsm8k\n"
        "folder = Path(tempfile.mkdtemp())\n"
        '(folder / \'test.jsonl\').write_bytes(b\'{"question": "Q?", "answer": "#### 1"}\\n\''
        ' + \'{"question": "Caf\\xe9?", "answer": "#### 2"}\\n\'.encode(\'latin-1\'))\n'
        "run_call(lambda: gsm8k(dataset=str(folder), fewshot=0))",
    ),
]


@dataclass(frozen=True)
class Outcome:
    text: str
    seconds: float | None
    rss_mb: int | None

    def cell(self) -> str:
        if self.seconds is None:
            return self.text
        rss = f", RSS {self.rss_mb} MB" if self.rss_mb else ""
        return f"{self.text} ({self.seconds:.2f} s{rss})"


def run_case(case: Case, checkout: Path, timeout: float) -> Outcome:
    script = PRELUDE + "\n" + case.script + "\n"
    env = {**os.environ, "PYTHONPATH": str(checkout), "INSPECT_LOG_DIR": tempfile.mkdtemp()}
    env.pop("GSM8K_DATA_DIR", None)
    with tempfile.TemporaryFile() as out:
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-c", script],
                cwd=checkout,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                start_new_session=True,
            )
        except subprocess.TimeoutExpired:
            return Outcome(f"**> {timeout:g} s: killed (timeout)**", None, None)
        wall = time.monotonic() - started
        out.seek(0)
        lines = out.read().decode(errors="replace").splitlines()
    result = next((line for line in reversed(lines) if line.startswith("RESULT ")), None)
    if result is None:
        last = lines[-1] if lines else ""
        text = " ".join(last.split())[:100]
        return Outcome(f"crashed (exit {done.returncode}): {text}", wall, None)
    data = json.loads(result[len("RESULT ") :])
    return Outcome(data["outcome"].replace("|", "\\|"), data["seconds"], data["rss_mb"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, help="checkout of the old code")
    parser.add_argument("--after", type=Path, help="checkout of the new code")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case and side")
    parser.add_argument("--only", default=None, help="run only cases whose name contains this")
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="JSON file of outcomes: sides run now are added to it, sides not given are read "
        "from it (so the two sides can be run at different times)",
    )
    args = parser.parse_args()
    saved: dict[str, dict[str, Any]] = (
        json.loads(args.results.read_text()) if args.results and args.results.exists() else {}
    )
    cases = [case for case in CASES if args.only is None or args.only in case.name]
    for side, checkout in (("before", args.before), ("after", args.after)):
        if checkout is None:
            continue
        for case in cases:
            outcome = run_case(case, checkout.resolve(), args.timeout)
            saved.setdefault(case.name, {})[side] = asdict(outcome)
            print(f"{side}: {case.name}: {outcome.cell()}", file=sys.stderr, flush=True)
            if args.results:
                args.results.write_text(json.dumps(saved, indent=1))
    print("| case | area | before | after |")
    print("|---|---|---|---|")
    for case in cases:
        cells = [
            Outcome(**saved[case.name][side]).cell() if side in saved.get(case.name, {}) else "-"
            for side in ("before", "after")
        ]
        print(f"| {case.name} | {case.area} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
