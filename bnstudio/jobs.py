"""The one progress/cancellation protocol shared by every long computation (docs/architecture.md §2, §3.4–3.5).

A job reports through a :class:`Reporter`: ``begin(label, total)``, then ``iteration(info)`` once per
iteration (returning True asks the job to stop), then ``end()``. A job that is asked to stop raises
:class:`~bnstudio.errors.Cancelled` and changes nothing: jobs work on copies and return new objects.
The CLI prints from a reporter, the GUI's generic worker forwards it to Qt signals, tests record it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from bnstudio.errors import Cancelled


@dataclass(frozen=True)
class IterationInfo:
    """What a job reports once per iteration: its number, named objective values and elapsed seconds."""

    iteration: int
    objectives: dict[str, float] = field(default_factory=dict)
    elapsed: float = 0.0
    message: str = ""


class Reporter(Protocol):
    def begin(self, label: str, total: int | None) -> None: ...

    def iteration(self, info: IterationInfo) -> bool | None: ...

    def end(self) -> None: ...


class NullReporter:
    """Reports nowhere; stops only when :meth:`cancel` was called (from any thread)."""

    def __init__(self) -> None:
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def begin(self, label: str, total: int | None) -> None:
        pass

    def iteration(self, info: IterationInfo) -> bool:
        return self.cancelled

    def end(self) -> None:
        pass


class CallbackReporter(NullReporter):
    """Wraps a plain function ``fn(info) -> bool | None``; a truthy return value requests a stop."""

    def __init__(self, fn: Callable[[IterationInfo], Any]) -> None:
        super().__init__()
        self.fn = fn

    def iteration(self, info: IterationInfo) -> bool:
        return bool(self.fn(info)) or self.cancelled


class RecordingReporter(NullReporter):
    """Keeps every call (for tests and for the history shown after a run)."""

    def __init__(self, stop_after: int | None = None) -> None:
        super().__init__()
        self.stop_after = stop_after
        self.label: str | None = None
        self.infos: list[IterationInfo] = []
        self.ended = False

    def begin(self, label: str, total: int | None) -> None:
        self.label = label

    def iteration(self, info: IterationInfo) -> bool:
        self.infos.append(info)
        return self.cancelled or (self.stop_after is not None and len(self.infos) >= self.stop_after)

    def end(self) -> None:
        self.ended = True


class Progress:
    """A job's side of the protocol: times iterations and raises :class:`Cancelled` on request."""

    def __init__(self, reporter: Reporter | None, label: str, total: int | None = None) -> None:
        self.reporter = reporter or NullReporter()
        self.label = label
        self.start = time.perf_counter()
        self.reporter.begin(label, total)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def report(self, iteration: int, objectives: dict[str, float] | None = None, message: str = "") -> None:
        """Send one iteration; raise :class:`Cancelled` if the reporter asks to stop."""
        info = IterationInfo(iteration, dict(objectives or {}), self.elapsed, message)
        if self.reporter.iteration(info):
            self.reporter.end()
            raise Cancelled(f"{self.label} cancelled at iteration {iteration}")

    def done(self) -> None:
        self.reporter.end()
