"""What the model is shown: the worked examples (``exemplars``), how they and the question are
laid out as messages (``fewshot``, ``mgsm``), the prompt settings and defaults (``settings``),
and other harnesses' exact prompts (``presets``)."""
