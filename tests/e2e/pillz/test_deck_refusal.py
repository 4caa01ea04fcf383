"""A duel refused because the active deck lost a character (given away in a trade), as players read it:
the character by its name in the reader's language, and how to mend the deck, never a catalog id or a
sentence in the other language; the opponent who accepts a challenge from that deck is told it cannot
play, not what it lacks."""

from __future__ import annotations

from emulator.world import User
from engine.cards import LocalizedText
from engine.pillz.catalog import PillzCatalog
from sandbox.harness import BotHarness
from tests.e2e.trades.authorization import GAME, members_for_long
from tests.fixtures import postgres


def catalog(h: BotHarness) -> PillzCatalog:
    assert h.bot is not None
    found = h.bot.services.cards.catalog(GAME)
    assert isinstance(found, PillzCatalog)
    return found


def first_copy(h: BotHarness, owner: User, but: str = "") -> tuple[int, str]:
    """A copy of the owner's starter deck, of another character than `but`: (copy id, catalog id)."""
    with postgres.connect(h.db_path) as conn:
        copy, key = conn.execute(
            "SELECT id, card_key FROM cards WHERE owner_id = ? AND game = ? AND card_key <> ? ORDER BY id",
            (owner.id, GAME, but),
        ).fetchone()
    return int(copy), str(key)


def name(h: BotHarness, card_id: str) -> LocalizedText:
    card = catalog(h).card(card_id)
    assert card is not None
    return card.name


async def practice(h: BotHarness, user: User, command: str) -> str:
    refused = await h.emu.run_command(user, command)
    assert refused.message is not None
    assert refused.message.ephemeral
    return str(refused.message.render())


async def give(
    h: BotHarness, giver: User, recipient: User, copy: int, command: str, options: dict[str, str]
) -> None:
    ready = await h.emu.run_command(
        giver, command, {options["player"]: recipient, options["game"]: GAME, options["card"]: f"#{copy}"}
    )
    assert ready.message is not None
    await h.emu.click(giver, options["confirm"], message=ready.message)
    await h.settle()


async def test_a_deck_broken_by_a_gift_is_refused_in_the_readers_words(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob", locale="en-US")
    members_for_long(h, alice, bob)
    for player in (alice, bob):
        await h.emu.run_command(player, "pillz collection")  # the starter deck, the active deck
    challenge = await h.emu.run_command(alice, "pillz défi", {"joueur": bob})  # while her deck is whole
    assert challenge.message is not None
    hers, her_key = first_copy(h, alice)
    his, his_key = first_copy(h, bob, but=her_key)  # alice must not get back what she gave
    french = {"player": "joueur", "game": "jeu", "card": "carte", "confirm": "Confirmer"}
    await give(h, alice, bob, hers, "cadeau", french)
    english = {"player": "player", "game": "game", "card": "card", "confirm": "Confirm"}
    await give(h, bob, alice, his, "gift", english)

    french_name, english_name = name(h, her_key).fr, name(h, his_key).en
    assert await practice(h, alice, "pillz entraînement") == (
        f"<@{alice.id}> n'a pas de deck actif jouable\u00a0:\n"
        f"Vous ne possédez plus {french_name}, qui est dans le deck de l'emplacement 1\u00a0: complétez-le avec"
        " `/pillz deck emplacement:1 personnages:…` (vos personnages\u00a0: `/pillz collection`).\n"
        "Ou activez-en un autre avec `/pillz deck` et l'option `activer`."
    )
    assert await practice(h, bob, "pillz practice") == (
        f"<@{bob.id}> has no playable active deck:\n"
        f"You no longer own {english_name}, which is in the deck in slot 1: complete it with"
        " `/pillz deck slot:1 characters:…` (your characters: `/pillz collection`).\n"
        "Or activate another one with `/pillz deck` and its `activate` option."
    )

    # bob accepts alice's earlier challenge: he is told her deck is not playable, not what it lacks
    accepted = await h.emu.click(bob, "Accepter", message=challenge.message)
    assert accepted.message is not None
    assert accepted.message.ephemeral
    assert accepted.message.render() == (
        f"<@{alice.id}> no longer has a playable deck: the duel cannot start until that deck is fixed."
        " The challenge stays open."
    )
