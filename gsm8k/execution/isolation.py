"""The operating-system sandbox for model-written programs: a bubblewrap command line.

Each program gets its own mount namespace whose root is the read-only in-memory runtime image of
:mod:`gsm8k.execution.image` (the interpreter, its standard library, the libraries they load,
numpy, scipy and sympy: no host file) and an empty, size-capped tmpfs as its working directory; a
PID namespace of its own and no ``/proc``; empty network, IPC and UTS namespaces; no environment
beyond ``PATH``, ``HOME``, ``TMPDIR``, ``LANG`` and one-thread BLAS settings; no new privileges;
the seccomp filter of :mod:`gsm8k.execution.seccomp`. The PID namespace is what makes the time
limit hold: when the runner kills bubblewrap, the namespace's first process dies with it
(``--die-with-parent``) and the kernel kills every process left in the namespace, however it was
started (``setsid``, double fork).

When the evaluator runs as root, the program runs under a per-run user id of its own (the
bootstrap drops to it before any model code runs), so that it holds no capabilities, cannot
signal or read the sandbox's root-owned first process, and ``RLIMIT_NPROC`` (which never
applies to root) bounds its processes. Other users get a user namespace from bubblewrap, in
which the process limit counts only the sandbox's own processes.
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from gsm8k.execution.image import Image, ImageUnavailable, runtime_image
from gsm8k.execution.packages import THREAD_ENVIRONMENT, available_packages
from gsm8k.execution.seccomp import SeccompUnavailable, filter_descriptor

SCRATCH = "/scratch"
"""The program's working directory inside the sandbox (a tmpfs, gone with the sandbox)."""
SCRATCH_BYTES = 16 * 1024 * 1024
"""Size of the scratch tmpfs: a program cannot fill the evaluator's disk or memory through it."""
SANDBOX_PATH = "/usr/bin:/bin"
FILTER_PROBE = (
    "import socket, sys\n"
    "try:\n    socket.socket(40, socket.SOCK_STREAM)\n"
    "except PermissionError:\n    sys.exit(0)\n"
    "sys.exit(3)"
)
"""Run in the probe sandbox: an AF_VSOCK (40) socket must be refused with EPERM by the filter
(without it, the call succeeds or fails with EAFNOSUPPORT)."""
FIRST_SANDBOX_UID = 1_900_000_000
"""Per-run user ids (root evaluators only) are drawn from here up: far above any real account."""
SANDBOX_UIDS = 2_000_000_000
"""How many ids there are to draw from (the last one stays below 2**32 - 1, "no user")."""


@dataclass(frozen=True)
class Runtime:
    """The interpreter a sandbox runs and its standard library, as they are on this machine."""

    executable: str
    stdlib: str


@functools.cache
def python_runtime() -> Runtime:
    """The real interpreter under this one's base prefix (a venv's or pyenv's ``python`` is
    a link or a shim) and its standard library (the shared libraries they load, ``libpython``
    included, are found by :mod:`gsm8k.execution.image`)."""
    executable = os.path.realpath(sys.executable)
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    return Runtime(executable, stdlib)


def sandbox_image() -> Image:
    """The in-memory runtime every sandbox's root is, made on first use (a few seconds).

    Raises:
        ImageUnavailable: where it cannot be made (the sandbox is then unavailable).
    """
    runtime = python_runtime()
    return runtime_image(runtime.executable, runtime.stdlib, available_packages())


def find_bwrap() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def _probe(bwrap: str) -> str | None:
    """Why bubblewrap cannot start a sandbox here, seccomp filter included (``None``: it can).

    The probe program must see the filter refuse it something: a kernel or bubblewrap that took
    the filter without applying it would otherwise pass unnoticed.
    """
    try:
        descriptor = filter_descriptor()
    except (SeccompUnavailable, OSError) as error:
        return f"the sandbox's seccomp filter cannot be made: {error}"
    try:
        sandbox_image()
    except ImageUnavailable as error:
        os.close(descriptor)
        return f"the sandbox's in-memory runtime cannot be made: {error}"
    try:
        probe = subprocess.run(
            bwrap_command(bwrap, python_runtime(), ["-c", FILTER_PROBE], descriptor),
            capture_output=True,
            timeout=30,
            env=sandbox_environment(),
            pass_fds=(descriptor,),
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{bwrap} could not start: {error}"
    finally:
        os.close(descriptor)
    if probe.returncode == 3:
        return f"{bwrap} started a sandbox but its seccomp filter was not applied"
    if probe.returncode != 0:
        message = probe.stderr.decode("utf-8", "replace").strip()
        return f"{bwrap} could not create a sandbox with its seccomp filter: {message[:300]}"
    return None


def unavailable_reason() -> str | None:
    """Why the OS sandbox cannot be used on this machine, or ``None`` when it can."""
    if not sys.platform.startswith("linux"):
        return f"bubblewrap needs Linux namespaces; this is {sys.platform}"
    bwrap = find_bwrap()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    return _probe(bwrap)


def sandbox_available() -> bool:
    return unavailable_reason() is None


def sandbox_environment() -> dict[str, str]:
    """The whole environment of bubblewrap and the program: nothing from the evaluator's
    (bubblewrap's own processes are visible in the sandbox's ``/proc``)."""
    return {
        "PATH": SANDBOX_PATH,
        "HOME": SCRATCH,
        "TMPDIR": SCRATCH,
        "LANG": "C.UTF-8",
        **THREAD_ENVIRONMENT,
    }


def bwrap_command(
    bwrap: str, runtime: Runtime, python_arguments: list[str], seccomp_fd: int
) -> list[str]:
    """The bubblewrap command line that runs ``runtime`` with ``python_arguments`` under the
    seccomp filter that descriptor ``seccomp_fd`` holds (it must be passed to bubblewrap)."""
    command = [
        bwrap,
        "--seccomp", str(seccomp_fd),
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ]  # fmt: skip
    for name, value in sandbox_environment().items():
        command += ["--setenv", name, value]
    if os.geteuid() == 0:
        # Keep only what the bootstrap needs to drop to the run's own user id; it loses these
        # with the switch, and no-new-privileges (always set by bubblewrap) keeps them lost.
        command += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        command += ["--unshare-user"]
    # The root is the in-memory image: no host file, so no page cache shared with the host or
    # with other sandboxes (see gsm8k.execution.image). It is read-only, as is /dev below.
    image = runtime_image(runtime.executable, runtime.stdlib, available_packages())
    command += ["--ro-bind", str(image.root), "/"]
    # No /proc: its global files (/proc/stat's fork count, vmstat, meminfo, /proc/sys) are
    # counters that one sandbox can advance and the next read; the program needs none of them.
    command += [
        "--dev", "/dev",
        "--perms", "1777", "--size", str(SCRATCH_BYTES), "--tmpfs", SCRATCH,
        # Only the scratch tmpfs is writable: /dev is a tmpfs too, with no size limit, owned by
        # the program where bubblewrap made a user namespace.
        "--remount-ro", "/dev",
        "--chdir", SCRATCH,
        runtime.executable, "-I", "-S", *python_arguments,
    ]  # fmt: skip
    return command


class _UidPool:
    """A fresh user id for every sandbox (root evaluators only).

    Never reusing an id matters: the kernel keeps some state per user id beyond a process's life
    (the user keyring), which a program could otherwise use to leave notes for a later sample.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._taken: set[int] = set()

    @contextmanager
    def uid(self) -> Iterator[int | None]:
        """A user id to drop to (root only; other users already get a user namespace)."""
        if os.geteuid() != 0:
            yield None
            return
        with self._lock:
            uid = FIRST_SANDBOX_UID + secrets.randbelow(SANDBOX_UIDS)
            while uid in self._taken:
                uid = FIRST_SANDBOX_UID + secrets.randbelow(SANDBOX_UIDS)
            self._taken.add(uid)
        try:
            yield uid
        finally:
            with self._lock:
                self._taken.discard(uid)


UID_POOL = _UidPool()


Isolation = Literal["bwrap", "process"]
"""Where a program runs locally: a bubblewrap sandbox, or (trusted models only) a plain process."""

TRUST_PARAMETER = "trust_model_code"


def refusal(reason: str) -> str:
    """The one message shown when model-written code would have to run without isolation."""
    return (
        f"mode=pal and tools=python run code the model wrote, and this machine cannot isolate it: "
        f"{reason}. Run the code in a container with -T sandbox=docker (needs a Docker engine), "
        f"install bubblewrap, or — only for a model whose code you trust — pass "
        f"-T {TRUST_PARAMETER}=true to run it as a plain local process that can read whatever "
        "your user can (the log records that choice)."
    )


CONTAINER_SANDBOXES = frozenset({"docker", "k8s"})
"""Inspect sandbox types that run programs in a container, away from the evaluator's files."""


def check_sandbox_trust(sandbox: str, trust_model_code: bool) -> None:
    """Refuse an Inspect sandbox that is not a container unless the user trusts the model's code.

    Inspect's ``local`` sandbox runs commands as the evaluator's user, with its environment and
    files (the answer key included); a type this project does not know may do the same.

    Raises:
        ValueError: when ``trust_model_code`` is not a boolean.
        PrerequisiteError: for such a sandbox without ``trust_model_code=true``.
    """
    if not isinstance(trust_model_code, bool):
        raise ValueError(
            f"{TRUST_PARAMETER}={trust_model_code!r}: pass true or false (default false)."
        )
    if sandbox in CONTAINER_SANDBOXES or trust_model_code:
        return
    # Imported where raised: gsm8k-mcp loads this module and runs without Inspect.
    from inspect_ai._util.error import PrerequisiteError

    what = (
        "Inspect's local sandbox runs programs as your user, with your environment and files"
        if sandbox == "local"
        else f"it is not one of the container sandboxes {', '.join(sorted(CONTAINER_SANDBOXES))}"
    )
    raise PrerequisiteError(refusal(f"-T sandbox={sandbox} does not isolate it: {what}"))


def choose_isolation(trust_model_code: bool) -> Isolation:
    """``bwrap`` where the sandbox works; else ``process`` if the user opted in, else refuse.

    Raises:
        ValueError: when ``trust_model_code`` is not a boolean.
        PrerequisiteError: when the sandbox is unavailable and the user did not opt in.
    """
    if not isinstance(trust_model_code, bool):
        raise ValueError(
            f"{TRUST_PARAMETER}={trust_model_code!r}: pass true or false (default false)."
        )
    reason = unavailable_reason()
    if reason is None:
        return "bwrap"
    if trust_model_code:
        return "process"
    from inspect_ai._util.error import PrerequisiteError

    raise PrerequisiteError(refusal(reason))
