"""Run the ``folkcards`` command with the terminal tests' toy game registered."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import tui_toygame

tui_toygame.install()

from folkcards.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
