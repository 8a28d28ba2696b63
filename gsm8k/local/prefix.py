"""How much of a prompt may come from llama.cpp's cache without changing the answer.

llama.cpp keeps the previous prompt's tokens and, left to itself, evaluates a new prompt from
the first token that differs. Batches then start at that token, which depends on the previous
prompt, and a token's numbers depend on its batch. Taking only whole batches of the shared
prefix from the cache, and evaluating the rest from a batch boundary, cuts every prompt into
the same batches as a fresh evaluation would: the cache saves time and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence


def reusable_tokens(cached: Sequence[int], prompt: Sequence[int], batch: int) -> int:
    """How many leading tokens of ``prompt`` to take from a cache holding ``cached``: the shared
    prefix rounded down to a multiple of ``batch``, leaving at least the last prompt token to be
    evaluated (its logits give the first new token)."""
    if batch < 1:
        raise ValueError(f"batch={batch}: pass 1 or more.")
    shared = 0
    for cached_token, token in zip(cached, prompt, strict=False):
        if cached_token != token:
            break
        shared += 1
    shared = min(shared, len(prompt) - 1)
    return max(shared, 0) // batch * batch


def divergent_token(prompt: Sequence[int], position: int) -> int:
    """A token id other than ``prompt[position]`` (any id the vocabulary has), so that a cache
    ending in it shares exactly ``position`` tokens with ``prompt``."""
    if position >= len(prompt):
        return 0
    return 1 if prompt[position] == 0 else 0
