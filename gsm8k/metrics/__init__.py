"""What the log aggregates: the per-sample value names (``keys``), the grader's rates in one pass
(``rates``), clustered standard errors and Wilson intervals (``intervals``), the vote on answers
for self-consistency (``reducers``) and the warning for greedy votes (``votes``)."""
