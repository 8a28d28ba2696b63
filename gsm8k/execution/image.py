"""The read-only tree every bubblewrap sandbox runs on: in-memory copies of exactly what a program
needs, made once per evaluator process.

Binding host directories (``/usr``, the interpreter's prefix) into each sandbox shares their page
cache between sandboxes: which pages of a host file are in memory outlives a sandbox, and a later
one reads it back exactly, without timing, from its own counters (major page faults, blocks read
in ``getrusage`` or ``/proc/self/io``). An earlier red team passed notes from one sample to the
next that way. So the sandbox sees no host file at all. Its root is this image: a tmpfs holding
copies of the interpreter, its standard library (minus its test suite and GUI toolkits), the
shared libraries those load (their ``ldd`` closure, at the paths the loader looks for them), the
C.UTF-8 locale where the C library keeps it in a file, and the program packages under
:data:`~gsm8k.execution.packages.PACKAGES_ROOT`. Every page of a tmpfs
is in memory from the moment it is written and stays there (the image's own tmpfs is mounted
``noswap`` where the kernel has that option), so a sandbox cannot change which pages are resident
and reading them never costs a major fault or a block read, whatever ran before.

Where it lives: as root, a tmpfs of its own mounted on a fresh directory (then made read-only);
otherwise, or where mounting is refused (a container without ``CAP_SYS_ADMIN``), a fresh directory
on ``/dev/shm``. Without either there is no image and the sandbox counts as unavailable. The image
is removed when the evaluator exits; one left behind by an evaluator that crashed is removed by
the next one that builds an image.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import errno
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from gsm8k.execution.packages import PACKAGES_ROOT, Package

IMAGE_PREFIX = "gsm8k-runtime-"
"""Directory names are ``gsm8k-runtime-<pid>-<random>``: the pid tells whose image it is."""
SHARED_MEMORY = Path("/dev/shm")
IMAGE_BYTES = 1024 * 1024 * 1024
"""Upper bound on the image's own tmpfs (the copies take about 340 MB with numpy, scipy, sympy)."""
LEFT_OUT = frozenset(
    {"site-packages", "test", "tests", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3"}
)
"""Directories not copied: installed packages (the sandbox gets only its own), test suites and
GUI toolkits. ``site-packages`` appears as an empty directory."""
LEFT_OUT_PREFIXES = ("config-", "_tkinter")
"""The static library and build files (``config-3.11-x86_64-linux-gnu``), Tk's extension."""
LOCALE = Path("/usr/lib/locale/C.utf8")
"""The sandbox's ``LANG=C.UTF-8``: built into the C library since glibc 2.35, a directory before."""
MOUNT_POINTS = ("dev", "scratch")
"""Empty directories bubblewrap mounts the sandbox's own ``/dev`` and scratch on."""
_MS_RDONLY, _MS_REMOUNT, _MNT_DETACH = 1, 32, 2
_LDD_PATH = re.compile(r"(?:=>\s*)?(/\S+)\s+\(0x[0-9a-f]+\)")


class ImageUnavailable(RuntimeError):
    """No image can be made here: the sandbox refuses to run on host files instead."""


@dataclass(frozen=True)
class Image:
    """A built image: its root on the host and what it holds."""

    root: Path
    mounted: bool
    """A tmpfs of its own (root); else a directory on ``/dev/shm``."""
    files: int
    bytes: int
    seconds: float
    """How long making it took (once per evaluator process)."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _mount_tmpfs(target: Path) -> bool:
    """Mount a tmpfs of our own on ``target``; ``False`` where the kernel refuses."""
    libc = _libc()
    for options in (f"mode=0755,size={IMAGE_BYTES},noswap", f"mode=0755,size={IMAGE_BYTES}"):
        # noswap (Linux 6.4+) keeps the pages from ever being swapped out and faulted back in.
        if libc.mount(b"tmpfs", str(target).encode(), b"tmpfs", 0, options.encode()) == 0:
            return True
        if ctypes.get_errno() != errno.EINVAL:
            return False
    return False


def _remount_read_only(target: Path) -> None:
    libc = _libc()
    flags = _MS_REMOUNT | _MS_RDONLY
    if libc.mount(b"tmpfs", str(target).encode(), b"tmpfs", flags, None) != 0:
        raise ImageUnavailable(
            f"could not make the sandbox image {target} read-only: "
            f"{os.strerror(ctypes.get_errno())}"
        )


def _filesystem_type(path: Path) -> str | None:
    """The type of the filesystem ``path`` is on, from this process's mount table."""
    best, kind = "", None
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            fields = line.split()
            mount_point = fields[4].replace("\\040", " ")
            fstype = fields[fields.index("-") + 1]
            inside = str(path) == mount_point or str(path).startswith(mount_point.rstrip("/") + "/")
            if inside and len(mount_point) >= len(best):
                best, kind = mount_point, fstype
    return kind


def _remove(directory: Path) -> None:
    if os.path.ismount(directory):
        _libc().umount2(str(directory).encode(), _MNT_DETACH)
    shutil.rmtree(directory, ignore_errors=True)


def _sweep(parent: Path) -> None:
    """Remove images left by evaluators of this user that are no longer running."""
    pattern = re.compile(re.escape(IMAGE_PREFIX) + r"(\d+)-")
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            found = pattern.match(entry.name)
            if found is None or entry.is_symlink() or entry.stat().st_uid != os.geteuid():
                continue
            try:
                os.kill(int(found.group(1)), 0)
            except ProcessLookupError:
                _remove(entry)
            except PermissionError:
                pass  # alive, someone else's process


def sweep_orphaned_images() -> None:
    """Remove every image of this user whose evaluator has exited (a ``gsm8k-mcp`` server killed
    at a sample's time limit cannot remove its own); live ones are left alone."""
    for parent in (Path(tempfile.gettempdir()), SHARED_MEMORY):
        _sweep(parent)


def _location() -> tuple[Path, bool]:
    """A fresh empty directory on a tmpfs for the image, and whether it is a mount of our own."""
    prefix = f"{IMAGE_PREFIX}{os.getpid()}-"
    if os.geteuid() == 0:
        parent = Path(tempfile.gettempdir())
        _sweep(parent)
        directory = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        if _mount_tmpfs(directory):
            return directory, True
        directory.rmdir()
    if SHARED_MEMORY.is_dir() and _filesystem_type(SHARED_MEMORY) == "tmpfs":
        _sweep(SHARED_MEMORY)
        directory = Path(tempfile.mkdtemp(prefix=prefix, dir=SHARED_MEMORY))
        directory.chmod(0o755)  # the sandbox's own user id (root evaluators) must read it
        return directory, False
    raise ImageUnavailable(
        "there is no tmpfs to hold the sandbox's runtime (as root a tmpfs is mounted; "
        "otherwise /dev/shm must be a tmpfs)"
    )


def _inside(root: Path, host_path: str) -> Path:
    return root / host_path.lstrip("/")


def _directory(root: Path, host_path: str) -> Path:
    """``host_path``'s place in the image, with every missing parent made world-readable."""
    target = _inside(root, host_path)
    missing = [p for p in [target, *target.parents] if not p.exists() and p != root]
    for directory in reversed(missing):
        directory.mkdir(mode=0o755)
        directory.chmod(0o755)
    return target


def _mirror_links(root: Path, host_path: str) -> str:
    """Recreate in the image each symbolic link met on the way to ``host_path`` (``/lib`` ->
    ``usr/lib``), so that the sandbox finds it by the same name; return its real path."""
    current = "/"
    for part in Path(host_path).parts[1:]:
        candidate = os.path.join(current, part)
        if os.path.islink(candidate):
            link = os.readlink(candidate)
            placed = _inside(root, candidate)
            if not placed.is_symlink():
                _directory(root, os.path.dirname(candidate))
                placed.symlink_to(link)
            _mirror_links(root, os.path.normpath(os.path.join(current, link)))
            current = os.path.realpath(candidate)
        else:
            current = candidate
    return current


def _copy_file(root: Path, host_path: str) -> None:
    real = _mirror_links(root, host_path)
    target = _inside(root, real)
    if not target.exists():
        _directory(root, os.path.dirname(real))
        shutil.copy2(real, target)  # the modification time too: cached bytecode checks it


def _left_out(name: str) -> bool:
    return name in LEFT_OUT or name.startswith(LEFT_OUT_PREFIXES)


def _copy_tree(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` (symbolic links as links), without what :data:`LEFT_OUT`
    names."""
    for folder, directories, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(mode=0o755, exist_ok=True)
        here.chmod(0o755)
        for name in list(directories):
            if _left_out(name) or os.path.islink(os.path.join(folder, name)):
                directories.remove(name)
                if not _left_out(name):
                    (here / name).symlink_to(os.readlink(os.path.join(folder, name)))
        for name in files:
            path = os.path.join(folder, name)
            if _left_out(name):
                continue
            if os.path.islink(path):
                (here / name).symlink_to(os.readlink(path))
            else:
                shutil.copy2(path, here / name)


def shared_libraries(binaries: Iterable[str]) -> list[str]:
    """Every shared library (and the loader) ``binaries`` load, as the dynamic loader finds them."""
    binaries = list(binaries)
    if not binaries:
        return []
    listing = subprocess.run(
        ["ldd", *binaries],
        capture_output=True,
        text=True,
        timeout=120,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
    )
    if listing.returncode != 0 and not listing.stdout:
        message = listing.stderr[:300]
        raise ImageUnavailable(f"ldd could not list the runtime's libraries: {message}")
    return sorted(set(_LDD_PATH.findall(listing.stdout)))


def _extensions(directory: Path) -> list[str]:
    return [
        str(p)
        for p in directory.rglob("*.so*")
        if p.is_file()
        and not p.is_symlink()
        and not any(_left_out(q) for q in p.relative_to(directory).parts)
    ]


def _contents(root: Path) -> tuple[int, int]:
    files = size = 0
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                files += 1
                size += os.path.getsize(path)
    return files, size


def build(root: Path, executable: str, stdlib: str, packages: tuple[Package, ...]) -> None:
    """Fill the empty directory ``root`` with the runtime: the interpreter at its own path, its
    standard library, the packages under :data:`PACKAGES_ROOT`, their shared libraries."""
    root.chmod(0o755)
    _copy_file(root, executable)
    stdlib_copy = _directory(root, stdlib)
    _copy_tree(Path(stdlib), stdlib_copy)
    (stdlib_copy / "site-packages").mkdir(mode=0o755, exist_ok=True)
    binaries = [executable, *_extensions(Path(stdlib))]
    for package in packages:
        for directory in package.directories:
            destination = _directory(root, f"{PACKAGES_ROOT}/{directory.name}")
            _copy_tree(directory, destination)
            binaries += _extensions(directory)
    # Libraries inside the copied trees resolve there (numpy.libs through $ORIGIN).
    copied = (stdlib, *(str(d) for p in packages for d in p.directories))
    for library in shared_libraries(binaries):
        if not library.startswith(tuple(c.rstrip("/") + "/" for c in copied)):
            _copy_file(root, library)
    if LOCALE.is_dir():
        _copy_tree(LOCALE, _directory(root, str(LOCALE)))
    for name in MOUNT_POINTS:
        _directory(root, f"/{name}")


_LOCK = threading.Lock()
_BUILT: list[Image] = []
_ROOTS: list[Path] = []
"""Every image root this process made (built or being built), for :func:`remove_own_images`."""


def remove_own_images() -> None:
    """Remove this process's images now (on a termination signal, where ``atexit`` does not
    run); a sandbox still running on one keeps it until it ends (a lazy unmount)."""
    for root in list(_ROOTS):
        _remove(root)


def runtime_image(executable: str, stdlib: str, packages: tuple[Package, ...]) -> Image:
    """This process's image, made on first use (about a second or two), removed at exit.

    Raises:
        ImageUnavailable: where no tmpfs can hold it or its libraries cannot be listed.
    """
    with _LOCK:
        if _BUILT:
            return _BUILT[0]
        started = time.monotonic()
        root, mounted = _location()
        _ROOTS.append(root)
        atexit.register(_remove, root)
        try:
            build(root, executable, stdlib, packages)
            if mounted:
                _remount_read_only(root)
        except (OSError, subprocess.SubprocessError) as error:
            _remove(root)
            message = f"could not copy the sandbox's runtime into {root}: {error}"
            raise ImageUnavailable(message) from error
        except ImageUnavailable:
            _remove(root)
            raise
        files, size = _contents(root)
        image = Image(root, mounted, files, size, time.monotonic() - started)
        _BUILT.append(image)
        return image
