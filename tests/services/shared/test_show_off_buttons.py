"""The buttons under a purchase (services/shared/showoff.py): one per qualifying pulled copy, in the order
pulled, each naming its copy; never more than a Discord message holds."""

from __future__ import annotations

from engine.cards import CardBase, LocalizedText
from services.infra.messages import Text, render_text
from services.shared.shop import MintedCard
from services.shared.showoff import MAX_BUTTONS, show_off_buttons


def card(n: int) -> CardBase:
    return CardBase(id=f"c{n}", name=LocalizedText(fr=f"Carte {n}", en=f"Card {n}"))


def rare_if_even(c: CardBase) -> Text | None:
    return Text.raw("Or") if int(c.id[1:]) % 2 == 0 else None


def test_one_button_per_qualifying_copy_in_pull_order() -> None:
    pulled = [MintedCard(100 + n, card(n)) for n in range(5)]
    buttons = show_off_buttons("game", pulled, rare_if_even)
    assert [b.custom_id for b in buttons] == ["showoff:game:100", "showoff:game:102", "showoff:game:104"]
    assert render_text(buttons[0].label, "fr") == "Montrer\u00a0: Carte 0"
    assert render_text(buttons[1].label, "en") == "Show off: Card 2"


def test_no_more_buttons_than_a_message_holds() -> None:
    pulled = [MintedCard(n, card(2 * n)) for n in range(MAX_BUTTONS + 5)]
    buttons = show_off_buttons("game", pulled, rare_if_even)
    assert len(buttons) == MAX_BUTTONS == 25
    assert buttons[-1].custom_id == f"showoff:game:{MAX_BUTTONS - 1}"
