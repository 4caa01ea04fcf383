"""/hoss labo as a player sees it through Discord: the figures of a rank, the cards that go with winning
and how they are computed, the chart; nothing paid or taken; then the cooldown's refusal, in French."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from sandbox.harness import BotHarness
from store.connection import Connection
from tests.e2e.hoss.helpers import with_deck
from tests.e2e.messages import plain, shown

pytestmark = pytest.mark.usefixtures("no_pacing")


async def books(h: BotHarness) -> dict[str, list[tuple[Any, ...]]]:
    assert h.bot is not None
    tables = ("ledger", "wallets", "cards", "matches", "outbox")

    def unit(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}

    return await h.bot.services.db.read(unit)


async def test_a_lab_answers_with_its_figures_and_chart_and_pays_nothing(harness: BotHarness) -> None:
    assert harness.bot is not None
    harness.bot.services.lab.battles = 40  # a lean batch, on the bot's real worker processes
    # the workers start at a lower priority than this process: slowly while the suite holds the cores
    harness.emu.action_timeout = 60.0
    alice = harness.user("alice")
    await with_deck(harness, alice)
    before = await books(harness)
    await harness.emu.run_command(alice, "hoss labo", {"rang": 2})
    await harness.settle()
    answers = [m for m in harness.emu.ephemeral_messages(alice) if m.embeds]
    assert len(answers) == 1
    answer = answers[0]
    text = plain(shown(answer))
    assert "Labo HOSS TCG : votre deck actif" in text
    assert "40 combats contre l'IA" in text
    assert "Rang 2: Victoires : " in text
    assert "intervalle de confiance à 95 % : " in text
    assert "Durée moyenne en manches : " in text
    assert "Les cartes qui vont le plus avec la victoire" in text
    assert "C'est une corrélation, pas une cause" in text
    assert "main de départ" in text
    chart = next(a for a in answer.attachments if a.filename == "labo.png")
    image = Image.open(io.BytesIO(chart.data))
    assert image.format == "PNG"
    assert "R2 : " in plain(image.info.get("Description") or "")
    assert await books(harness) == before

    again = await harness.emu.run_command(alice, "hoss labo")
    assert again.message is not None
    assert "Le labo se recharge : réessayez dans 30 s." in plain(shown(again.message))
