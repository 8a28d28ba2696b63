"""How llama.cpp is set up for a GGUF model, in-process (``gguf/``) and served (``gsm8k-serve``).

One function builds the engine's parameters for both, so a model gives the same greedy answers
whichever way it is reached. An answer is a function of the prompt alone because every number
llama.cpp computes for it is computed the same way every time:

* Prompt tokens are evaluated in batches of ``BATCH_TOKENS`` that start at multiples of
  ``BATCH_TOKENS`` (0, 64, 128, ...), whatever came before. A token's numbers depend slightly on
  which tokens share its batch (measured with SmolLM2 at temperature 0: the same sample gave
  different text run first and run after other samples), so a fresh prompt and a prompt whose
  start comes from llama.cpp's cache must be cut into the same batches. The ``gguf/`` provider
  does so (:mod:`gsm8k.local.prefix`): it takes from the cache only whole batches of the shared
  prefix, and evaluates the rest from a batch boundary. ``gsm8k-serve`` cannot steer an HTTP
  client's requests that way, so it evaluates every prompt from its first token, in the same
  batches.
* Threads do not enter into it: each output value is computed whole by one thread, so the
  thread count changes speed and not text (:mod:`gsm8k.local.threads`, which picks it).
* Flash attention off, rather than llama.cpp's "auto" (which depends on the backend): on CPU it
  is also the faster for generation (SmolLM2 on 2 cores: 45-48 tokens/s off, 32 auto).
* One slot and no host-memory prompt cache: the only cached prompt is the previous request's,
  which is what the provider reasons about.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DEFAULT_CONTEXT_TOKENS = 8192
BATCH_TOKENS = 64
"""``n_batch`` and ``n_ubatch``: prompt tokens evaluated together, and the grid batches start on.
Small enough that re-evaluating the partial batch at the end of a cached prefix costs little
(32 tokens per request on average), large enough for matrix kernels to pay off."""
DEFAULT_REPEAT_PENALTY = 1.0
"""Off: a repeat penalty changes greedy answers and is not what other providers apply."""


def engine_params(
    model_path: Path,
    n_ctx: int = DEFAULT_CONTEXT_TOKENS,
    n_threads: int = 1,
    chat_format: str | None = None,
) -> Any:
    """``xllamacpp.CommonParams`` for one model with one slot (one cache the next request's
    prefix can reuse). Raises ``ImportError`` without the ``local`` extra."""
    import xllamacpp

    if n_threads < 1:
        raise ValueError(f"n_threads={n_threads}: pass 1 or more.")
    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    # llama.cpp cuts a prompt into n_batch chunks and each chunk into n_ubatch batches; equal
    # sizes put every batch boundary on the same grid.
    params.n_batch = BATCH_TOKENS
    params.n_ubatch = BATCH_TOKENS
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    # No prompt states kept in host memory: llama.cpp would restore whichever matched best,
    # and its cached tokens would no longer be the previous request's.
    params.cache_ram_mib = 0
    params.cache_idle_slots = False
    params.warmup = False
    params.sampling.penalty_repeat = DEFAULT_REPEAT_PENALTY
    # The raw text, reasoning included: the grader reads it as the model wrote it.
    params.reasoning_format = xllamacpp.common_reasoning_format.COMMON_REASONING_FORMAT_NONE
    if chat_format:
        params.use_jinja = False  # a built-in template by name, not Jinja source
        params.chat_template = chat_format
    return params
