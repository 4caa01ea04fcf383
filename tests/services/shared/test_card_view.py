"""« Voir une carte » under a hand or a line-up: one option a card, named in each language, whose value
names the card and the copy drawn; a forged value is refused."""

from __future__ import annotations

import pytest

from core.errors import BadInput
from services.infra.catalogs import DATA_DIR, load_catalog
from services.infra.messages import CardStrip, StripCard, render_text
from services.pillz import GAME
from services.shared import card_view


def test_a_line_up_gets_one_option_a_character_in_each_language() -> None:
    assert GAME.catalog_model is not None
    catalog = load_catalog(DATA_DIR / "pillz.json", GAME.catalog_model)
    first, second = catalog.cards[:2]
    strip = CardStrip(
        "x.png",
        "pillz",
        (StripCard(first.id, None, 4), StripCard(second.id, None, 1), StripCard(first.id, None, 4)),
    )
    select = card_view.viewer(strip, catalog)
    assert select.custom_id == "cardview:pillz"
    assert [o.value for o in select.options] == [f"{first.id}||4|0", f"{second.id}||1|0"]
    assert [render_text(o.label, "fr") for o in select.options] == [first.name.fr, second.name.fr]
    assert [render_text(o.label, "en") for o in select.options] == [first.name.en, second.name.en]
    assert card_view.card_of(select.options[0].value) == StripCard(first.id, None, 4, False)


@pytest.mark.parametrize("value", ["", "merlin", "merlin|or|10|0", "MERLIN||0|0", "merlin||0|2", "a/b||0|0"])
def test_a_forged_value_is_refused(value: str) -> None:
    with pytest.raises(BadInput):
        card_view.card_of(value)
