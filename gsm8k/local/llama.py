"""An Inspect ``ModelAPI`` that runs a GGUF model inside the evaluation process with llama.cpp.

llama.cpp comes from the ``xllamacpp`` wheel: a prebuilt CPU build (no compiler, installed in
seconds) that embeds llama.cpp's own server engine and answers chat completions by a direct
function call. Why in-process rather than a separate ``llama-server``: there is no second
process to leak when a run is interrupted and nothing to wait for; the engine keeps the
previous prompt's tokens in its cache and only evaluates what differs, so the few-shot prefix
that every sample shares is processed once per run, in whole batches so that the answer does
not depend on which prompt came before (see :mod:`gsm8k.local.engine` and
:mod:`gsm8k.local.prefix`).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import secrets
import threading
import urllib.request
from typing import Any

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    StopReason,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from gsm8k.local.bundled import INSTALL_HINT, resolve_model_file
from gsm8k.local.defaults import apply_local_defaults
from gsm8k.local.engine import (
    BATCH_TOKENS,
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_REPEAT_PENALTY,
    engine_params,
)
from gsm8k.local.prefix import divergent_token, reusable_tokens
from gsm8k.local.threads import thread_count
from gsm8k.local.tool_protocol import CALL_CLOSE, CALL_OPEN, parse_tool_calls, render_messages

_FINISH_REASONS: dict[str, StopReason] = {"stop": "stop", "length": "max_tokens"}
# Request fields passed straight through to llama.cpp when the user sets them.
_SAMPLING_OPTIONS = ("top_p", "top_k", "frequency_penalty", "presence_penalty", "seed")


class LlamaCppAPI(ModelAPI):
    """A GGUF model served by llama.cpp in this process, one request at a time.

    Model args (``-M``): ``n_ctx`` (context tokens, default 8192), ``n_threads`` (default ``auto``:
    the cores idle when the model loads; the count changes speed, not answers: see
    :mod:`gsm8k.local.threads`), ``chat_format`` (one of
    llama.cpp's built-in templates such as ``chatml`` or ``llama3``; default: the template
    stored in the GGUF file), ``repeat_penalty`` (default 1.0: off).
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        config = config if config is not None else GenerateConfig()
        apply_local_defaults(config)
        super().__init__(model_name, base_url, api_key, [], config)
        self.default_max_tokens = config.max_tokens
        try:
            self.model_path = resolve_model_file(model_name)
        except FileNotFoundError as error:
            raise PrerequisiteError(str(error)) from error
        try:
            import xllamacpp
        except ImportError as error:
            raise PrerequisiteError(
                f"The gguf/ provider needs llama.cpp (the xllamacpp package): install the "
                f"local extra with `{INSTALL_HINT}`."
            ) from error
        try:
            self.n_threads = thread_count(model_args.get("n_threads"))
            self.n_ctx = int(model_args.get("n_ctx", DEFAULT_CONTEXT_TOKENS))
            self._repeat_penalty = float(model_args.get("repeat_penalty", DEFAULT_REPEAT_PENALTY))
            chat_format = model_args.get("chat_format")
            params = engine_params(
                self.model_path, self.n_ctx, self.n_threads, str(chat_format or "") or None
            )
        except ValueError as error:
            raise PrerequisiteError(f"gguf/{model_name}: model argument (-M): {error}") from error
        params.n_threads_http = 1
        params.verbosity = -1  # llama.cpp logs every load step; the console stays Inspect's
        # The engine also listens on a loopback port; requests here are direct calls (only
        # tokenizing uses the port), so lock it with a key that only this object knows.
        self._key = secrets.token_hex(16)
        params.api_keys = [self._key]
        try:
            self._server: Any = xllamacpp.Server(params)
        except RuntimeError as error:
            raise PrerequisiteError(
                f"llama.cpp could not load {self.model_path} (n_ctx={self.n_ctx}"
                f"{f', chat_format={chat_format}' if chat_format else ''}): is it a GGUF "
                "model file, and is there memory for its context?"
            ) from error
        # The engine answers one request at a time; Inspect is told so through
        # max_connections, and this lock keeps a direct caller from overlapping requests.
        self._lock = threading.Lock()
        # The prompt tokens in llama.cpp's cache after the last request (its generated tokens
        # follow them); empty when unknown, so that nothing is taken from the cache.
        self._cached_prompt: list[int] = []
        atexit.register(self.close)

    def close(self) -> None:
        # Dropping the engine stops its threads and frees the model.
        self._server = None

    def max_connections(self) -> int:
        return 1

    def max_tokens(self) -> int | None:
        return self.default_max_tokens

    async def tokenize(self, text: str) -> list[int]:
        return await asyncio.to_thread(self._tokenize, text)

    def _tokenize(self, text: str) -> list[int]:
        return [int(token) for token in self._post("/tokenize", {"content": text})["tokens"]]

    def _prompt_tokens(self, messages: list[dict[str, Any]]) -> list[int]:
        """The tokens llama.cpp evaluates for a chat request: its own template and tokenizer,
        as its chat endpoint applies them."""
        prompt = self._post("/apply-template", {"messages": messages})["prompt"]
        body = {"content": prompt, "add_special": True, "parse_special": True}
        return [int(token) for token in self._post("/tokenize", body)["tokens"]]

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if self._server is None:
            raise RuntimeError("the gguf model was closed")
        request = urllib.request.Request(
            f"{self._server.listening_address}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self._key}"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            result: dict[str, Any] = json.load(response)
        return result

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        request = self._request(input, tools, config)
        response, trim_seconds = await asyncio.to_thread(self._complete, request)
        error = response.get("error")
        if isinstance(error, dict) and error.get("type") == "exceed_context_size_error":
            # Inspect's convention for a prompt longer than the context: an empty answer that
            # stopped at the model's length, so the sample is scored (as unanswered), not lost.
            return ModelOutput.from_content(
                self.model_name, "", stop_reason="model_length", error=str(error.get("message"))
            )
        if "choices" not in response:
            raise RuntimeError(f"llama.cpp refused the request: {error or response}")
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        timings = response.get("timings") or {}
        prompt_tokens = int(usage.get("prompt_tokens", 0))
        output_tokens = int(usage.get("completion_tokens", 0))
        text = choice["message"].get("content") or ""
        if tools and CALL_OPEN in text:
            text, tool_calls = parse_tool_calls(text + CALL_CLOSE, tools)
        else:
            tool_calls = []
        stop_reason = _FINISH_REASONS.get(choice.get("finish_reason") or "", "unknown")
        # Cutting the cache back to whole batches is part of processing this prompt.
        prompt_seconds = float(timings.get("prompt_ms", 0.0)) / 1000 + trim_seconds
        generation_seconds = float(timings.get("predicted_ms", 0.0)) / 1000
        return ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(
                        content=text,
                        tool_calls=tool_calls or None,
                        model=self.model_name,
                        source="generate",
                    ),
                    stop_reason="tool_calls" if tool_calls else stop_reason,
                )
            ],
            usage=ModelUsage(
                input_tokens=prompt_tokens,
                output_tokens=output_tokens,
                total_tokens=prompt_tokens + output_tokens,
                input_tokens_cache_read=int(timings.get("cache_n", 0)),
            ),
            time=prompt_seconds + generation_seconds,
            metadata={
                "prompt_tokens_evaluated": int(timings.get("prompt_n", prompt_tokens)),
                "prompt_seconds": round(prompt_seconds, 3),
                "generation_seconds": round(generation_seconds, 3),
                "generation_tokens_per_second": round(
                    float(timings.get("predicted_per_second", 0.0)), 1
                ),
                "n_threads": self.n_threads,
                "batch_tokens": BATCH_TOKENS,
            },
        )

    def _request(
        self, input: list[ChatMessage], tools: list[ToolInfo], config: GenerateConfig
    ) -> dict[str, Any]:
        request: dict[str, Any] = {
            "messages": render_messages(input, tools),
            "max_tokens": config.max_tokens or self.default_max_tokens,
            "temperature": 0.0 if config.temperature is None else config.temperature,
            "repeat_penalty": self._repeat_penalty,
            "cache_prompt": True,
        }
        for option in _SAMPLING_OPTIONS:
            value = getattr(config, option)
            if value is not None:
                request[option] = value
        stops = list(config.stop_seqs or [])
        if tools:
            stops.append(CALL_CLOSE)  # stop after one call; the result comes back next turn
        if stops:
            request["stop"] = stops
        return request

    def _complete(self, request: dict[str, Any]) -> tuple[dict[str, Any], float]:
        """llama.cpp's response, and the seconds spent cutting its cache to whole batches."""
        with self._lock:
            if self._server is None:
                raise RuntimeError("the gguf model was closed")
            tokens = self._prompt_tokens(request["messages"])
            reuse = reusable_tokens(self._cached_prompt, tokens, BATCH_TOKENS)
            self._cached_prompt = []  # unknown until this request has succeeded
            reuse, trim_seconds = self._keep_cached(tokens, reuse)
            # A refused request comes back as {"error": {...}} rather than an exception.
            response: dict[str, Any] = self._server.handle_chat_completions(request)
            if "choices" in response:
                evaluated = int((response.get("usage") or {}).get("prompt_tokens", -1))
                if evaluated != len(tokens):
                    raise RuntimeError(
                        f"llama.cpp read the prompt as {evaluated} tokens, the gguf provider as "
                        f"{len(tokens)}: its cache cannot be cut to whole batches, so answers "
                        "could depend on earlier requests."
                    )
                self._cached_prompt = tokens
        return response, trim_seconds

    def _keep_cached(self, tokens: list[int], reuse: int) -> tuple[int, float]:
        """Leave exactly ``tokens[:reuse]`` in llama.cpp's cache, so the prompt is evaluated
        from a batch boundary.

        A one-token request whose prompt is that prefix plus a token the prompt does not have
        there makes llama.cpp drop everything after the prefix; the next request then shares
        exactly ``reuse`` tokens with the cache. If the cache held less than believed, it is
        emptied instead. Returns the tokens kept and the seconds it took.
        """
        seconds = 0.0
        for keep in (reuse, 0) if reuse else (0,):
            probe = {
                "prompt": [*tokens[:keep], divergent_token(tokens, keep)],
                "max_tokens": 1,
                "temperature": 0.0,
                "cache_prompt": True,
            }
            response = self._server.handle_completions(probe)
            timings = response.get("timings") or {}
            seconds += float(timings.get("prompt_ms", 0.0)) / 1000
            if int(timings.get("cache_n", -1)) == keep:
                return keep, seconds
        # Not even an empty cache was confirmed (a refused request): evaluate from the start.
        return 0, seconds
