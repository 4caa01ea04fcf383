"""A number in a stored message is grouped in the language it is finally read in."""

from __future__ import annotations

from discord_app.render import text
from services.infra.messages import MessageSpec, Number, Text


def test_a_number_survives_the_outbox_and_is_grouped_per_reader() -> None:
    spec = MessageSpec(content=Text("hoss.raffle.gold", {"amount": Number(15_100)}))
    stored = MessageSpec.from_json(spec.to_json())
    assert stored == spec
    assert text(stored.content, "fr") == "15\u202f100 or"
    assert text(stored.content, "en") == "15,100 gold"
