"""The sandbox's seccomp filter: its decisions, read by a small BPF interpreter for both
architectures it covers, and attacks through the real sandbox that crossed samples before it
(kernel keys seen through /proc/key-users, AF_VSOCK, nested user namespaces) — a later sandbox
must not observe an earlier one, and honest programs (threads, subprocesses, sockets the
namespaces confine) must still run."""

from __future__ import annotations

import errno
import os
import re
import struct
import sys
from pathlib import Path

import pytest
from inspect_ai._util.error import PrerequisiteError

from gsm8k.execution import isolation, seccomp
from gsm8k.execution.isolation import FIRST_SANDBOX_UID, choose_isolation
from gsm8k.execution.runner import Limits, run_program
from gsm8k.execution.seccomp import (
    ARCHITECTURES,
    DENIED,
    NAMESPACE_FLAGS,
    SECCOMP_RET_ALLOW,
    SECCOMP_RET_ERRNO,
    SECCOMP_RET_KILL_PROCESS,
    SYSCALLS,
    compile_filter,
)

FAST = Limits(timeout_seconds=6.0, cpu_seconds=3)
ALLOW, KILL = SECCOMP_RET_ALLOW, SECCOMP_RET_KILL_PROCESS
EPERM, ENOSYS = SECCOMP_RET_ERRNO | errno.EPERM, SECCOMP_RET_ERRNO | errno.ENOSYS
HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}


NEWER_THAN_SOME_HEADERS = frozenset({"cachestat"})


def evaluate(program: bytes, arch: int, nr: int, args: tuple[int, ...] = ()) -> int:
    """What the kernel would do: run the classic BPF ``program`` on one ``seccomp_data``."""
    padded = (*args, 0, 0, 0, 0, 0, 0)[:6]
    data = struct.pack("=iI Q 6Q", nr, arch, 0, *padded)
    instructions = [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    accumulator, pc = 0, 0
    while True:
        code, true, false, k = instructions[pc]
        if code == 0x20:  # ld [k]
            accumulator = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # ret k
            return k
        elif code in (0x15, 0x35, 0x45):  # jeq, jge, jset
            taken = {
                0x15: accumulator == k,
                0x35: accumulator >= k,
                0x45: bool(accumulator & k),
            }[code]
            pc += true if taken else false
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")
        pc += 1


PROGRAM = compile_filter()


@pytest.mark.parametrize("machine", list(SYSCALLS))
def test_the_syscall_numbers_match_the_kernel_headers(machine: str) -> None:
    header = HEADERS[machine]
    if not header.is_file():
        pytest.skip(f"{header} is not installed")
    text = header.read_text()
    numbers = dict(re.findall(r"#define __NR_(\w+)\s+(\d+)", text))
    # The generic table names some calls through their 32/64-bit alias (__NR_fcntl ->
    # __NR3264_fcntl).
    aliases = dict(re.findall(r"#define __NR3264_(\w+)\s+(\d+)", text))
    numbers |= {name: aliases[name] for name in aliases if name not in numbers}
    for name, number in SYSCALLS[machine].items():
        if name in NEWER_THAN_SOME_HEADERS and name not in numbers:
            continue  # headers older than the call (cachestat is Linux 6.5)
        assert int(numbers[name]) == number, name


@pytest.mark.parametrize("machine", list(SYSCALLS))
def test_every_denied_call_is_refused_with_eperm(machine: str) -> None:
    arch, numbers = ARCHITECTURES[machine], SYSCALLS[machine]
    for name in DENIED:
        if name in numbers:
            assert evaluate(PROGRAM, arch, numbers[name]) == EPERM, name
    assert evaluate(PROGRAM, arch, numbers["clone3"]) == ENOSYS  # the C library falls back


@pytest.mark.parametrize("machine", list(SYSCALLS))
@pytest.mark.parametrize(
    ("call", "args", "expected"),
    [
        pytest.param("socket", (1, 1), EPERM, id="af-unix-inode-counter"),
        pytest.param("socket", (2, 1), EPERM, id="af-inet-inode-counter"),
        pytest.param("socket", (40, 1), EPERM, id="af-vsock"),
        pytest.param("socket", (16, 3), EPERM, id="af-netlink"),
        pytest.param("socketpair", (1, 1), EPERM, id="socketpair-unix"),
        pytest.param("clone", (0x003D0F00,), ALLOW, id="clone-thread"),
        pytest.param("clone", (0x01200011,), ALLOW, id="clone-fork"),
        pytest.param("clone", (0x10000000 | 17,), EPERM, id="clone-newuser"),
        pytest.param("clone", (0x20000000 | 17,), EPERM, id="clone-newpid"),
        pytest.param("clone", (0x40000000 | 17,), EPERM, id="clone-newnet"),
        pytest.param("clone", (0x00020000 | 17,), EPERM, id="clone-newns"),
        pytest.param("clone", (0x00001000 | 17,), EPERM, id="clone-pidfd-counts-processes"),
        pytest.param("madvise", (0, 4096, 4), ALLOW, id="madvise-dontneed-malloc-frees"),
        pytest.param("madvise", (0, 4096, 8), ALLOW, id="madvise-free"),
        pytest.param("madvise", (0, 4096, 14), ALLOW, id="madvise-hugepage-numpy"),
        pytest.param("madvise", (0, 4096, 3), EPERM, id="madvise-willneed-reads-in"),
        pytest.param("madvise", (0, 4096, 20), EPERM, id="madvise-cold"),
        pytest.param("madvise", (0, 4096, 21), EPERM, id="madvise-pageout-evicts"),
        pytest.param("madvise", (0, 4096, 22), EPERM, id="madvise-populate-read"),
        pytest.param("madvise", (0, 4096, 25), EPERM, id="madvise-collapse"),
        pytest.param("madvise", (0, 4096, 12), EPERM, id="madvise-mergeable"),
        pytest.param(
            "madvise", (0, 4096, 0x100000003), EPERM, id="madvise-int-as-the-kernel-reads-it"
        ),
        pytest.param("fcntl", (3, 3), ALLOW, id="fcntl-getfl"),
        pytest.param("fcntl", (3, 1030), ALLOW, id="fcntl-dupfd-cloexec"),
        pytest.param("fcntl", (3, 6), EPERM, id="fcntl-setlk"),
        pytest.param("fcntl", (3, 5), EPERM, id="fcntl-getlk"),
        pytest.param("fcntl", (3, 37), EPERM, id="fcntl-ofd-setlk"),
        pytest.param("fcntl", (3, 1024), EPERM, id="fcntl-setlease"),
        pytest.param("fcntl", (3, 1026), EPERM, id="fcntl-notify"),
    ],
)
def test_argument_checks(machine: str, call: str, args: tuple[int, ...], expected: int) -> None:
    number = SYSCALLS[machine][call]
    assert evaluate(PROGRAM, ARCHITECTURES[machine], number, args) == expected


@pytest.mark.parametrize("machine", list(SYSCALLS))
def test_ordinary_calls_are_allowed(machine: str) -> None:
    # read, write, openat, mmap, exit_group, getpid, futex on each architecture
    ordinary = {"x86_64": (0, 1, 257, 9, 231, 39, 202), "aarch64": (63, 64, 56, 222, 94, 172, 98)}
    for number in ordinary[machine]:
        assert evaluate(PROGRAM, ARCHITECTURES[machine], number) == ALLOW


def test_other_architectures_and_the_x32_abi_are_refused() -> None:
    assert evaluate(PROGRAM, 0x40000003, 20) == KILL  # the i386 entry point of a 64-bit process
    assert evaluate(PROGRAM, 0xC0000028, 1) == KILL  # 32-bit ARM
    assert evaluate(PROGRAM, ARCHITECTURES["x86_64"], 0x40000000 | 39) == EPERM  # x32 getpid
    assert NAMESPACE_FLAGS & 0x80 == 0  # the exit-signal bits of clone() stay allowed


# --- Through the real sandbox -------------------------------------------------------------

linux = pytest.mark.skipif(
    not sys.platform.startswith("linux") or seccomp.machine() is None,
    reason="the OS sandbox and its filter need Linux on x86_64 or aarch64",
)

SYSCALL = """
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = {numbers!r}


def call(name, *args):
    result = libc.syscall(ctypes.c_long(NR[name]), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return "ok" if result >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
"""


def program(body: str) -> str:
    machine = seccomp.machine()
    assert machine is not None
    return SYSCALL.format(numbers=SYSCALLS[machine]) + body


def sandbox_key_users() -> list[str]:
    """The key counts of every sandbox user id, as ``/proc/key-users`` shows them to all users
    (read on the host: the sandbox has no ``/proc``)."""
    rows = [line.split() for line in Path("/proc/key-users").read_text().splitlines()]
    ids = {os.getuid()} if os.geteuid() != 0 else set()
    return sorted(
        " ".join(r)
        for r in rows
        if int(r[0].rstrip(":")) >= FIRST_SANDBOX_UID or int(r[0].rstrip(":")) in ids
    )


@linux
def test_keys_cannot_pass_a_note_to_a_later_sandbox() -> None:
    before = sandbox_key_users()
    writer = program(
        "results = [call('add_key', b'user', b'note%d' % i, b'31337', 5, -4) for i in range(37)]\n"
        "results.append(call('keyctl', 0, -4, 1))\n"
        "results.append(call('request_key', b'user', b'note0', 0, -4))\n"
        "print(sorted(set(results)))\n"
        "ans = len(results)\n"
    )
    first = run_program(writer, FAST)
    assert first.status == "ok" and first.stdout.strip() == "['EPERM']", first
    # No sandbox user id gained a key: there is nothing for a later sample to read.
    assert sandbox_key_users() == before


@linux
def test_vsock_netlink_and_packet_sockets_are_refused() -> None:
    result = run_program(
        "import socket\n"
        "seen = []\n"
        "for family, kind in ((40, socket.SOCK_STREAM), (40, socket.SOCK_DGRAM), (16, socket.SOCK_RAW), (17, socket.SOCK_RAW)):\n"
        "    try:\n"
        "        s = socket.socket(family, kind)\n"
        "        if family == 40:\n"
        "            s.bind((0xFFFFFFFF, 31337))\n"
        "        seen.append('open')\n"
        "    except OSError as error:\n"
        "        seen.append(error.errno)\n"
        "print(seen)\n"
        "ans = 1\n",
        FAST,
    )
    assert result.status == "ok" and result.stdout.strip() == "[1, 1, 1, 1]", result


@linux
def test_the_page_cache_cannot_be_probed_for_an_earlier_sample_s_reads() -> None:
    # RWF_NOWAIT makes a read fail instead of waiting when a page is not cached: without timing it
    # shows exactly which pages of a shared read-only file an earlier sandbox read.
    result = run_program(
        "import os, sys\n"
        "fd = os.open(sys.executable, os.O_RDONLY)\n"
        "seen = []\n"
        "try:\n"
        "    os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)\n"
        "    seen.append('read')\n"
        "except OSError as error:\n"
        "    seen.append(error.errno)\n"
        "print(seen)\n"
        "ans = 1\n",
        FAST,
    )
    assert result.status == "ok" and result.stdout.strip() == "[1]", result
    calls = run_program(
        program("print([call('mincore', 0, 4096, 0), call('cachestat', 0, 0, 0, 0)])\nans = 1\n"),
        FAST,
    )
    assert calls.status == "ok" and calls.stdout.strip() == "['EPERM', 'EPERM']", calls


@linux
def test_no_new_namespaces_and_no_kernel_attack_surface() -> None:
    result = run_program(
        program(
            "found = {\n"
            "    'unshare-user': call('unshare', 0x10000000),\n"
            "    'unshare-net': call('unshare', 0x40000000),\n"
            "    'setns': call('setns', 0, 0),\n"
            "    'io_uring_setup': call('io_uring_setup', 8, ctypes.create_string_buffer(120)),\n"
            "    'ptrace': call('ptrace', 16, 1, 0, 0),\n"
            "    'bpf': call('bpf', 0, 0, 0),\n"
            "    'perf_event_open': call('perf_event_open', ctypes.create_string_buffer(128), 0, -1, -1, 0),\n"
            "    'userfaultfd': call('userfaultfd', 0),\n"
            "    'mount': call('mount', b'none', b'/scratch', b'tmpfs', 0, 0),\n"
            "    'personality': call('personality', 0x0040000),\n"
            "}\n"
            "pid = call('clone', 0x10000000 | 17, 0, 0, 0, 0)\n"
            "if pid == 'ok' and os.getpid() == 1:\n"
            "    os._exit(0)\n"
            "found['clone-newuser'] = pid\n"
            "print(sorted(k for k, v in found.items() if v != 'EPERM'))\n"
            "ans = len(found)\n"
        ),
        FAST,
    )
    assert result.status == "ok" and result.stdout.strip() == "[]", result


@linux
@pytest.mark.skipif(seccomp.machine() != "x86_64", reason="the i386 entry point is x86 only")
def test_the_32_bit_entry_point_ends_the_program() -> None:
    result = run_program(
        "import ctypes, mmap\n"
        "page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        "page.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))  # mov eax, getpid; int 0x80\n"
        "address = ctypes.addressof(ctypes.c_char.from_buffer(page))\n"
        "ans = ctypes.CFUNCTYPE(ctypes.c_int)(address)()\n",
        FAST,
    )
    assert result.status == "crashed" and result.value is None, result


@linux
def test_honest_programs_still_use_threads_and_processes() -> None:
    result = run_program(
        "import concurrent.futures, os\n"
        "with concurrent.futures.ThreadPoolExecutor(4) as pool:\n"
        "    total = sum(pool.map(lambda x: x * x, range(10)))\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    os._exit(7)\n"
        "print(total, os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]))\n"
        "ans = total\n",
        FAST,
    )
    assert result.status == "ok" and result.value == "285", result
    assert result.stdout.split() == ["285", "7"], result


@linux
def test_pipes_and_sockets_are_refused() -> None:
    # Their inode numbers come from a machine-wide counter: one sandbox could advance it and
    # the next read it off its own stdin. subprocess needs a pipe, so it fails too.
    result = run_program(
        "import errno, os, socket, subprocess, sys\n"
        "found = []\n"
        "for attempt in (os.pipe, socket.socketpair, lambda: socket.socket(),\n"
        "                lambda: subprocess.run([sys.executable, '-c', 'pass'])):\n"
        "    try:\n"
        "        attempt()\n"
        "        found.append('made')\n"
        "    except OSError as error:\n"
        "        found.append(errno.errorcode[error.errno])\n"
        "print(found)\n"
        "ans = 1\n",
        FAST,
    )
    assert result.status == "ok" and result.stdout.strip() == str(["EPERM"] * 4), result


@linux
def test_without_a_filter_for_this_machine_the_sandbox_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(seccomp.platform, "machine", lambda: "riscv64")
    isolation._probe.cache_clear()
    try:
        reason = isolation.unavailable_reason()
        assert reason is not None and "no seccomp filter for the riscv64" in reason
        with pytest.raises(PrerequisiteError, match="seccomp filter"):
            choose_isolation(False)
        assert choose_isolation(True) == "process"  # the trusted opt-in, recorded in the log
    finally:
        isolation._probe.cache_clear()
