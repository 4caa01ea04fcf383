"""Refresh the emulator's copy of Discord's OpenAPI description (emulator/api_schema.py).

    python -m tools.discord_spec <commit> [--from openapi.json]

Downloads `specs/openapi.json` of github.com/discord/discord-api-spec at `<commit>` (or copies a file of
that commit already at hand with `--from`), writes it to `emulator/spec/discord-openapi.json` and the
commit to `emulator/spec/SOURCE.md`. Pinned by commit: the document changes with every Discord release,
and a refresh is a change to review (run the end-to-end suites after it).
"""

from __future__ import annotations

import argparse
import json
import re
import urllib.request
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent.parent / "emulator" / "spec"
TARGET = SPEC_DIR / "discord-openapi.json"
SOURCE = SPEC_DIR / "SOURCE.md"
RAW = "https://raw.githubusercontent.com/discord/discord-api-spec/{commit}/specs/openapi.json"
COMMIT_LINE = re.compile(r"^Commit: `[0-9a-f]{40}`$", re.MULTILINE)


def fetch(commit: str, local: Path | None) -> bytes:
    if local is not None:
        return local.read_bytes()
    with urllib.request.urlopen(RAW.format(commit=commit), timeout=60) as response:
        data: bytes = response.read()
        return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the 40-hex commit of discord/discord-api-spec")
    parser.add_argument("--from", dest="local", type=Path, help="a copy of specs/openapi.json at that commit")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[0-9a-f]{40}", args.commit):
        parser.error("the commit must be 40 lowercase hex digits")
    data = fetch(args.commit, args.local)
    document = json.loads(data)
    if document.get("openapi", "").split(".")[0] != "3":
        parser.error("not an OpenAPI 3 document")
    TARGET.write_bytes(data)
    SOURCE.write_text(
        COMMIT_LINE.sub(f"Commit: `{args.commit}`", SOURCE.read_text(encoding="utf-8")), encoding="utf-8"
    )
    print(f"{TARGET.name}: {len(document['paths'])} paths, {len(document['components']['schemas'])} schemas")


if __name__ == "__main__":
    main()
