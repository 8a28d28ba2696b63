"""The seccomp filter every bubblewrap sandbox runs under: system calls a GSM8K program never
needs, and that namespaces alone leave open between samples, fail with ``EPERM``.

Namespaces cut a program off from the evaluator's files, processes and network, but some kernel
state is shared by every process on the machine whatever its namespaces: the key rings (keys
outlive the process that made them, and ``/proc/key-users`` shows every user's key count, so one
sample could leave a number for a later one), the inode numbers new pipes, sockets, message
queues, memfds and pidfds get (machine-wide counters: no pipes or sockets inside), the load
average, free memory and process count ``sysinfo`` reports, new user
namespaces (a program regains capabilities inside one and reaches kernel code
that is otherwise root-only), io_uring, ptrace, bpf, perf events, userfaultfd, page-cache
probes (``preadv2`` with ``RWF_NOWAIT``, ``mincore``, ``cachestat``) and hints that read ahead,
drop or move shared pages (``fadvise``, ``readahead``, ``madvise`` with such advice), watches
and locks on the shared read-only runtime (inotify, ``flock``, ``fcntl`` locks, leases and
``F_NOTIFY``), mounts, modules, clocks.
The filter is classic BPF, written here rather than taken from a library so that it needs
nothing beyond the standard library and is the same on every machine; bubblewrap installs it
(``--seccomp FD``) just before it starts the interpreter, so the bootstrap runs under it too.

Layout: check the architecture (x86-64 and AArch64; any other, including the 32-bit x86 entry
point a 64-bit process can still reach, kills the process), then compare the system call number
against the deny list, then check the arguments of the calls allowed only in part (``clone``: no
namespace flags, no pidfd; ``madvise``: advice about the caller's own memory; ``fcntl``: no
locks, leases or notifications). ``clone3`` answers
``ENOSYS`` — its flags are behind a pointer the filter cannot read — so the C library falls back
to ``clone``, whose flags it can.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
from collections.abc import Iterable

# Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

# Offsets into struct seccomp_data: nr, arch, then six 64-bit arguments (little-endian: the low
# half first; the calls checked below take int arguments, which the kernel truncates to 32 bits).
_NR, _ARCH, _ARG0 = 0, 4, 16

AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000
"""x86-64's x32 ABI: same architecture value, numbers with this bit set; all refused."""

NAMESPACE_FLAGS = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)
"""clone() flags that make a namespace (CLONE_NEWTIME shares its bit with the exit signal in
clone() and is only accepted by unshare and clone3, both refused whole)."""
CLONE_PIDFD = 0x00001000
"""clone() flag that returns a pidfd, whose inode number counts processes made machine-wide."""
REFUSED_CLONE_FLAGS = NAMESPACE_FLAGS | CLONE_PIDFD
ALLOWED_MADVICE = (0, 1, 2, 4, 8, 10, 11, 13, 14, 15, 16, 17, 18, 19, 102, 103)
"""madvise() advice that concerns only the caller's own memory: NORMAL, RANDOM, SEQUENTIAL,
DONTNEED, FREE, DONTFORK, DOFORK, UNMERGEABLE, HUGEPAGE (numpy asks for it), NOHUGEPAGE, DONTDUMP,
DODUMP, WIPEONFORK, KEEPONFORK, GUARD_INSTALL, GUARD_REMOVE. Refused: WILLNEED, COLD, PAGEOUT,
POPULATE_*, COLLAPSE (they read in, age, swap out or regroup pages of a file other sandboxes
map), MERGEABLE (same-page merging across processes), REMOVE, HWPOISON and anything newer."""
REFUSED_FCNTL = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""fcntl() commands refused: F_GETLK, F_SETLK, F_SETLKW, the open-file-description locks
F_OFD_GETLK/SETLK/SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY (directory notification)."""

DENIED = (
    # Key rings: kernel state that outlives the sandbox and is visible to every user.
    "keyctl", "add_key", "request_key",
    # Namespaces: no new ones, no joining others.
    "unshare", "setns",
    # Kernel interfaces with a history of privilege escalations, or that watch other processes.
    "io_uring_setup", "io_uring_enter", "io_uring_register", "ptrace", "process_vm_readv",
    "process_vm_writev", "kcmp", "pidfd_getfd", "bpf", "perf_event_open", "userfaultfd",
    "fanotify_init", "name_to_handle_at", "open_by_handle_at", "lookup_dcookie", "personality",
    # Page-cache probes: a read that fails rather than waits (RWF_NOWAIT), or a residency report,
    # tells which pages of a shared read-only file an earlier sample read, exactly, without timing.
    "preadv2", "pwritev2", "mincore", "cachestat",
    # Page-cache and memory-placement hints that change shared state: read ahead, drop, or move
    # pages of a file other sandboxes map (madvise is checked by its advice, below).
    "fadvise64", "readahead", "process_madvise", "move_pages", "migrate_pages", "mbind",
    # Watches and locks on the shared read-only runtime: exact signals between concurrent samples
    # (fcntl's lock, lease and directory-notification commands are refused below).
    "inotify_init", "inotify_init1", "inotify_add_watch", "flock",
    # New pipes, sockets, message queues, memfds and pidfds take their inode number from a
    # machine-wide counter that fstat() shows: one sandbox advances it, the next reads where it
    # stands (the runner's pipes on stdin and stdout show it without any call).
    "pipe", "pipe2", "socket", "socketpair", "mq_open", "memfd_create", "memfd_secret",
    "pidfd_open",
    # Machine-wide totals (load average, free memory, process count): one sandbox moves them,
    # a concurrent one reads them, and the load average stays raised for minutes after.
    "sysinfo",
    # Mounts and the root directory.
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr",
    # The machine itself: kernels, modules, swap, clocks, names, quotas, the kernel log.
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "settimeofday",
    "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname", "vhangup",
    "nfsservctl",
    # x86-64 only: port I/O, descriptor tables, old library loading, old sysctl.
    "iopl", "ioperm", "modify_ldt", "uselib", "_sysctl",
)  # fmt: skip

# System call numbers from the kernel's tables (arch/x86/entry/syscalls/syscall_64.tbl and
# include/uapi/asm-generic/unistd.h, which AArch64 uses); tests compare them with the headers.
SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        "socket": 41, "socketpair": 53, "clone": 56, "clone3": 435, "unshare": 272, "setns": 308,
        "keyctl": 250, "add_key": 248, "request_key": 249, "ptrace": 101, "bpf": 321,
        "perf_event_open": 298, "userfaultfd": 323, "mount": 165, "umount2": 166,
        "pivot_root": 155, "chroot": 161, "move_mount": 429, "open_tree": 428, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "kexec_load": 246,
        "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
        "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163, "quotactl": 179,
        "quotactl_fd": 443, "syslog": 103, "process_vm_readv": 310, "process_vm_writev": 311,
        "name_to_handle_at": 303, "open_by_handle_at": 304, "lookup_dcookie": 212,
        "fanotify_init": 300, "settimeofday": 164, "clock_settime": 227, "clock_adjtime": 305,
        "adjtimex": 159, "sethostname": 170, "setdomainname": 171, "vhangup": 153,
        "pidfd_getfd": 438, "kcmp": 312, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "iopl": 172, "ioperm": 173, "modify_ldt": 154, "uselib": 134,
        "nfsservctl": 180, "_sysctl": 156, "personality": 135, "preadv2": 327, "pwritev2": 328,
        "mincore": 27, "cachestat": 451, "madvise": 28, "fcntl": 72, "fadvise64": 221,
        "readahead": 187, "process_madvise": 440, "move_pages": 279, "migrate_pages": 256,
        "mbind": 237, "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254,
        "flock": 73, "pipe": 22, "pipe2": 293, "mq_open": 240, "memfd_create": 319,
        "memfd_secret": 447, "pidfd_open": 434, "sysinfo": 99,
    },
    "aarch64": {
        "socket": 198, "socketpair": 199, "clone": 220, "clone3": 435, "unshare": 97,
        "setns": 268, "keyctl": 219, "add_key": 217, "request_key": 218, "ptrace": 117,
        "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "mount": 40, "umount2": 39,
        "pivot_root": 41, "chroot": 51, "move_mount": 429, "open_tree": 428, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "kexec_load": 104,
        "kexec_file_load": 294, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "reboot": 142, "swapon": 224, "swapoff": 225, "acct": 89, "quotactl": 60,
        "quotactl_fd": 443, "syslog": 116, "process_vm_readv": 270, "process_vm_writev": 271,
        "name_to_handle_at": 264, "open_by_handle_at": 265, "lookup_dcookie": 18,
        "fanotify_init": 262, "settimeofday": 170, "clock_settime": 112, "clock_adjtime": 266,
        "adjtimex": 171, "sethostname": 161, "setdomainname": 162, "vhangup": 58,
        "pidfd_getfd": 438, "kcmp": 272, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "nfsservctl": 42, "personality": 92, "preadv2": 286,
        "pwritev2": 287, "mincore": 232, "cachestat": 451, "madvise": 233, "fcntl": 25,
        "fadvise64": 223, "readahead": 213, "process_madvise": 440, "move_pages": 239,
        "migrate_pages": 238, "mbind": 235, "inotify_init1": 26, "inotify_add_watch": 27,
        "flock": 32, "pipe2": 59, "mq_open": 180, "memfd_create": 279, "memfd_secret": 447,
        "pidfd_open": 434, "sysinfo": 179,
    },
}  # fmt: skip
ARCHITECTURES = {"x86_64": AUDIT_ARCH_X86_64, "aarch64": AUDIT_ARCH_AARCH64}
MACHINE_NAMES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


class SeccompUnavailable(RuntimeError):
    """No filter can be built for this machine: the sandbox refuses to run without one."""


Instruction = tuple[int, int, int, int]


def _statement(code: int, k: int) -> Instruction:
    return (code, 0, 0, k)


def _jump(code: int, k: int, true: int, false: int) -> Instruction:
    if not (0 <= true <= 255 and 0 <= false <= 255):
        raise ValueError("a classic BPF jump reaches at most 255 instructions")
    return (code, true, false, k)


def _deny(error: int) -> Instruction:
    return _statement(_RET_K, SECCOMP_RET_ERRNO | error)


_ALLOW = _statement(_RET_K, SECCOMP_RET_ALLOW)


def _allow_only(number: int, argument: int, values: tuple[int, ...]) -> list[Instruction]:
    """Call ``number`` with argument ``argument`` (0-based) outside ``values``: EPERM."""
    body: list[Instruction] = [_statement(_LD_W_ABS, _ARG0 + 8 * argument)]
    for index, value in enumerate(values):
        # Matches jump to the ALLOW after the last comparison; the last miss falls to the deny.
        remaining = len(values) - index - 1
        body.append(_jump(_JEQ_K, value, remaining + 1, 0))
    body += [_deny(errno.EPERM), _ALLOW]
    # The A register now holds an argument, so every path of the block returns.
    return [_jump(_JEQ_K, number, 0, len(body)), *body]


def _refuse(number: int, argument: int, values: tuple[int, ...]) -> list[Instruction]:
    """Call ``number`` with argument ``argument`` (0-based) in ``values``: EPERM."""
    body: list[Instruction] = [_statement(_LD_W_ABS, _ARG0 + 8 * argument)]
    for index, value in enumerate(values):
        # Matches jump to the deny after the last comparison; the last miss falls to the ALLOW.
        remaining = len(values) - index - 1
        body.append(_jump(_JEQ_K, value, remaining + 1, 0))
    body += [_ALLOW, _deny(errno.EPERM)]
    return [_jump(_JEQ_K, number, 0, len(body)), *body]


def _clone_check(number: int) -> list[Instruction]:
    """``clone`` with any namespace flag or ``CLONE_PIDFD``: EPERM."""
    body = [
        _statement(_LD_W_ABS, _ARG0),
        _jump(_JSET_K, REFUSED_CLONE_FLAGS, 0, 1),
        _deny(errno.EPERM),
        _ALLOW,
    ]
    return [_jump(_JEQ_K, number, 0, len(body)), *body]


def _architecture_block(machine: str) -> list[Instruction]:
    numbers = SYSCALLS[machine]
    block: list[Instruction] = [_statement(_LD_W_ABS, _NR)]
    if machine == "x86_64":
        block += [_jump(_JGE_K, X32_SYSCALL_BIT, 0, 1), _deny(errno.EPERM)]
    block += [_jump(_JEQ_K, numbers["clone3"], 0, 1), _deny(errno.ENOSYS)]
    for name in DENIED:
        if name in numbers:
            block += [_jump(_JEQ_K, numbers[name], 0, 1), _deny(errno.EPERM)]
    # Each argument check returns on every path of its call, so the number is reloaded after it.
    block += _clone_check(numbers["clone"])
    block += [_statement(_LD_W_ABS, _NR), *_allow_only(numbers["madvise"], 2, ALLOWED_MADVICE)]
    block += [_statement(_LD_W_ABS, _NR), *_refuse(numbers["fcntl"], 1, REFUSED_FCNTL)]
    return [*block, _ALLOW]


def build_program(machines: Iterable[str] = ("x86_64", "aarch64")) -> list[Instruction]:
    """The whole filter: dispatch on the architecture, then that architecture's checks."""
    blocks = [(ARCHITECTURES[m], _architecture_block(m)) for m in machines]
    program: list[Instruction] = [_statement(_LD_W_ABS, _ARCH)]
    # One comparison per architecture; each jumps over the later comparisons, the kill and
    # the blocks before its own. No match falls through to the kill.
    skipped = 0
    for index, (arch, block) in enumerate(blocks):
        program.append(_jump(_JEQ_K, arch, len(blocks) - index + skipped, 0))
        skipped += len(block)
    program.append(_statement(_RET_K, SECCOMP_RET_KILL_PROCESS))
    for _, block in blocks:
        program += block
    return program


def compile_filter(machines: Iterable[str] = ("x86_64", "aarch64")) -> bytes:
    """The filter as the array of ``struct sock_filter`` that ``bwrap --seccomp`` reads."""
    return b"".join(struct.pack("=HBBI", *i) for i in build_program(machines))


def machine() -> str | None:
    """This machine's architecture as a key of :data:`SYSCALLS`, or ``None`` if it has none."""
    return MACHINE_NAMES.get(platform.machine().lower())


def filter_descriptor() -> int:
    """A fresh readable descriptor holding the compiled filter, at offset 0 (the caller passes it
    to bubblewrap and closes it).

    Raises:
        SeccompUnavailable: on an architecture the filter does not cover.
    """
    if machine() is None:
        raise SeccompUnavailable(
            f"no seccomp filter for the {platform.machine()} architecture (x86_64 and aarch64 "
            "have one)"
        )
    descriptor = os.memfd_create("gsm8k-seccomp", os.MFD_CLOEXEC)
    try:
        data = _COMPILED
        while data:
            data = data[os.write(descriptor, data) :]
        os.lseek(descriptor, 0, os.SEEK_SET)
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


_COMPILED = compile_filter()
