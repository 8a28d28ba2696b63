"""Each sample's ``{workdir}``: a fresh empty folder, and nothing of it left when the sample ends.

What is in the folder when the sample ends is whatever the server made, at the model's request:
a tree thousands of levels deep, a million files, folders it may not list. ``shutil.rmtree``
recurses once per level and raises ``RecursionError`` near 1,000 (the tree then stays on disk,
and the error used to end the eval); paths past ``PATH_MAX`` cannot be named from the top at all.
:func:`remove_tree` needs neither: it only ever looks one level below the folder, moving each
subfolder's entries up into the folder itself before removing the emptied subfolder, so its
work is one rename or unlink per entry, whatever the depth.

The sample's end also sweeps the sandbox runtime images (:mod:`gsm8k.execution.image`) of
``gsm8k-mcp`` processes that are gone: a server killed at a time limit has no chance to unmount
its own.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import AsyncIterator
from itertools import count

import anyio

from gsm8k.execution.image import sweep_orphaned_images

PREFIX = "gsm8k-mcp-"


@contextlib.asynccontextmanager
async def sample_workdir() -> AsyncIterator[str]:
    """A fresh empty folder, removed (off the event loop, even when the sample is cancelled)
    with everything in it when the block ends."""
    folder = tempfile.mkdtemp(prefix=PREFIX)
    try:
        yield folder
    finally:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(_clean_up, folder)


def _clean_up(folder: str) -> None:
    remove_tree(folder)
    sweep_orphaned_images()


def remove_tree(folder: str) -> None:
    """Remove ``folder`` and everything below it, at any depth, never following a symbolic
    link out of it. What cannot be removed (another user's file in it, a mount) is left and the
    rest is still removed; never raises for what the folder holds."""
    names = count()
    with contextlib.suppress(FileNotFoundError):
        _allow(folder)
    stalled = 0
    while stalled < 2:
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            return
        except OSError:
            break
        progress = False
        for entry in entries:
            progress |= _take_apart(folder, entry, names)
        if not entries:
            break
        stalled = 0 if progress else stalled + 1
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def _take_apart(folder: str, entry: os.DirEntry[str], names: count[int]) -> bool:
    """Unlink a file or link; for a folder, move what it holds up into ``folder`` and remove it.
    Returns whether anything changed."""
    try:
        if not entry.is_dir(follow_symlinks=False):
            os.unlink(entry.path)
            return True
        _allow(entry.path)
        inner = list(os.scandir(entry.path))
        if not inner:
            os.rmdir(entry.path)
            return True
        for child in inner:
            target = os.path.join(folder, f".{next(names)}")
            while os.path.lexists(target):
                target = os.path.join(folder, f".{next(names)}")
            os.rename(child.path, target)
        with contextlib.suppress(OSError):
            os.rmdir(entry.path)
        return True
    except OSError:
        return False


def _allow(path: str) -> None:
    """Let the owner list, enter and change ``path`` (a server may leave a folder mode 000)."""
    mode = os.lstat(path).st_mode
    wanted = stat.S_IRWXU
    if stat.S_ISDIR(mode) and mode & wanted != wanted:
        os.chmod(path, stat.S_IMODE(mode) | wanted)
