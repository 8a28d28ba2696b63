"""The questions: GSM8K from the hub (pinned, cache first) or local JSONL copies (``splits``), the
GSM family's sources and samples (``family``), and the evaluated set paired with GSM8K's test
questions (``variants``)."""
