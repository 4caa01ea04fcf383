"""A copy's line in a collection page and an autocomplete choice (services/hoss/render/collection.py
`copy_line`): written in the reader's language, and written again whenever anything it shows changes
(the line is remembered per copy as it stands)."""

from __future__ import annotations

from engine.hoss.catalog import HossCatalog
from services.hoss.collection import OwnedCopy
from services.hoss.render.collection import copy_line
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.messages import render_text

CATALOG = load_catalog(DATA_DIR / "hoss.json", HossCatalog)
CARD = next(c for c in CATALOG.cards if c.id == "sq_guerrier_1")


def line(copy: OwnedCopy, locale: str, *, plain: bool = False) -> str:
    return render_text(copy_line(copy, locale, plain=plain), locale)


def test_a_line_is_written_in_the_readers_language_with_each_part_of_the_copy() -> None:
    copy = OwnedCopy(41, CARD, "argent", 2, False, False)
    fr, en = line(copy, "fr"), line(copy, "en")
    assert fr.startswith(f"`#41` **{CARD.name.get('fr')}** — Argent 2★ — ")
    assert en.startswith(f"`#41` **{CARD.name.get('en')}** — Silver 2★ — ")
    assert line(copy, "fr", plain=True).startswith(f"#41 {CARD.name.get('fr')} — Argent 2★")
    assert line(OwnedCopy(41, CARD, "argent", 2, False, True), "fr").endswith(" — verrouillée")


def test_a_line_changes_with_anything_it_shows() -> None:
    base = OwnedCopy(7, CARD, "or", 1, False, False)
    variants = [
        base,
        OwnedCopy(8, CARD, "or", 1, False, False),
        OwnedCopy(7, CARD, "or", 2, False, False),
        OwnedCopy(7, CARD, "platine", 1, False, False),
        OwnedCopy(7, CARD, "or", 1, True, False),
        OwnedCopy(7, CARD, "or", 1, False, True),
    ]
    for _ in range(2):  # written, then remembered: the same texts
        lines = [line(v, "fr") for v in variants]
        assert len(set(lines)) == len(variants)
    assert line(base, "fr") != line(base, "en")
