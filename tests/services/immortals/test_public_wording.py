"""An Immortal's War duel's public messages name the players and never say « vous »/"you": a seeded friend
duel (spells cast, a round the AI chose for a late player) and a practice duel, their challenge and its
answer and every post and edit of their boards and recaps, rendered in French and English
(tests/support/public_wording.py)."""

from __future__ import annotations

import re
from datetime import timedelta

from cogs.immortals.duel import ANSWER_BUTTONS, CHALLENGE
from cogs.shared.duels import answered, challenge_reply
from core.clock import ManualClock
from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.support.public_wording import channel_posts, findings

ALICE, BOB = 201, 202
GUILD, CHANNEL = 900, 901


async def play(
    services: ImmortalsServices, scheduler: Scheduler, clock: ManualClock, duel: DuelRow
) -> DuelRow:
    """Each human seat picks its first unit left with its first spell left; bob lets round 2's time run
    out, so the AI chooses for him."""
    while duel.status == "live":
        assert duel.state is not None
        state = duel.state
        (seat,) = duel.to_act()
        player = duel.seats[seat]
        if state.round == 2 and player == BOB:
            clock.advance(timedelta(minutes=3))
            await scheduler.run_due()
            duel = await services.duels.get(duel.id)
            continue
        assert player is not None
        fought = {r.fighters[seat].uid for r in state.history}
        place = next(i for i, u in enumerate(state.units[seat]) if u.uid not in fought)
        choice = await services.duels.controls(duel.id, player, guild=GUILD)
        spell = next((i for i, s in enumerate(choice.view.spells) if not s.used), None)
        duel = await services.duels.choose(duel.id, player, state.round, place, spell, guild=GUILD)
    return duel


async def test_a_friend_duel_and_a_practice_duel_name_the_players_in_both_languages(
    services: ImmortalsServices, db: Database, clock: ManualClock, scheduler: Scheduler
) -> None:
    challenge = await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c1")
    posted = [
        MessageSpec(content=Text.raw(challenge_reply(challenge, lang, CHALLENGE, ANSWER_BUTTONS)["content"]))
        for lang in ("fr", "en")
    ]
    duel = await services.duels.answer(challenge.id, BOB, True, guild=GUILD)
    posted += [MessageSpec(content=Text.raw(answered(duel, lang, CHALLENGE))) for lang in ("fr", "en")]
    friend = await play(services, scheduler, clock, duel)
    assert friend.notes  # a round the AI chose for bob
    practice = await play(
        services, scheduler, clock, await services.duels.practice(GUILD, CHANNEL, ALICE, key="p1")
    )
    assert friend.status == practice.status == "over"
    posts = await db.read(channel_posts)
    assert len(posts) >= 2 * 5  # each duel's first post and an edit per choice and fight
    text = "\n".join(str(p.to_json()) for p in posts)
    assert "immortals.duel.side_spell" in text  # fights with a spell were scanned
    assert "immortals.recap.line" in text  # and the recaps
    assert findings([*posted, *posts], [ALICE, BOB]) == []


def test_the_check_finds_a_you_and_a_mention_in_a_fields_name() -> None:
    """Negative control: the challenge's former wording and a mention in a field's name are reported."""
    former = {
        "fr": "{challenged}, {challenger} vous défie",
        "en": "{challenged}, {challenger} challenges you",
    }
    old = [MessageSpec(content=Text.raw(re.sub(r"\{(\w+)\}", f"<@{ALICE}>", t))) for t in former.values()]
    field = EmbedField(Text.raw(f"<@{BOB}> — 30"), Text.raw("•"))
    found = findings([*old, MessageSpec(embeds=(Embed(fields=(field,)),))], [ALICE, BOB])
    assert any("says 'vous'" in f for f in found)
    assert any("says 'you'" in f for f in found)
    assert any(f"field name shows <@{BOB}> raw" in f for f in found)
    assert f"player {BOB} is never named" in found
