"""Where reports find logs: any location Inspect reads, through Inspect's own log listing.

A location is a folder of logs (listed recursively) or one log file, on the local disk or at any
fsspec URI Inspect accepts (``s3://bucket/logs``, ``gs://…``, ``az://…``, ``file://…``); several
locations are read as one store. Credentials and endpoints come from the usual environment of
the filesystem (``AWS_ACCESS_KEY_ID``, ``AWS_ENDPOINT_URL`` …), as for ``inspect view``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from inspect_ai._util.file import filesystem
from inspect_ai.log import EvalLogInfo, list_eval_logs
from inspect_ai.log._file import log_file_info

LogLocation = str | Path
LogLocations = LogLocation | Sequence[LogLocation]
LOG_SUFFIXES = (".eval", ".json")


LOCATIONS_HELP = "where the Inspect logs are: folders, log files or URIs such as s3://bucket/logs"


def add_locations_argument(parser: argparse.ArgumentParser, default: str | None = "logs") -> None:
    """The ``log_dir`` argument every report command takes: one location or several."""
    if default is None:
        parser.add_argument("log_dir", nargs="+", help=LOCATIONS_HELP)
    else:
        parser.add_argument(
            "log_dir", nargs="*", default=[default], help=f"{LOCATIONS_HELP} (default: {default})"
        )


def add_selection_arguments(parser: argparse.ArgumentParser, variant: bool = True) -> None:
    """``--model`` (and ``--variant``): one part of a store that holds an eval set."""
    parser.add_argument(
        "--model", help="only this model's runs, named as in the logs (openai/gpt-4o-mini)"
    )
    if variant:
        parser.add_argument(
            "--variant", help="only runs on this dataset (gsm8k, gsm-symbolic-p2, mgsm-de, ...)"
        )


class LogLocationError(ValueError):
    """A location that holds no folder or log file, or cannot be reached."""


def as_list(locations: LogLocations) -> list[str]:
    """One location or several, as strings."""
    if isinstance(locations, (str, Path)):
        return [str(locations)]
    return [str(location) for location in locations]


def list_logs(locations: LogLocations) -> list[EvalLogInfo]:
    """Every log at ``locations``, each once, oldest first (by modification time).

    Raises:
        LogLocationError: naming a location that does not exist, is neither a folder nor a log
            file, or cannot be reached (no credentials, no network), with what to do.
    """
    found: dict[str, EvalLogInfo] = {}
    for location in as_list(locations):
        for info in _logs_at(location):
            found.setdefault(info.name, info)
    return sorted(found.values(), key=lambda info: (info.mtime or 0.0, info.name))


def _logs_at(location: str) -> list[EvalLogInfo]:
    if not location.strip():  # a shell variable that was never set; not the current folder
        raise LogLocationError(
            f"{location!r}: an empty location; pass a folder of Inspect logs, a .eval/.json log, "
            "or a URI such as s3://bucket/logs"
        )
    try:
        fs = filesystem(location)
        if not fs.exists(location):
            raise LogLocationError(
                f"{location}: no such folder or log file; pass a folder of Inspect logs, a "
                ".eval/.json log, or a URI such as s3://bucket/logs"
            )
        info = fs.info(location)
        if info.type == "file":
            if not location.endswith(LOG_SUFFIXES):
                raise LogLocationError(
                    f"{location}: not an Inspect log (expected a folder or a "
                    f"{' or '.join(LOG_SUFFIXES)} file)"
                )
            return [log_file_info(info)]
        return list_eval_logs(location, descending=False)
    except LogLocationError:
        raise
    except Exception as error:  # unreachable store, missing credentials, unknown protocol
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise LogLocationError(
            f"{location}: cannot be read ({type(error).__name__}: {first}); check the path, "
            "the URI's protocol and its credentials"
        ) from error
