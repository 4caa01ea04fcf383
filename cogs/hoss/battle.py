"""Ranked battles on Discord: the ladder, the live battle message, the private decision controls, the
result with its log, the replay summary and the milestone notices.

The battle message is public (one per `/hoss rank` start or `/hoss battle`): both sides, PV bars,
statuses, synergies and the round's notable events, never the player's hand. Its "Décider" button opens
private controls (the hand, the legal actions) that only the player can use. The service renders the
message and, once it is shown here, the outbox edits it round by round (services/hoss/battle/edits.py):
this module only shows it, records it (`attach`) and answers its buttons.

| custom_id | what |
|---|---|
| `hoss:rstart:<owner>:<rank>` | start a battle at a playable rank (ladder) |
| `hoss:rdecide:<owner>:<battle>:<pause>` | open the private decision controls (battle message) |
| `hoss:rskip:<owner>:<battle>` | let the AI play the rest of the battle (battle message) |
| `hoss:ract:<owner>:<battle>:<pause>:<message>:<part>` (select of `<index>:<digest>`: `choices.py`) | one decision |
| `hoss:rpass:<owner>:<battle>:<pause>:<message>` | pass (play no card this round) |
| `hoss:rdef:<owner>:<battle>:<pause>:<message>` | « Défenseur »: open the select of the legal moves |
| `hoss:rmove:<owner>:<battle>:<pause>:<message>` (select of `<defender> <protégé>`) | move a Défenseur |
| `hoss:rguard:<owner>:<battle>` | « Défenseur » on the battle message, whenever the player has one in play |
| `hoss:rguardmove:<owner>:<battle>` (select of `<defender> <protégé>`) | move it: from the next round on |
| `hoss:notice:<owner>:<notice>` | OK on a milestone notice: its gold is credited |
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.hoss.lookup import hoss_of
from cogs.shared import rows
from cogs.shared.components import button, check_owner, reply
from core.errors import BadInput
from core.i18n import normalize_locale
from discord_app.callbacks import with_message
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import guild_locale, public_locale_of, services_of
from discord_app.permissions import BATTLE_MESSAGE, require_here
from discord_app.render import RenderedView, files_of, rows_of, text, to_discord
from engine.hoss import ChoosePath, HossAction, Move, Pass
from services.hoss.battle.choices import Choice, choice_value, parse_choice
from services.hoss.battle.edits import Shown
from services.hoss.battle.notices import Notice
from services.hoss.battle.ranked import BattleView, Ladder
from services.hoss.render.battle import action_label, name_of
from services.hoss.render.collection import gold
from services.hoss.render.ladder import ladder_spec
from services.hoss.render.notices import notice_text
from services.infra.messages import Button, MessageSpec, Select, SelectOption, Text

MAX_OPTIONS = 25


# --- the public message -----------------------------------------------------------------------------


async def public(interaction: discord.Interaction[Any], spec: MessageSpec) -> dict[str, Any]:
    """The battle message's arguments, in the server's language (/setup language): the outbox writes
    its later versions in that language too."""
    locale = await public_locale_of(interaction)
    kwargs = to_discord(spec, locale)
    if spec.attachments:
        kwargs["files"] = files_of(spec, locale)
    return kwargs


async def show_battle(interaction: discord.Interaction[Any], battle: int, shown: Shown) -> None:
    """Post the battle message as the interaction's response and hand it to the outbox's edits (its
    record rides with the writer's next commit: nothing more to wait for here)."""
    with with_message():
        response = await interaction.response.send_message(**await public(interaction, shown.spec))
    if response.message_id is not None and interaction.channel_id is not None:
        hoss_of(interaction).ranked.attach_soon(
            interaction.user.id,
            battle,
            interaction.channel_id,
            response.message_id,
            shown,
            interaction.guild_id,
        )


def board_kwargs(spec: MessageSpec, locale: str) -> dict[str, Any]:
    """A battle board's arguments for an edit: its files, when over, replace the message's."""
    kwargs = to_discord(spec, locale)
    if spec.attachments:
        kwargs["attachments"] = files_of(spec, locale)
    kwargs.setdefault("view", None)
    return kwargs


async def show_privately(interaction: discord.Interaction[Any], spec: MessageSpec, locale: str) -> None:
    """The battle board for its player only, in their language, with the same buttons as the channel's
    message (`/hoss combat`): the channel's message is not posted again."""
    kwargs = to_discord(spec, locale)
    if spec.attachments:
        kwargs["files"] = files_of(spec, locale)
    await interaction.response.send_message(**kwargs, ephemeral=True)


# --- the ladder ---------------------------------------------------------------------------------------


def ladder_reply(ladder: Ladder, owner: int, locale: str) -> dict[str, Any]:
    """The ladder with a « Combattre » button per playable rank, written as Discord's rows: the
    `StartButton` registered at start-up answers them."""
    spec = ladder_spec(ladder, locale)
    starts = [
        Button(Text("hoss.ladder.start", {"rank": s.name}), f"hoss:rstart:{owner}:{s.rank}", "primary")
        for s in ladder.ranks
        if s.playable
    ]
    return reply(spec, locale, RenderedView(rows_of(starts, locale)))


async def start_battle(interaction: discord.Interaction[Any], rank: int, locale: str) -> None:
    """Start at `rank` and post the public battle message in this channel."""
    require_here(interaction, BATTLE_MESSAGE)
    shown_in = normalize_locale(await public_locale_of(interaction))  # the message is drawn in it only
    started = await hoss_of(interaction).ranked.start(
        interaction.user.id, rank, key=interaction.id, guild=interaction.guild_id, locales=(shown_in,)
    )
    await show_battle(interaction, started.battle_id, started.message)


class StartButton(PersistentButton, template=r"hoss:rstart:(?P<owner>\d+):(?P<rank>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        await start_battle(interaction, int(self.match["rank"]), locale)


# --- the battle message's buttons ---------------------------------------------------------------------


def controls_reply(
    interaction: discord.Interaction[Any], view: BattleView, message_id: int, locale: str
) -> dict[str, Any]:
    """The private decision controls: the hand, a select of the legal actions, the « Défenseur » button
    when a Défenseur may move (at any step of the pause), and Pass when legal."""
    catalog = hoss_of(interaction).decks.catalog
    names = {uid: name_of(catalog, card, locale) for uid, card in view.cards.items()}
    for action in view.legal:
        if isinstance(action, ChoosePath):
            names[action.card] = name_of(catalog, action.card, locale)
    hand = ", ".join(names[uid] for uid in view.hand) or "—"
    spec = MessageSpec(content=Text("hoss.battle.controls", {"hand": hand}))
    items = controls_items(view, names, f"{interaction.user.id}:{view.battle_id}:{view.pause}:{message_id}")
    return reply(spec, locale, RenderedView(rows_of(items, locale)))


def controls_items(view: BattleView, names: dict[str, str], tail: str) -> list[Button | Select]:
    """The controls' selects and buttons in the order they are placed in rows, written straight as
    Discord's payload (`discord_app.render.rows_of`): the `ActionSelect`, `DefenderButton` and
    `PassButton` registered at start-up answer them, so no discord.py item is built per reply."""
    items: list[Button | Select] = []
    choices = [(i, a) for i, a in enumerate(view.legal) if not isinstance(a, Pass | Move)]
    for start in range(0, min(len(choices), MAX_OPTIONS * 4), MAX_OPTIONS):
        options = tuple(
            SelectOption(action_label(a, names), choice_value(i, a))
            for i, a in choices[start : start + MAX_OPTIONS]
        )
        items.append(Select(f"hoss:ract:{tail}:{start // MAX_OPTIONS}", Text("hoss.battle.choose"), options))
    if any(isinstance(a, Move) for a in view.legal):
        items.append(Button(Text("hoss.battle.defender"), f"hoss:rdef:{tail}", "secondary"))
    if any(isinstance(a, Pass) for a in view.legal):
        items.append(Button(Text("hoss.battle.pass"), f"hoss:rpass:{tail}", "secondary"))
    return items


async def catch_up(interaction: discord.Interaction[Any], battle: int, message_id: int, locale: str) -> None:
    """A click on a battle message older than the battle: while the outbox still owes it an edit, the
    player is told privately it is coming (showing the battle now would be overwritten by an older
    round); else the message is shown as the battle is now."""
    screen = await hoss_of(interaction).ranked.screen(
        interaction.user.id, battle, interaction.guild_id, message_id
    )
    if screen.edits_owed:
        queued = MessageSpec(content=Text("hoss.battle.queued"))
        await interaction.response.send_message(**reply(queued, locale, None), ephemeral=True)
        return
    shown_in = locale if private(interaction) else await public_locale_of(interaction)
    await interaction.response.edit_message(**board_kwargs(screen.message.spec, shown_in))


def private(interaction: discord.Interaction[Any]) -> bool:
    """The click came from a board shown to its player only (`/hoss combat`), not the channel's message."""
    return interaction.message is not None and interaction.message.flags.ephemeral


class DecideButton(PersistentButton, template=r"hoss:rdecide:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        ranked, battle = hoss_of(interaction).ranked, int(self.match["battle"])
        view = await ranked.controls(interaction.user.id, battle, interaction.guild_id)
        message_id = interaction.message.id if interaction.message is not None else 0
        if view.status != "live" or view.pause != int(self.match["pause"]):
            await catch_up(interaction, battle, message_id, locale)
            return
        await interaction.response.send_message(
            **controls_reply(interaction, view, message_id, locale), ephemeral=True
        )


class SkipButton(PersistentButton, template=r"hoss:rskip:(?P<owner>\d+):(?P<battle>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        ranked, battle = hoss_of(interaction).ranked, int(self.match["battle"])
        await ranked.skip_to_end(interaction.user.id, battle, interaction.guild_id)
        if not private(interaction):  # the outbox shows the final board on this message at once
            await interaction.response.edit_message(view=None)
            return
        screen = await ranked.screen(interaction.user.id, battle, interaction.guild_id)
        await interaction.response.edit_message(**board_kwargs(screen.message.spec, locale))


async def decide(
    interaction: discord.Interaction[Any], match: dict[str, str], action: HossAction | Choice, locale: str
) -> None:
    check_owner(match, interaction)
    ranked, battle, pause = hoss_of(interaction).ranked, int(match["battle"]), int(match["pause"])
    user, guild = interaction.user.id, interaction.guild_id
    # the battle's message is in this server (owned there): the outbox shows its edits in its language
    shown_in = normalize_locale(await guild_locale(services_of(interaction), guild))
    answered = await ranked.answer(
        user, battle, action, key=interaction.id, pause=pause, guild=guild, shown_in=shown_in
    )
    if not answered.over and answered.pause == pause:  # more decisions owed at this pause
        view = await ranked.controls(user, battle, guild)
        await interaction.response.edit_message(
            **controls_reply(interaction, view, int(match["message"]), locale)
        )
        return
    done = MessageSpec(content=Text("hoss.battle.answered"))
    await interaction.response.edit_message(**reply(done, locale, None))  # the outbox edits the battle


class ActionSelect(
    PersistentSelect,
    template=r"hoss:ract:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+):(?P<part>\d)",
):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        await decide(interaction, self.match, parse_choice(values[0]), locale)


class PassButton(
    PersistentButton, template=r"hoss:rpass:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+)"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        await decide(interaction, self.match, Pass(), locale)


TAIL = r"(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+)"


async def moves_reply(
    interaction: discord.Interaction[Any],
    match: dict[str, str],
    pause: int | None,
    custom_id: str,
    locale: str,
) -> dict[str, Any]:
    """The legal Défenseur moves now, asked again from the service (the custom_id is untrusted), in a
    select written as Discord's row (`MoveSelect` or `GuardSelect` answers it)."""
    check_owner(match, interaction)
    offered = await hoss_of(interaction).ranked.defender_moves(
        interaction.user.id, int(match["battle"]), pause=pause, guild=interaction.guild_id
    )
    catalog = hoss_of(interaction).decks.catalog
    names = {uid: name_of(catalog, card, locale) for uid, card in offered.cards.items()}
    options = [
        (text(action_label(Move(d, p), names), locale), f"{d} {p}") for d, p in offered.moves[:MAX_OPTIONS]
    ]
    placeholder = text(Text("hoss.battle.defender_choose"), locale)
    view = RenderedView([rows.select_row(custom_id, placeholder, options)])
    return reply(MessageSpec(content=Text("hoss.battle.defender_controls")), locale, view)


def move_of(values: list[str]) -> Move:
    parts = values[0].split(" ") if len(values) == 1 and len(values[0]) <= 100 else []
    if len(parts) != 2 or not all(parts):
        raise BadInput()
    return Move(parts[0], parts[1])


class DefenderButton(PersistentButton, template=r"hoss:rdef:" + TAIL):
    """« Tu peux aussi le déplacer quand tu veux grâce au bouton « Défenseur » », in the controls of a
    pause: the moves at that pause."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        m = self.match
        custom_id = f"hoss:rmove:{m['owner']}:{m['battle']}:{m['pause']}:{m['message']}"
        kwargs = await moves_reply(interaction, m, int(m["pause"]), custom_id, locale)
        await interaction.response.edit_message(**kwargs)


class MoveSelect(PersistentSelect, template=r"hoss:rmove:" + TAIL):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        await decide(interaction, self.match, move_of(values), locale)


GUARD = r"(?P<owner>\d+):(?P<battle>\d+)"


class GuardButton(PersistentButton, template=r"hoss:rguard:" + GUARD):
    """« Défenseur » on the battle message, all battle long while the player has a Défenseur in play: the
    moves possible where the battle stands, whatever pause or round it is at."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        m = self.match
        custom_id = f"hoss:rguardmove:{m['owner']}:{m['battle']}"
        kwargs = await moves_reply(interaction, m, None, custom_id, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)


class GuardSelect(PersistentSelect, template=r"hoss:rguardmove:" + GUARD):
    """A move chosen from the battle message's button: it applies where the battle stands when the click
    arrives, so from the start of the next round (docs/hoss/ranked.md, "Moving a Défenseur")."""

    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        check_owner(self.match, interaction)
        await hoss_of(interaction).ranked.answer(
            interaction.user.id,
            int(self.match["battle"]),
            move_of(values),
            key=interaction.id,
            pause=None,
            guild=interaction.guild_id,
        )
        done = MessageSpec(content=Text("hoss.battle.defender_moved"))
        await interaction.response.edit_message(**reply(done, locale, None))


# --- milestone notices --------------------------------------------------------------------------------


def notice_reply(notice: Notice, owner: int, locale: str) -> dict[str, Any]:
    items = discord.ui.View(timeout=None)
    ok = f"hoss:notice:{owner}:{notice.id}"
    items.add_item(button(NoticeButton, ok, Text("hoss.notice.ok"), locale, "success"))
    return reply(MessageSpec(content=notice_text(notice, locale)), locale, items)


class NoticeButton(PersistentButton, template=r"hoss:notice:(?P<owner>\d+):(?P<notice>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        claim = await hoss_of(interaction).ranked.claim_notice(interaction.user.id, int(self.match["notice"]))
        key = "hoss.notice.claimed" if claim.credited else "hoss.notice.already"
        note = Text(key, {"gold": gold(claim.notice.gold, locale), "balance": gold(claim.balance, locale)})
        spec = MessageSpec(content=Text.lines([notice_text(claim.notice, locale), note]))
        await interaction.response.edit_message(**reply(spec, locale, None))


BATTLE_ITEMS: tuple[type[Any], ...] = (
    StartButton,
    DecideButton,
    SkipButton,
    ActionSelect,
    PassButton,
    DefenderButton,
    MoveSelect,
    GuardButton,
    GuardSelect,
    NoticeButton,
)
