"""``gsm8k-serve``: a GGUF model behind llama.cpp's OpenAI-compatible API on 127.0.0.1.

The engine is set up exactly as the in-process ``gguf/`` provider sets it up (the same threads,
batches and attention, no repeat penalty: :mod:`gsm8k.local.engine`), and requests that leave
sampling unset get the provider's defaults (temperature 0, 256 new tokens), so the served copy
answers each prompt as ``--model gguf/...`` does. Unlike the provider, the server cannot cut its
prompt cache back to whole batches between an HTTP client's requests, so it evaluates every
prompt from the first token: the same batches, without the saving. The command prints the
``inspect eval`` line that reaches it with the same generation settings as a ``gguf/`` run, so
``gsm8k-compare`` ranks the two side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shlex
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gsm8k.local.bundled import BUNDLED_MODEL_NAME, INSTALL_HINT, ModelFileError, resolve_model_file
from gsm8k.local.defaults import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_STOP_SEQUENCES,
    DEFAULT_TEMPERATURE,
)
from gsm8k.local.engine import (
    BATCH_TOKENS,
    DEFAULT_CONTEXT_TOKENS,
    engine_params,
)
from gsm8k.local.threads import thread_count
from gsm8k.settings.commands import inspect_program, shell_quote

DATA_DIR_ENV = "GSM8K_DATA_DIR"
"""A local data copy the served run should read, as the in-process run did."""

HOST = "127.0.0.1"  # never another interface: the API has no authentication
DEFAULT_PORT = 8000
SERVICE = "llamacpp"
"""Inspect's ``openai-api/<service>/<model>`` service name; it names the environment variables
``LLAMACPP_BASE_URL`` and ``LLAMACPP_API_KEY``."""
PLACEHOLDER_KEY = "local"
"""Inspect requires an API key variable; the server checks none."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gsm8k-serve",
        description="Serve a GGUF model on 127.0.0.1 over an OpenAI-compatible API, with the "
        "same engine settings and defaults as the in-process gguf/ provider.",
    )
    parser.add_argument(
        "--model-file",
        default=BUNDLED_MODEL_NAME,
        help=f"a .gguf file, or '{BUNDLED_MODEL_NAME}' for the bundled SmolLM2-135M-Instruct",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="0: any free port")
    parser.add_argument("--alias", help="model name clients use (default: from the file name)")
    parser.add_argument(
        "--n-threads",
        default="auto",
        help="llama.cpp threads (default auto: the cores idle at start; changes speed, not text)",
    )
    parser.add_argument("--n-ctx", type=int, default=DEFAULT_CONTEXT_TOKENS)
    parser.add_argument("--chat-format", help="a llama.cpp built-in template (e.g. chatml)")
    return parser.parse_args(argv)


def model_alias(model_file: str) -> str:
    """``smollm2`` for the bundled model, else the file's stem in lower case, safe in a model
    name (letters, digits, ``.``, ``_``, ``-``)."""
    if model_file == BUNDLED_MODEL_NAME:
        return BUNDLED_MODEL_NAME
    stem = re.sub(r"[^a-z0-9._-]+", "-", Path(model_file).stem.lower()).strip("-")
    return stem or "model"


def start_server(
    model_path: Path,
    alias: str,
    port: int = DEFAULT_PORT,
    n_threads: int = 1,
    n_ctx: int = DEFAULT_CONTEXT_TOKENS,
    chat_format: str | None = None,
) -> Any:
    """An ``xllamacpp.Server`` listening on ``HOST``; dropping it stops it."""
    import xllamacpp

    params = engine_params(model_path, n_ctx, n_threads, chat_format)
    params.hostnames = [HOST]
    params.port = port
    params.model_alias = {alias}
    # What a request that sets nothing gets: the gguf/ provider's defaults, so that a bare
    # client neither samples at llama.cpp's temperature 0.8 nor runs to the context limit.
    params.sampling.temp = DEFAULT_TEMPERATURE
    params.n_predict = DEFAULT_MAX_TOKENS
    # A prompt evaluated from where the previous one diverged would be cut into other batches
    # than a fresh one (see gsm8k.local.prefix), and answer differently.
    params.cache_prompt = False
    params.verbosity = -1
    return xllamacpp.Server(params)


def base_url(server: Any) -> str:
    """The OpenAI-compatible base URL of a started server."""
    return f"{str(server.listening_address).rstrip('/')}/v1"


def eval_command(
    url: str, alias: str, task: str = "gsm8k/gsm8k", data_dir: str | None = None
) -> str:
    """The ``inspect eval`` line for the served model, with the generation settings a ``gguf/``
    run gets by default (so the two runs are the same experiment for ``gsm8k-compare``) and, when
    the server was started with one, the same local data copy (``GSM8K_DATA_DIR``)."""
    stops = ",".join(DEFAULT_STOP_SEQUENCES)
    data = [f"{DATA_DIR_ENV}={shlex.quote(str(Path(data_dir).resolve()))}"] if data_dir else []
    return " ".join(
        [
            f"{SERVICE.upper()}_BASE_URL={shlex.quote(url)}",
            f"{SERVICE.upper()}_API_KEY={PLACEHOLDER_KEY}",
            *data,
            inspect_program(),
            "eval",
            task,
            "--model",
            f"openai-api/{SERVICE}/{alias}",
            "--temperature",
            _number(DEFAULT_TEMPERATURE),
            "--max-tokens",
            str(DEFAULT_MAX_TOKENS),
            "--stop-seqs",
            shell_quote(stops),
            "--max-connections",
            str(DEFAULT_MAX_CONNECTIONS),
        ]
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        model_path = resolve_model_file(args.model_file)
    except ModelFileError as error:
        print(f"gsm8k-serve: {error}", file=sys.stderr)
        return 2
    alias = args.alias or model_alias(args.model_file)
    try:
        n_threads = thread_count(args.n_threads)
    except ValueError as error:
        print(f"gsm8k-serve: --n-threads: {error}", file=sys.stderr)
        return 2
    try:
        server = start_server(model_path, alias, args.port, n_threads, args.n_ctx, args.chat_format)
    except ImportError:
        print(f"gsm8k-serve: needs the local extra: {INSTALL_HINT}", file=sys.stderr)
        return 2
    except (RuntimeError, ValueError) as error:
        print(
            f"gsm8k-serve: could not serve {model_path} on {HOST}:{args.port} ({error}): is the "
            "port free (try --port 0) and the file a GGUF model?",
            file=sys.stderr,
        )
        return 2
    url = base_url(server)
    print(
        f"Serving {model_path.name} as '{alias}' at {url} ({n_threads} thread(s), "
        f"{BATCH_TOKENS}-token batches, every prompt evaluated in full; requests default to "
        f"temperature {_number(DEFAULT_TEMPERATURE)} and "
        f"{DEFAULT_MAX_TOKENS} new tokens). Ctrl-C stops it.\n\nRun GSM8K on it with:\n\n"
        f"  {eval_command(url, alias, data_dir=os.environ.get(DATA_DIR_ENV))}\n",
        flush=True,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a user stops serving
        stop.wait()
    del server
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
