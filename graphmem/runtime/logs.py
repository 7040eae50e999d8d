"""Reading the end of the runtime's log files for error messages."""

from __future__ import annotations

import os
from pathlib import Path

_TAIL_BYTES = 64 * 1024


def tail(path: Path, lines: int) -> str:
    """Return the last ``lines`` lines of a text file, or a note saying why it cannot be read."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - _TAIL_BYTES))
            data = handle.read()
    except OSError as e:
        return f"(cannot read {path}: {e})"
    return "\n".join(data.decode("utf-8", errors="replace").splitlines()[-lines:])
