"""Sharing one ``gsm8k-mcp`` among samples: programs take turns by session, and each session
has the program budget ``tools=python`` gives a sample.

Over streamable HTTP every sample of a run (and anyone else on the machine) reaches the same
server. Without turns, programs ran in arrival order on a shared thread pool: two samples
sending 16 slow programs each held every worker, and a third sample's ``print(2+3)`` waited
29.5 s of its 30 s call limit. Here a program runs only in one of a few slots (the machine's
cores), and a freed slot goes to the waiting session with the fewest programs running, the
one served longest ago first among equals: a session that sends one program waits for at most one
program of another to finish, however many the others queue.

A session's programs are also counted against :class:`~gsm8k.execution.budget.ProgramBudget`
(the per-sample budget of ``tools=python``): past it a call runs nothing and the model reads
why. Over stdio there is one session per server process, and the same rules apply to it.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable
from contextvars import ContextVar
from dataclasses import dataclass

import anyio

from gsm8k.execution.budget import DEFAULT_BUDGET, ProgramBudget

REMEMBERED_SESSIONS = 10_000
"""Sessions whose spending is kept (the least recently active are forgotten past this)."""
CONNECTION_KEY: ContextVar[str | None] = ContextVar("gsm8k_mcp_connection", default=None)
"""The session of an in-process connection (:mod:`gsm8k.mcp_tools.shared`), set where the
connection is made. The SDK's in-memory streams carry the sender's context with each message and
run its handler in it, so a call's handler reads the key of the connection it came in on."""


def default_slots() -> int:
    """Programs at once: one per core the server may use, at least two."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 2
    return max(2, cores)


class BudgetSpent(Exception):
    """The session has used its program budget."""


@dataclass
class _Spent:
    runs: int = 0
    seconds: float = 0.0


class FairRunner:
    """Slots for programs, handed out by session; one per server process, on its event loop."""

    def __init__(self, slots: int | None = None, budget: ProgramBudget = DEFAULT_BUDGET) -> None:
        self.slots = slots or default_slots()
        self.budget = budget
        self._free = self.slots
        self._running: dict[Hashable, int] = {}
        self._waiting: OrderedDict[Hashable, deque[anyio.Event]] = OrderedDict()
        self._last_served: dict[Hashable, int] = {}
        self._tick = 0
        self._spent: OrderedDict[Hashable, _Spent] = OrderedDict()

    @contextlib.asynccontextmanager
    async def program(self, session: Hashable, timeout_seconds: float) -> AsyncIterator[None]:
        """Reserve one run of at most ``timeout_seconds`` against ``session``'s budget, wait for
        its turn, and hold a slot while the block runs; what it really used is kept.

        Raises:
            BudgetSpent: when the budget cannot cover another run (nothing runs).
        """
        spent = self._reserve(session, timeout_seconds)
        await self._acquire(session)
        started = time.monotonic()
        try:
            yield
        finally:
            # The reservation assumed the whole limit; keep what the program really used.
            spent.seconds += min(time.monotonic() - started, timeout_seconds) - timeout_seconds
            self._release(session)

    def _reserve(self, session: Hashable, timeout_seconds: float) -> _Spent:
        spent = self._spent.pop(session, None) or _Spent()
        self._spent[session] = spent  # most recently used last
        while len(self._spent) > REMEMBERED_SESSIONS:
            self._spent.popitem(last=False)  # sessions long gone
        budget = self.budget
        if spent.runs >= budget.runs or spent.seconds + timeout_seconds > budget.seconds:
            raise BudgetSpent(
                f"the program budget for this question is spent ({spent.runs} programs, "
                f"{spent.seconds:.0f} s used; at most {budget.runs} programs and "
                f"{budget.seconds:g} s): no more programs will run, answer with what you have."
            )
        spent.runs += 1
        spent.seconds += timeout_seconds
        return spent

    async def _acquire(self, session: Hashable) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
        else:
            turn = anyio.Event()
            self._waiting.setdefault(session, deque()).append(turn)
            try:
                await turn.wait()
            except BaseException:
                if turn.is_set():  # the slot was handed over as the wait was cancelled
                    self._granted(session)
                    self._release(session)
                else:
                    self._unqueue(session, turn)
                raise
        self._granted(session)

    def _granted(self, session: Hashable) -> None:
        self._running[session] = self._running.get(session, 0) + 1
        self._tick += 1
        self._last_served[session] = self._tick

    def _unqueue(self, session: Hashable, turn: anyio.Event) -> None:
        queue = self._waiting.get(session)
        if queue is not None:
            with contextlib.suppress(ValueError):
                queue.remove(turn)
            if not queue:
                del self._waiting[session]

    def _release(self, session: Hashable) -> None:
        running = self._running.get(session, 1) - 1
        if running > 0:
            self._running[session] = running
        else:
            self._running.pop(session, None)
            if session not in self._waiting:
                self._last_served.pop(session, None)
        if not self._waiting:
            self._free += 1
            return
        # The waiting session with the fewest programs running; among equals, the one served
        # longest ago (a session that has not run anything yet first).
        chosen = min(
            self._waiting,
            key=lambda key: (self._running.get(key, 0), self._last_served.get(key, -1)),
        )
        queue = self._waiting.pop(chosen)
        turn = queue.popleft()
        if queue:
            self._waiting[chosen] = queue
        turn.set()
