"""A pinned npm package unpacked in a temporary folder, for the tools that build data files from one
(tools/gen_card_font.py, tools/gen_card_icons.py).

`npm pack NAME@VERSION` downloads the package's tarball; its SHA-512 must be the integrity the tool pins
(the registry's `dist.integrity`), so a regenerated file comes from the very bytes it was made from the
first time. Only these tools use npm: the bot, its tests and CI read the files they produced.
"""

from __future__ import annotations

import base64
import hashlib
import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NpmPackage:
    name: str
    version: str
    integrity: str  # "sha512-<base64>", as `npm view NAME@VERSION dist.integrity` prints it

    @property
    def spec(self) -> str:
        return f"{self.name}@{self.version}"


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


@contextmanager
def unpacked(package: NpmPackage, tarball: Path | None = None) -> Iterator[Path]:
    """The package's `package/` folder; `tarball` is a file already packed (else `npm pack` runs)."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        if tarball is None:
            name = (
                subprocess.run(
                    ["npm", "pack", "--silent", package.spec],
                    cwd=where,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            tarball = where / name
        data = tarball.read_bytes()
        if integrity(data) != package.integrity:
            raise SystemExit(f"{tarball.name}: not the pinned {package.spec} (integrity differs)")
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            archive.extractall(where / "x", filter="data")
        yield where / "x" / "package"
