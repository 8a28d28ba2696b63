"""The names of the per-sample values the task's scorers put in ``Score.value``.

The metrics (intervals, rates) and the majority-vote reducer aggregate these; the exact grader
and the program grader both write them.
"""

ACCURACY = "accuracy"
STRICT_ACCURACY = "strict_accuracy"
FORMAT_FOLLOWED = "format_followed"
NO_ANSWER = "no_answer"
TRUNCATED = "truncated"
MATCH = "match"
"""Inspect's ``match(numeric=True)`` verdict, computed beside the grader's own."""
MATCH_ANSWER = "match_answer"
"""Metadata: the answer ``match(numeric=True)`` read, which majority voting counts."""
