"""A Dinocard battle's public message names its players and never says « vous »/"you": a seeded challenge
watched step by step and a dojo fight shown all at once, every public spec (the clicks' edits and the
outbox's posts and timed edits) rendered in French and English (tests/support/public_wording.py)."""

from __future__ import annotations

from datetime import timedelta

from core.clock import ManualClock
from engine.dinocard import DinocardCatalog
from services.dinocard import DinocardServices
from services.dinocard.results import MATCHES
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from store.db import Database
from tests.services.dinocard.conftest import ALICE, BOB, element_pack, fire_pack
from tests.support.public_wording import channel_posts, findings

GUILD, CHANNEL = 900, 901


async def test_a_watched_challenge_and_a_dojo_fight_name_the_players_in_both_languages(
    dino: DinocardServices, db: Database, clock: ManualClock, catalog: DinocardCatalog
) -> None:
    mine = await dino.packs.create(ALICE, "Feu", fire_pack(catalog))
    theirs = await dino.packs.create(BOB, "Eau", element_pack(catalog, "eau"))
    clock.advance(timedelta(days=1))
    match = await dino.battles.launch(
        ALICE, mine.pack.id, theirs.pack.id, (), guild=GUILD, channel=CHANNEL, key="k1"
    )
    shown: list[MessageSpec] = []
    while (match := await db.read(lambda conn: MATCHES.load_trusted(conn, match.id))).status == "live":
        shown.append(await dino.battles.advance(match.id, ALICE, match.version, "step", guild=GUILD))
    assert len(shown) > 10
    dojo = await dino.battles.dojo(
        ALICE, "Feu", catalog.masters[0].id, guild=GUILD, channel=CHANNEL, key="d1"
    )
    shown.append(await dino.battles.advance(dojo.id, ALICE, dojo.version, "all", guild=GUILD))
    posts = await db.read(channel_posts)
    assert len(posts) > 3  # the two battles' first posts and the dojo's timed edits
    assert findings([*shown, *posts], [ALICE, BOB]) == []
    for last in (shown[-2], posts[-1]):  # the challenge's last step, the dojo's last timed edit
        assert any(f.name.key == "dinocard.battle.result" for f in last.embeds[0].fields)  # results scanned


def test_the_check_finds_a_you_and_a_mention_in_a_fields_name() -> None:
    """Negative control: the private notice's « Votre pack » and a mention in a field's name are reported,
    and a player named only there counts as not named."""
    notice = Text(
        "dinocard.notice.defence_held",
        {"pack": "Eau", "challenger": f"<@{ALICE}>", "attacker": "Feu", "number": 1},
    )
    field = EmbedField(Text("dinocard.battle.side_name", {"name": f"<@{BOB}>", "level": 1}), Text.raw("—"))
    spec = MessageSpec(content=notice, embeds=(Embed(fields=(field,)),))
    found = findings([spec], [ALICE, BOB])
    assert any("content says 'Votre'" in f for f in found)
    assert any("content says 'Your'" in f for f in found)
    assert any(f"field name shows <@{BOB}> raw" in f for f in found)
    assert f"player {BOB} is never named" in found
