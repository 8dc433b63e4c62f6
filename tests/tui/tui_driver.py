"""Driving the real ``folkcards`` command in a pseudo-terminal, as a person would.

:class:`Terminal` starts the command on a pty (so ``rich`` sees a colour terminal and
``input()`` reads from a tty), reads its output until a prompt (every prompt ends with
``> ``), and types lines. A generous per-read limit only guards against a hang; no test
asserts anything about time.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

HERE = Path(__file__).parent
TOY_CLI = HERE / "toy_cli.py"
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]")
PROMPT_END = "> "
HANG_GUARD = 120.0
CHOICE = re.compile(r"^\s*(\d+)\) (.+?)\s*$")


def plain(text: str) -> str:
    """Output without terminal control sequences, with Unix line ends."""
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "")


def command(args: list[str], toy: bool = False) -> list[str]:
    """The argv of the real command (``python -m folkcards.cli``), or with the toy game."""
    if toy:
        return [sys.executable, str(TOY_CLI), *args]
    return [sys.executable, "-m", "folkcards.cli", *args]


def env(rows: int = 50, cols: int = 120, encoding: str = "utf-8") -> dict[str, str]:
    """The command's environment: a colour terminal of ``rows`` × ``cols``, UTF-8 unless
    ``encoding`` says otherwise."""
    e = dict(os.environ)
    e.update(
        {
            "TERM": "xterm-256color",
            "COLUMNS": str(cols),
            "LINES": str(rows),
            "PYTHONIOENCODING": encoding,
        }
    )
    e.pop("NO_COLOR", None)
    return e


def _default_sigint() -> None:
    """In the command's process before it starts: Ctrl-C interrupts, as at a person's
    terminal, even when the tests themselves were started as a background job (a shell
    starts those with SIGINT ignored, and an ignored signal stays ignored across exec)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """One run of the command on a pseudo-terminal."""

    def __init__(
        self,
        args: list[str],
        toy: bool = False,
        rows: int = 50,
        cols: int = 120,
        encoding: str = "utf-8",
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            command(args, toy),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env(rows, cols, encoding),
            close_fds=True,
            preexec_fn=_default_sigint,
        )
        os.close(slave)
        self.fd = master
        self.raw = ""
        self.mark = 0
        self.closed = False

    def read_prompt(self) -> str:
        """Raw output up to the next prompt (or to the end); '' once the command has ended."""
        deadline = time.monotonic() + HANG_GUARD
        while not self.closed:
            if plain(self.raw[self.mark :]).endswith(PROMPT_END):
                break
            if time.monotonic() > deadline:
                raise AssertionError("no prompt: " + plain(self.raw[self.mark :])[-2000:])
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.closed = True
                break
            self.raw += data.decode("utf-8", "replace")
        out = self.raw[self.mark :]
        self.mark = len(self.raw)
        return out

    def send(self, line: str) -> None:
        """Type a line and Enter."""
        os.write(self.fd, (line + "\r").encode())

    def interrupt(self) -> None:
        """Ctrl-C (SIGINT) to the command, once it waits at its prompt (a signal that lands
        between printing the prompt and reading would race with the terminal's own echo)."""
        time.sleep(0.5)
        self.proc.send_signal(signal.SIGINT)

    def finish(self) -> int:
        """Read to the end and return the exit status."""
        while not self.closed:
            self.read_prompt()
            if not self.closed:
                raise AssertionError("unexpected prompt: " + plain(self.raw)[-1500:])
        code = self.proc.wait(timeout=HANG_GUARD)
        os.close(self.fd)
        return code

    def kill(self) -> None:
        """Stop the command if it still runs (test clean-up)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.closed:
            self.closed = True
            os.close(self.fd)

    @property
    def transcript(self) -> str:
        """Everything shown so far, as plain text."""
        return plain(self.raw)


def choices(screen: str) -> list[str]:
    """The numbered menu entries drawn on a screen (plain text), in order: actions, or
    families such as ``bid 50–440 in steps of 5`` and ``deal to CARD``."""
    found: dict[int, str] = {}
    text = plain(screen)
    text = text[text.rfind("Your choices") :]
    for line in text.split("\n")[1:]:
        if line.endswith(PROMPT_END):
            break
        for m in re.finditer(r"(?:^|\s)#?(\d+)\) (\S+(?: \S+)*?)(?=\s{2,}|\s*$)", line):
            found[int(m.group(1))] = m.group(2)
    return [found[i] for i in sorted(found)]


def numeric_menu(screen: str) -> bool:
    """True when the menu's positions are typed ``#n`` (a plain number is a bid)."""
    text = plain(screen)
    return bool(re.search(r"(?:^|\s)#1\) ", text[text.rfind("Your choices") :]))


def last_screen(output: str) -> list[str]:
    """The lines of the last table drawn, from the panel's top to the prompt."""
    lines = plain(output).rstrip("\n").split("\n")
    tops = [i for i, ln in enumerate(lines) if ln.startswith(("╭", "+-"))]
    assert tops, "no table drawn"
    return lines[tops[-1] :]


def hand_line(screen: str) -> list[str]:
    """The cards of the last 'Your hand:' line of a screen."""
    lines = [ln for ln in plain(screen).split("\n") if "Your hand:" in ln]
    assert lines, "no hand drawn"
    text = lines[-1].split("Your hand:", 1)[1]
    text = text.split("[")[0].replace("│", " ").replace("|", " ")
    return [t.rstrip("*") for t in text.split() if re.fullmatch(r"[AKQJT98765432][CSHD]\*?", t)]


def marked_cards(screen: str) -> list[str]:
    """The cards of the last 'Your hand:' line marked ``*`` (received this deal)."""
    lines = [ln for ln in plain(screen).split("\n") if "Your hand:" in ln]
    assert lines, "no hand drawn"
    return re.findall(r"([AKQJT98765432][CSHD])\*", lines[-1])
