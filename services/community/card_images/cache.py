"""Rendered cards on disk, one PNG per (game, card, rarity, stars, holo, language, layout version).

A file is written under a temporary name in the same folder and renamed over its final name
(`os.replace`, atomic on POSIX and Windows): a reader sees no file or a whole one, and two processes
rendering the same key at once both write complete files, the last rename winning with identical bytes.
A file cut short anyway (a machine crash before the data reached the disk) fails the PNG check on read
and is drawn again.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_END = b"IEND\xaeB`\x82"


def is_png(data: bytes) -> bool:
    """A whole PNG: its signature and its final IEND chunk (a torn write lacks the end)."""
    return data.startswith(PNG_SIGNATURE) and data.endswith(PNG_END)


class DiskCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, name: str) -> Path:
        return self.folder / name

    def get(self, name: str) -> bytes | None:
        try:
            data = self.path(name).read_bytes()
        except FileNotFoundError:
            return None
        return data if is_png(data) else None

    def put(self, name: str, data: bytes) -> None:
        target = self.path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".png", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
