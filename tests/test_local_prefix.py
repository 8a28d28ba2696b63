"""How much of a prompt the gguf/ provider takes from llama.cpp's cache: whole batches only."""

from __future__ import annotations

import pytest

from gsm8k.local.prefix import divergent_token, reusable_tokens

FEW_SHOT = list(range(100, 300))  # 200 tokens every prompt shares


@pytest.mark.parametrize(
    ("cached", "prompt", "batch", "expected"),
    [
        pytest.param([], [*FEW_SHOT, 1, 2], 64, 0, id="empty-cache-evaluates-everything"),
        pytest.param(
            [*FEW_SHOT, 7, 8, 9], [*FEW_SHOT, 1, 2], 64, 192, id="shared-200-keeps-3-batches"
        ),
        pytest.param([*FEW_SHOT[:128], 5], FEW_SHOT, 64, 128, id="shared-on-a-boundary"),
        pytest.param(
            FEW_SHOT[:64], FEW_SHOT[:64], 64, 0, id="same-prompt-of-one-batch-is-re-evaluated"
        ),
        pytest.param(
            FEW_SHOT[:129], FEW_SHOT[:129], 64, 128, id="same-prompt-keeps-all-but-last-batch"
        ),
        pytest.param(
            FEW_SHOT[:65], [*FEW_SHOT[:65], 3, 4], 64, 64, id="prompt-extending-the-cached-one"
        ),
        pytest.param(FEW_SHOT, FEW_SHOT[:1], 64, 0, id="one-token-prompt"),
        pytest.param([1, 2, 3], [9, 2, 3], 1, 0, id="differs-at-the-first-token"),
        pytest.param([*FEW_SHOT, 1], [*FEW_SHOT, 2], 1, 200, id="batch-of-one-keeps-all-shared"),
    ],
)
def test_reusable_tokens_are_whole_batches_of_the_shared_prefix(
    cached: list[int], prompt: list[int], batch: int, expected: int
) -> None:
    reuse = reusable_tokens(cached, prompt, batch)
    assert reuse == expected
    assert reuse % batch == 0 and reuse < len(prompt)
    assert cached[:reuse] == prompt[:reuse]


def test_reusable_tokens_refuses_an_empty_batch() -> None:
    with pytest.raises(ValueError, match="batch=0"):
        reusable_tokens([1], [1, 2], 0)


@pytest.mark.parametrize(
    ("prompt", "position"),
    [
        pytest.param([0, 5], 0, id="token-0-there"),
        pytest.param([4, 5], 0, id="other-token-there"),
        pytest.param([4, 5], 2, id="past-the-end"),
    ],
)
def test_divergent_token_differs_from_the_prompt_there(prompt: list[int], position: int) -> None:
    token = divergent_token(prompt, position)
    assert token in (0, 1)
    assert position >= len(prompt) or token != prompt[position]
