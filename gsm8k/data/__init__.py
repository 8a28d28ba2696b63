"""The questions: which GSM8K sources there are (``catalog``) and their records, bundled, from the
hub (pinned, cache first) or local JSONL copies (``splits``); the GSM family's sources and samples
(``family``); and the evaluated set paired with GSM8K's test questions (``variants``)."""
