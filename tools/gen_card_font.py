"""Generate data/fonts/: the font the card images write with, DejaVu Sans Condensed (regular and bold),
cut down to the characters a card may show, and its licence.

DejaVu holds every French glyph (Œ œ « » ’ … and the narrow no-break space U+202F) and the signs the
cards use (★ ☆ × • – —); the condensed cut fits a card's text at a larger size. The source is the npm
package `dejavu-fonts-ttf`, pinned by version and integrity; the subset keeps the ranges of
`services/community/card_images/glyphs.py` (Latin-1, Latin Extended-A, the general punctuation, those
signs): about 45 KB a style instead of 700. Needs fontTools (`pip install fonttools==4.68.0`) and npm;
run from the repository root: `python tools/gen_card_font.py [--tarball dejavu-fonts-ttf-2.37.3.tgz]`.
The output is checked in.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fontTools import subset  # noqa: E402

from services.community.card_images.glyphs import RANGES  # noqa: E402
from tools.npm_package import NpmPackage, unpacked  # noqa: E402

PACKAGE = NpmPackage(
    "dejavu-fonts-ttf",
    "2.37.3",
    "sha512-f1hd7jJbeQa1VWcw+K2KrTXS50zTMaHpVC4XIKJpNcDeYR5ajMtj/iLlQDYNvLOKamUB3ARVVCf79lNwNVztSQ==",
)
STYLES = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")
OUT = ROOT / "data" / "fonts"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tarball", type=Path, help="the package's tarball, already packed")
    args = parser.parse_args()
    unicodes = [c for low, high in RANGES for c in range(low, high + 1)]
    OUT.mkdir(parents=True, exist_ok=True)
    with unpacked(PACKAGE, args.tarball) as package:
        for style in STYLES:
            options = subset.Options()
            options.name_IDs = ["*"]  # keep the copyright and licence names
            options.notdef_outline = True
            font = subset.load_font(str(package / "ttf" / style), options)
            subsetter = subset.Subsetter(options)
            subsetter.populate(unicodes=unicodes)
            subsetter.subset(font)
            subset.save_font(font, str(OUT / style), options)
            print(f"{OUT / style}: {(OUT / style).stat().st_size // 1024} KB")
        shutil.copyfile(package / "LICENSE", OUT / "LICENSE")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
