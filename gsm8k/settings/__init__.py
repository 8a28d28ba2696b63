"""A run's settings: parameter checks with errors a user can act on (``checks``, ``errors``) and
what the log records about the data, the prompt and where code ran (``record``)."""
