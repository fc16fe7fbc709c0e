"""Running engine calls for the MCP server: in a worker thread, with progress, cancellation and one-line errors.

The engine is synchronous and one resident instance serves every request, so each call runs
in a worker thread (`anyio.to_thread`) while the event loop keeps serving other clients. The
first call opens the stores and loads the embedder (under a lock: once per process). Long
calls report progress to the client as MCP progress notifications, and a request the client
cancels sets the flag the engine polls (`cancelled`), so the model stops at its next token.
Errors the CLI would print as one line become a tool error with that very line.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from workbench.engine.engine import Engine
from workbench.errors import WorkbenchError, error_line, is_store_failure, one_line

T = TypeVar("T")
Report = Callable[[str], None]  # a progress message from the worker thread
TEXT_PROGRESS_EVERY_S = 0.5  # the synthesis streams a token at a time: tell the client at most this often


class LineError(ToolError):
    """A tool failure whose message is the one line the CLI prints (`workbench: ...`), sent as it is."""


def as_tool_error(exc: BaseException) -> LineError | None:
    """The tool error for an exception the CLI shows as one line (None: a bug, left to the SDK's handler)."""
    if isinstance(exc, WorkbenchError) or is_store_failure(exc) or isinstance(exc, RuntimeError):
        return LineError(error_line(exc))
    return None


def argument_error(exc: ValidationError) -> LineError:
    """Arguments that do not fit a tool's input schema, as one line naming the first one at fault."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return LineError(f"workbench: bad argument {where!r}: {one_line(Exception(first['msg']), 200)}{more}")


class EngineCalls:
    """One resident engine, called from worker threads; warmed once, on the first call."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._warm_lock = threading.Lock()
        self._warm = False

    def warm_up(self) -> None:
        """Open the stores and load the embedder, once (every call waits for the first warm-up to finish)."""
        with self._warm_lock:
            if not self._warm:
                self.engine.warm_up()
                self._warm = True

    def _checked(self, work: Callable[[], T]) -> T:
        try:
            self.warm_up()
            return work()
        except Exception as exc:
            error = as_tool_error(exc)
            if error is None:
                raise
            raise error from None

    async def run(self, work: Callable[[Engine], T]) -> T:
        """A short engine call in a worker thread."""
        return await anyio.to_thread.run_sync(lambda: self._checked(lambda: work(self.engine)))

    async def run_long(
        self, ctx: Context[Any, Any], work: Callable[[Engine, Report, Callable[[], bool]], T], first: str
    ) -> T:
        """A long engine call (ask, summarize): progress notifications, and cancellation passed to the engine.

        `work` gets the engine, a `report(message)` for progress and the `cancelled()` flag the
        engine polls. When the client cancels the request, the await is abandoned at once and
        the flag set, so the engine stops its model at the next token and records the answer as
        cancelled.
        """
        progress = _Progress(ctx)
        stop = threading.Event()
        await progress.send(first)

        def report(message: str) -> None:
            if stop.is_set():
                return
            try:
                anyio.from_thread.run(progress.send, message)
            except Exception:  # the request ended meanwhile: progress is best-effort, the answer is not
                return

        try:
            return await anyio.to_thread.run_sync(
                lambda: self._checked(lambda: work(self.engine, report, stop.is_set)), abandon_on_cancel=True
            )
        finally:
            stop.set()


class _Progress:
    """MCP progress notifications for one request: a rising count and a message."""

    def __init__(self, ctx: Context[Any, Any]) -> None:
        self.ctx = ctx
        self.count = 0

    async def send(self, message: str) -> None:
        self.count += 1
        await self.ctx.report_progress(self.count, None, message)


class TextProgress:
    """Turns the synthesis stream (`on_text`, a token at a time) into a progress message now and then."""

    def __init__(self, report: Report, what: str = "synthesis") -> None:
        self.report = report
        self.what = what
        self.chars = 0
        self.last = 0.0

    def __call__(self, text: str) -> None:
        self.chars += len(text)
        now = time.monotonic()
        if now - self.last >= TEXT_PROGRESS_EVERY_S:
            self.last = now
            self.report(f"{self.what}: the model has written {self.chars} characters")
