"""A player that is a program in any language, speaking JSON lines on its standard input
and output (docs/players.md, "The JSON-lines protocol"): each question is one line of JSON
(what the seat may know and the numbers it may answer), each answer one line, the number
(``68``) or an object with it (``{"action": 68}``)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time

from .base import PlayerError
from .view import Decision

LINE_LIMIT = 1 << 20
"""The longest answer line read (bytes): a program that writes more without a newline has
failed."""


class ProgramPlayer:
    """Runs ``command`` (split as a shell splits it, run without a shell) and asks it each
    question as a JSON line; an answer not in ``timeout`` seconds, a program that ends or
    a line that is no number is a :class:`~.base.PlayerError`. After a fault the program
    is ended, and started again at the next question."""

    def __init__(self, command: str, timeout: float | None = None) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:  # (an unclosed quote)
            raise ValueError(f"cannot read the command: {exc}") from None
        if not self.argv:
            raise ValueError("an exec: player needs a command")
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            try:
                self.process = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            except OSError as exc:
                raise PlayerError("crash", f"cannot run {self.argv[0]}: "
                                           f"{exc.strerror or exc}") from None
            self.buffer = b""
        return self.process

    def choose(self, decision: Decision) -> int:
        """Sends the question and reads the answer."""
        process = self._start()
        line = json.dumps({"type": "choose", **decision.view()}) + "\n"
        assert process.stdin is not None
        try:
            process.stdin.write(line.encode("utf-8"))
            process.stdin.flush()
        except OSError:
            self._fail()
            raise PlayerError("crash", self._ended()) from None
        answer = self._read_line()
        try:
            value = json.loads(answer)
        except ValueError:
            raise PlayerError("illegal", f"answered {answer[:60]!r}, not a number") from None
        if isinstance(value, dict):
            value = value.get("action")
        if not isinstance(value, int) or isinstance(value, bool):
            raise PlayerError("illegal", f"answered {answer[:60]!r}, not a number")
        return value

    def _read_line(self) -> str:
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = None if deadline is None else deadline - time.monotonic()
                if (left is not None and left <= 0) or not selector.select(left):
                    self._fail()
                    raise PlayerError("timeout", f"no answer in {self.timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._fail()
                    raise PlayerError("crash", self._ended())
                self.buffer += chunk
                if len(self.buffer) > LINE_LIMIT:
                    self._fail()
                    raise PlayerError("illegal", "an answer line longer than 1 MB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def _ended(self) -> str:
        process = self.process or self._last
        code = process.poll() if process is not None else None
        return f"the program ended (exit status {code})" if code is not None \
            else "the program closed its output"

    _last: subprocess.Popen[bytes] | None = None

    def _fail(self) -> None:
        """Ends the program after a fault (the next question starts it again)."""
        process = self.process
        if process is None:
            return
        self.process = None
        self._last = process
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        """Ends the program: its input is closed, and it is killed if it does not end."""
        process = self.process
        if process is None:
            return
        self.process = None
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
