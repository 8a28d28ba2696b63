"""Is a GSM8K score memorized? The signals and the report behind ``gsm8k-contamination``.

* :mod:`.overlap`: how close a model's continuation is to the text it continues (exact match,
  ROUGE-L, n-gram accuracy), on words;
* :mod:`.probe`: the verbatim-continuation probe's samples, prompt and scorer (the
  ``gsm8k_memorization`` task in :mod:`.memorization`);
* :mod:`.stats`: paired and two-sample differences with intervals, permutation tests and the
  smallest difference a run of this size detects;
* :mod:`.report`: the signals read from logs, a verdict for each and overall; :mod:`.render`
  writes them as Markdown and a plot; :mod:`.cli` is the command.

docs/contamination.md explains the method and how to read the report.
"""
