"""Generate data/art/icons.json: the game-icons.net icons the cards use, each with its author and licence.

The icons are the npm package `@iconify-json/game-icons` (one JSON of every icon's SVG path), pinned by
version and integrity; only those the artwork names are kept: every `figure`, `motif`, `icon` and
`emblems` of data/art/<game>.json, and the scenes' backdrops
(`services.community.card_images.artwork`). The package credits "GameIcons" as a whole;
each icon's author is the folder holding it in the game-icons/icons repository, read at a pinned commit
from a clone of it (`--authors`), and matched by its path data where two authors have an icon of that
name. Icons by Viscious Speed and Zeromancer are CC0 (the repository's license.txt), the others CC BY
3.0 (data/art/LICENSE-CC-BY-3.0.txt).

Run from the repository root with the project's Python and npm:
`.venv/bin/python tools/gen_card_icons.py --authors path/to/game-icons-icons [--tarball game-icons-1.2.4.tgz]`.
The output is checked in; the bot and its tests read it and need neither npm nor the network.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from services.community.card_images import artwork  # noqa: E402
from tools.npm_package import NpmPackage, unpacked  # noqa: E402

PACKAGE = NpmPackage(
    "@iconify-json/game-icons",
    "1.2.4",
    "sha512-/HDDZxowXgDJcOEwPspUCq5RuDdl25OyZKdtxqqiPJQNTrWIym7r4StLzIVs77DyNzOWWhH5wDqwYR3WHeDfkg==",
)
AUTHORS_COMMIT = "b659ba7773ed6ad1e1fee228b089f7104bea4984"  # game-icons/icons, 4 May 2025
CC0 = {"viscious-speed", "zeromancer"}
# Folders whose name is not their author's as license.txt writes it.
FOLDER_NAMES = {"badges": "Delapouite", "heavenly-dog": "HeavenlyDog", "lucasms": "Lucas"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def wanted() -> set[str]:
    names = {scene.backdrop for scene in artwork.SCENES.values()} | {artwork.NEUTRAL.backdrop}
    for path in sorted(artwork.ART_DIR.glob("*.json")):
        if path.name == artwork.ICONS_FILE.name:
            continue
        game = artwork.GameArtwork.model_validate_json(path.read_text("utf-8"))
        names |= {game.icon, *game.emblems.values()}
        names |= {name for card in game.cards.values() for name in (card.figure, card.motif)}
    return names


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def _numbers(path: str, count: int = 2) -> list[float]:
    return [float(n) for n in _NUMBER.findall(path)[:count]]


def authors(repo: Path, names: set[str], paths: dict[str, str]) -> dict[str, str]:
    """Each icon's author folder at the pinned commit; an icon in two folders goes to the one whose
    path data starts at the same point as the package's (its first move: the package rewrites
    the rest of a path, curves as arcs)."""
    folders: dict[str, list[str]] = {}
    for line in _git(repo, "ls-tree", "-r", "--name-only", AUTHORS_COMMIT).splitlines():
        parts = line.split("/")
        if len(parts) == 2 and parts[1].endswith(".svg"):
            folders.setdefault(parts[1][:-4], []).append(parts[0])
    found: dict[str, str] = {}
    for name in sorted(names):
        candidates = folders.get(name, [])
        if len(candidates) > 1:
            wanted_numbers = _numbers(paths[name])
            candidates = [
                folder
                for folder in candidates
                if _numbers(
                    _git(repo, "show", f"{AUTHORS_COMMIT}:{folder}/{name}.svg").split('fill="#fff"')[-1]
                )
                == wanted_numbers
            ]
        if len(candidates) != 1:
            raise SystemExit(f"{name}: no single author at {AUTHORS_COMMIT[:10]} ({candidates})")
        found[name] = candidates[0]
    return found


def author_names(repo: Path) -> dict[str, tuple[str, str]]:
    """Folder -> (name, address) from the repository's license.txt ("- Lorc, http://...")."""
    named: dict[str, tuple[str, str]] = {}
    for line in _git(repo, "show", f"{AUTHORS_COMMIT}:license.txt").splitlines():
        if not line.startswith("- "):
            continue
        entry = line[2:].split(" - ")[0]  # "- Zeromancer - CC0"
        name, _, rest = entry.partition(",")
        address = rest.strip()
        named[re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")] = (name.strip(), address)
    for folder, name in FOLDER_NAMES.items():
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        named[folder] = named.get(slug, (name, ""))
    return named


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--authors", type=Path, required=True, help="a clone of game-icons/icons")
    parser.add_argument("--tarball", type=Path, help="the package's tarball, already packed")
    args = parser.parse_args()
    names = wanted()
    with unpacked(PACKAGE, args.tarball) as package:
        data = json.loads((package / "icons.json").read_text("utf-8"))
    missing = sorted(n for n in names if n not in data["icons"])
    if missing:
        raise SystemExit(f"not in {PACKAGE.spec}: {', '.join(missing)}")
    paths = {n: data["icons"][n]["body"].split(' d="')[1].split('"')[0] for n in names}
    by_icon = authors(args.authors, names, paths)
    people = author_names(args.authors)
    used = sorted(set(by_icon.values()))
    unnamed = [folder for folder in used if folder not in people]
    if unnamed:
        raise SystemExit(f"authors without a name in license.txt: {unnamed}")
    out = {
        "source": {
            "package": PACKAGE.spec,
            "integrity": PACKAGE.integrity,
            "authors": f"github.com/game-icons/icons at {AUTHORS_COMMIT}",
            "site": "https://game-icons.net",
        },
        "authors": {
            folder: {
                "name": people[folder][0],
                "url": people[folder][1],
                "licence": "CC0 1.0" if folder in CC0 else "CC BY 3.0",
            }
            for folder in used
        },
        "icons": {name: {"author": by_icon[name], "path": paths[name]} for name in sorted(names)},
    }
    target = artwork.ICONS_FILE
    target.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"{target.relative_to(ROOT)}: {len(names)} icons by {len(used)} authors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
