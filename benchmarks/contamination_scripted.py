"""The contamination report on three scripted models at the default sizes: what each signal
shows for a memorizer, a reasoner and a guesser, and how long the runs take.

    python -m benchmarks.contamination_scripted

Synthetic GSM8K files and 100 synthetic templates in a temporary folder (the same builders as
``tests/test_contamination_report.py``); the real templates are not needed.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from gsm8k.contamination.memorization import gsm8k_memorization
from gsm8k.contamination.report import build
from gsm8k.task import gsm8k
from tests.contamination_support import guesser, memorizer, reasoner, write_gsm8k, write_templates
from tests.scripted import run_eval, scripted_model

TEMPLATES = 100
KINDS = ("memorizer", "reasoner", "guesser")
SHOWN = ("accuracy", "question-rouge_l-fresh", "solution-rouge_l-fresh")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        os.environ["GSM8K_DATA_DIR"] = str(write_gsm8k(root / "gsm8k", TEMPLATES))
        templates = write_templates(root / "templates", TEMPLATES)
        print("| model | signal | first | second | difference (95% CI) | p (Holm) | detectable |")
        print("|---|---|---|---|---|---|---|")
        for kind in KINDS:
            started = time.perf_counter()
            report = _report(kind, templates, root / kind)
            seconds = time.perf_counter() - started
            signals = {s["key"]: s for s in report["signals"]}
            for key in SHOWN:
                s = signals[key]
                fmt = "{:.1%}" if key == "accuracy" else "{:.3f}"
                print(
                    f"| {kind} | {key} | {fmt.format(s['first_value'])} | "
                    f"{fmt.format(s['second_value'])} | {100 * s['difference']:+.1f} "
                    f"({100 * s['ci_low']:+.1f} to {100 * s['ci_high']:+.1f}) | "
                    f"{s['p_adjusted']:.3g} | {100 * s['detectable']:.1f}: {s['verdict']} |"
                )
            verdict = report["overall"]["verdict"]
            print(f"| {kind} | **overall** | | | | | **{verdict}** ({seconds:.0f} s) |")


def _report(kind: str, templates: Path, logs: Path) -> dict[str, Any]:
    accuracy_task = gsm8k(dataset="gsm-symbolic-fresh", templates=str(templates), fewshot=0)
    probe_task = gsm8k_memorization(templates=str(templates))
    answers = {str(s.input): str(s.target) for s in accuracy_task.dataset}
    respond = {
        "memorizer": memorizer(TEMPLATES),
        "reasoner": reasoner(answers),
        "guesser": guesser(),
    }[kind]
    model = scripted_model(lambda prompt: respond(prompt), name=kind)
    run_eval(accuracy_task, model, log_dir=str(logs))
    run_eval(probe_task, model, log_dir=str(logs))
    return build(str(logs))


if __name__ == "__main__":
    main()
