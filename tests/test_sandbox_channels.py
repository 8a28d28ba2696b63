"""What one sandbox can leave for another, through the real sandbox.

An earlier red team passed notes between samples with allowed calls and no timing: a writer
sandbox made chosen pages of a large host file resident, and a later reader sandbox read which
ones back from its own page-fault counters; concurrent samples watched shared files with inotify;
and a program reserved gigabytes of the evaluator's disk with ``fallocate`` on its stdin. Each
test here runs that attack through :func:`run_program` and requires it to recover nothing; the
residency control runs the same writer and reader on a disk-backed file without the sandbox and
recovers the note exactly, so the probe itself works on this machine.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gsm8k.execution import image, seccomp
from gsm8k.execution.isolation import (
    Isolation,
    bwrap_command,
    python_runtime,
    sandbox_image,
    unavailable_reason,
)
from gsm8k.execution.runner import ExecutionResult, Limits, run_program
from gsm8k.execution.seccomp import SYSCALLS
from gsm8k.task import gsm8k
from tests.scripted import run_eval, scripted_model

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or seccomp.machine() is None,
    reason="the OS sandbox and its filter need Linux on x86_64 or aarch64",
)

LIMITS = Limits(timeout_seconds=20.0, cpu_seconds=10)
BITS = 128
STRIDE = 4
"""Pages between two probed pages (the probes also ask for no read-around, MADV_RANDOM)."""
PAGE = 4096
BIGGEST_FILE = """
import os
sizes = []
for folder, directories, files in os.walk("/"):
    if folder == "/":
        directories[:] = [d for d in directories if d not in ("proc", "dev", "scratch")]
    for name in files:
        path = os.path.join(folder, name)
        if not os.path.islink(path):
            sizes.append((os.path.getsize(path), path))
size, path = max(sizes)
print(path)
ans = size
"""
WRITER = """
import mmap, os
bits, first = {bits!r}, {first}
with open({path!r}, "rb") as handle:
    pages = mmap.mmap(handle.fileno(), 0, prot=mmap.PROT_READ)
    pages.madvise(mmap.MADV_RANDOM)
    for index, bit in enumerate(bits):
        if bit:
            pages[(first + index * {stride}) * {page}]
ans = sum(bits)
"""
READER = """
import json, mmap, resource
first, seen, faults = {first}, [], 0
with open({path!r}, "rb") as handle:
    pages = mmap.mmap(handle.fileno(), 0, prot=mmap.PROT_READ)
    pages.madvise(mmap.MADV_RANDOM)
    for index in range({count}):
        before = resource.getrusage(resource.RUSAGE_SELF)
        pages[(first + index * {stride}) * {page}]
        after = resource.getrusage(resource.RUSAGE_SELF)
        # A page that was not in memory costs a major fault and a block read: the note's 0.
        cost = after.ru_majflt - before.ru_majflt + after.ru_inblock - before.ru_inblock
        faults += cost
        seen.append(0 if cost else 1)
print(json.dumps({{"bits": seen, "faults": faults}}))
ans = faults
"""


@pytest.fixture(autouse=True)
def _sandbox_must_work() -> None:
    reason = unavailable_reason()
    if reason is not None:
        pytest.fail(f"the OS sandbox cannot run here: {reason}")


def secret() -> list[int]:
    """128 random bits, half of them ones: a constant guess recovers exactly half."""
    ones = set(random.sample(range(BITS), BITS // 2))
    return [int(i in ones) for i in range(BITS)]


def evict(path: str) -> None:
    """Drop ``path``'s pages from the host's page cache (no effect on a tmpfs)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def send_and_receive(
    path: str, first: int, bits: list[int], isolation: Isolation = "bwrap"
) -> dict[str, object]:
    """Run the writer, then the reader, each as its own program; what the reader recovered."""
    values = {"path": path, "first": first, "stride": STRIDE, "page": PAGE}
    written = run_program(WRITER.format(bits=bits, **values), LIMITS, isolation)
    assert written.status == "ok", written
    read = run_program(READER.format(count=len(bits), **values), LIMITS, isolation)
    assert read.status == "ok", read
    received: dict[str, object] = json.loads(read.stdout)
    return received


def agreement(sent: list[int], received: object) -> int:
    assert isinstance(received, list) and len(received) == len(sent)
    return sum(a == b for a, b in zip(sent, received, strict=True))


def test_a_later_sandbox_reads_nothing_from_page_residency() -> None:
    found = run_program(BIGGEST_FILE, LIMITS)
    assert found.status == "ok" and found.value is not None, found
    path, size = found.stdout.strip(), int(found.value)
    assert size >= (BITS * STRIDE + 2) * PAGE, f"{path} is too small to probe"
    # Where the sandbox saw host files (before the in-memory image), this host file was what it
    # mapped: dropping its pages first makes the note readable there.
    if os.path.isfile(path):
        evict(path)
    first = size // PAGE // 2 - BITS * STRIDE // 2
    sent = secret()
    received = send_and_receive(path, first, sent)
    assert received["faults"] == 0  # every page the sandbox can map is always in memory
    # Nothing better than chance: 81 or more of 128 happens by chance with p < 0.002.
    assert agreement(sent, received["bits"]) <= 80, received


def test_control_the_same_probe_reads_the_note_from_a_disk_backed_file(tmp_path: Path) -> None:
    shared = tmp_path / "shared.bin"
    shared.write_bytes(os.urandom((BITS * STRIDE + 2) * PAGE))
    with open(shared, "rb+") as handle:
        os.fsync(handle.fileno())
    evict(str(shared))
    baseline = send_and_receive(str(shared), 1, [0] * BITS, isolation="process")
    if baseline["faults"] == 0:
        pytest.skip(f"{tmp_path} keeps its pages in memory (a tmpfs): no disk to probe")
    evict(str(shared))
    sent = secret()
    received = send_and_receive(str(shared), 1, sent, isolation="process")
    assert agreement(sent, received["bits"]) >= BITS - 4, received


def test_the_sandbox_sees_only_memory_backed_filesystems() -> None:
    root = sandbox_image().root
    # Its root is the image, on a tmpfs; nothing else of the host is bound (bubblewrap's /dev
    # holds device nodes, which have no page cache).
    assert image._filesystem_type(root) == "tmpfs"
    command = bwrap_command("bwrap", python_runtime(), ["-c", "pass"], 3)
    binds = [command[i + 1 : i + 3] for i, a in enumerate(command) if "bind" in a]
    assert binds == [[str(root), "/"]], binds
    result = run_program(
        "import json, os\n"
        "hidden = ('/proc', '/etc', '/usr/share', '/sys', '/tmp')\n"
        "dirs = {os.path.realpath(d) for d in ('/bin', '/usr/bin') if os.path.isdir(d)}\n"
        "bins = {d: sorted(os.listdir(d)) for d in dirs}\n"
        "print(json.dumps([[os.path.exists(p) for p in hidden], bins, os.listdir('/usr')]))\n"
        "ans = 1\n",
        LIMITS,
    )
    assert result.status == "ok", result
    present, bins, usr = json.loads(result.stdout)
    assert not any(present), present
    # The interpreter is copied in at its own path, wherever it lives (a Debian Python's is
    # /usr/bin/python3.11, a pyenv or CI build's elsewhere): a program directory holds that
    # one file or nothing, never the host's other programs.
    interpreter = Path(python_runtime().executable)
    expected = {str(interpreter.parent): [interpreter.name]}
    assert {d: names for d, names in bins.items() if names} == {
        d: names for d, names in expected.items() if d in bins
    }, bins
    runtime_top = {interpreter.parts[2]} if interpreter.parts[1] == "usr" else set()
    assert set(usr) <= {"lib", "lib64", "lib32", "local", *runtime_top}, usr


def test_the_image_holds_the_runtime_and_is_read_only() -> None:
    built = sandbox_image()
    assert built.files > 100 and built.bytes > 10 * 1024 * 1024
    result = run_program(
        "import errno, os, sys\n"
        "try:\n"
        "    open(os.path.join(os.path.dirname(os.__file__), 'planted.py'), 'w')\n"
        "    wrote = 'written'\n"
        "except OSError as error:\n"
        "    wrote = errno.errorcode[error.errno]\n"
        "print(wrote)\n"
        "ans = 1\n",
        LIMITS,
    )
    assert result.status == "ok" and result.stdout.strip() == "EROFS", result


def test_an_image_is_removed_when_its_evaluator_exits() -> None:
    code = (
        "from gsm8k.execution.isolation import sandbox_image\n"
        "from gsm8k.execution.runner import run_program\n"
        "assert run_program('ans = 1').value == '1'\n"
        "print(sandbox_image().root)\n"
    )
    environment = os.environ | {"PYTHONPATH": str(Path(__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=environment
    )
    assert done.returncode == 0, done.stderr
    root = Path(done.stdout.strip())
    assert root.name.startswith(image.IMAGE_PREFIX) and not root.exists()


def test_images_of_evaluators_no_longer_running_are_swept(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f"{image.IMAGE_PREFIX}{gone.pid}-abc"
    live = tmp_path / f"{image.IMAGE_PREFIX}{os.getpid()}-def"
    other = tmp_path / "unrelated"
    for directory in (stale, live, other):
        (directory / "usr").mkdir(parents=True)
    image._sweep(tmp_path)
    assert not stale.exists() and live.exists() and other.exists()


def test_the_program_reads_its_source_from_a_read_only_pipe() -> None:
    program = (
        "import ctypes, errno, os, stat\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]\n"
        "found = [stat.S_ISFIFO(os.fstat(0).st_mode)]\n"
        "for mode in (1, 0):  # FALLOC_FL_KEEP_SIZE, then a plain reservation\n"
        "    found.append(libc.fallocate(0, mode, 0, 2 << 30) == 0 or\n"
        "                 errno.errorcode[ctypes.get_errno()])\n"
        "try:\n"
        "    os.write(0, b'x')\n"
        "    found.append('wrote')\n"
        "except OSError as error:\n"
        "    found.append(errno.errorcode[error.errno])\n"
        "print(found)\n"
        "ans = 1\n"
    )
    ways: tuple[Isolation, ...] = ("bwrap", "process")
    for how in ways:
        result = run_program(program, LIMITS, isolation=how)
        assert result.status == "ok", result
        assert result.stdout.strip() == "[True, 'EBADF', 'EBADF', 'EBADF']", (how, result)


def test_hints_watches_and_locks_on_shared_files_are_refused() -> None:
    machine = seccomp.machine()
    assert machine is not None
    program = f"""
import ctypes, errno, fcntl, mmap, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = {SYSCALLS[machine]!r}


def call(name, *args):
    result = libc.syscall(ctypes.c_long(NR[name]), *[ctypes.c_long(a) for a in args])
    return "ok" if result >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")


def attempt(action):
    try:
        action()
        return "ok"
    except OSError as error:
        return errno.errorcode.get(error.errno, "?")


shared = os.open(sys.executable, os.O_RDONLY)
directory = os.open("/", os.O_RDONLY)
mapped = mmap.mmap(shared, 0, prot=mmap.PROT_READ)
anonymous = mmap.mmap(-1, 1 << 16)
address = ctypes.addressof(ctypes.c_char.from_buffer(anonymous))
found = {{
    "fadvise": attempt(lambda: os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_WILLNEED)),
    "readahead": call("readahead", shared, 0, 1 << 20),
    "madvise-willneed": attempt(lambda: mapped.madvise(mmap.MADV_WILLNEED)),
    "madvise-pageout": attempt(lambda: mapped.madvise(21)),
    "madvise-cold": attempt(lambda: mapped.madvise(20)),
    "madvise-populate-read": attempt(lambda: mapped.madvise(22)),
    "madvise-mergeable": call("madvise", address, 1 << 16, 12),
    "process_madvise": call("process_madvise", 0, 0, 0, 21, 0),
    "move_pages": call("move_pages", 0, 0, 0, 0, 0, 0),
    "mbind": call("mbind", address, 1 << 16, 0, 0, 0, 0),
    "inotify_init1": call("inotify_init1", 0),
    "inotify_add_watch": call("inotify_add_watch", -1, 0, 1),
    "flock": attempt(lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    "posix-lock": attempt(lambda: fcntl.lockf(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    "ofd-lock": attempt(lambda: fcntl.fcntl(shared, 37, bytes(32))),
    "lease": attempt(lambda: fcntl.fcntl(shared, 1024, fcntl.F_RDLCK)),
    "dnotify": attempt(lambda: fcntl.fcntl(directory, 1026, 1)),
    "pipe": attempt(os.pipe),
    "memfd": attempt(lambda: os.memfd_create("note")),
    "pidfd": attempt(lambda: os.pidfd_open(os.getpid())),
    "mq_open": call("mq_open", 0, 0, 0, 0),
    "sysinfo": call("sysinfo", ctypes.addressof(ctypes.create_string_buffer(128))),
}}
allowed = {{
    "madvise-dontneed": call("madvise", address, 1 << 16, 4),
    "madvise-hugepage": call("madvise", address, 1 << 16, 14),
    "fcntl-getfl": attempt(lambda: fcntl.fcntl(shared, fcntl.F_GETFL)),
}}
print(sorted(k for k, v in found.items() if v != "EPERM"), sorted(set(allowed.values())))
ans = 1
"""
    result = run_program(program, LIMITS)
    assert result.status == "ok", result
    assert result.stdout.strip() == "[] ['ok']", result


WATCHER = """
import ctypes, errno, os, select, sys, time
libc = ctypes.CDLL(None, use_errno=True)
queue = libc.inotify_init1(0)
if queue < 0:
    print(errno.errorcode[ctypes.get_errno()])
    ans = 0
else:
    folder = os.path.dirname(os.__file__).encode()
    libc.inotify_add_watch(queue, folder, 0x1 | 0x20)  # IN_ACCESS | IN_OPEN
    events, deadline = 0, time.monotonic() + 4
    while time.monotonic() < deadline:
        if select.select([queue], [], [], 0.1)[0]:
            events += len(os.read(queue, 65536))
    print("watched", events)
    ans = events
"""
TOUCHER = """
import os, time
deadline = time.monotonic() + 3
while time.monotonic() < deadline:
    for name in os.listdir(os.path.dirname(os.__file__))[:50]:
        path = os.path.join(os.path.dirname(os.__file__), name)
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                handle.read(1)
ans = 1
"""


def test_a_concurrent_sandbox_cannot_watch_the_shared_runtime() -> None:
    results: dict[str, ExecutionResult] = {}
    watcher = threading.Thread(target=lambda: results.update(w=run_program(WATCHER, LIMITS)))
    watcher.start()
    results["t"] = run_program(TOUCHER, LIMITS)
    watcher.join()
    assert results["t"].status == "ok", results["t"]
    assert results["w"].status == "ok" and results["w"].stdout.strip() == "EPERM", results["w"]


@pytest.mark.skipif(
    image._filesystem_type(image.SHARED_MEMORY) != "tmpfs", reason="/dev/shm is not a tmpfs here"
)
def test_without_a_mount_of_its_own_the_image_goes_to_shared_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not root, or root where mounting is refused (a container without CAP_SYS_ADMIN).
    monkeypatch.setattr(image, "_mount_tmpfs", lambda target: False)
    directory, mounted = image._location()
    try:
        assert not mounted and directory.parent == image.SHARED_MEMORY
        assert directory.name.startswith(f"{image.IMAGE_PREFIX}{os.getpid()}-")
        assert directory.stat().st_mode & 0o777 == 0o755 and not any(directory.iterdir())
    finally:
        directory.rmdir()


def test_with_no_tmpfs_at_all_the_sandbox_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(image, "_mount_tmpfs", lambda target: False)
    monkeypatch.setattr(image, "SHARED_MEMORY", tmp_path / "no-shm")
    with pytest.raises(image.ImageUnavailable, match="no tmpfs"):
        image._location()


def test_in_a_pal_eval_a_later_sample_reads_nothing_from_page_residency(
    mini_data: Path, tmp_path: Path
) -> None:
    """The residency attack as a model would run it: the first sample's program writes the note,
    the second's (one sample at a time, so strictly later) reads it back as its answer."""
    found = run_program(BIGGEST_FILE, LIMITS)
    assert found.status == "ok" and found.value is not None, found
    path, size = found.stdout.strip(), int(found.value)
    if os.path.isfile(path):
        evict(path)
    values = {"path": path, "first": size // PAGE // 2 - BITS * STRIDE // 2, "stride": STRIDE}
    sent = secret()
    writer = WRITER.format(bits=sent, page=PAGE, **values)
    reader = READER.format(count=BITS, page=PAGE, **values) + (
        "def solution():\n    return int(''.join(map(str, seen)), 2) + (1 << 200) * faults\n"
    )
    replies = {
        "Janet": f"```python\n{writer}\ndef solution():\n    return 0\n```",
        "robe": f"```python\n{reader}\n```",
    }
    log = run_eval(
        gsm8k(dataset=str(mini_data), fewshot=0, mode="pal"),
        scripted_model(replies),
        log_dir=str(tmp_path),
        limit=2,
        max_samples=1,
    )
    assert log.status == "success", log.error
    answer = next(s for s in log.samples if "robe" in str(s.input)).scores["pal_grader"].answer
    assert answer is not None and int(answer) < 1 << BITS, answer  # no major fault counted
    received = [int(bit) for bit in format(int(answer), f"0{BITS}b")]
    assert agreement(sent, received) <= 80, received
