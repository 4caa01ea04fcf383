"""Ranked battles on Discord: the ladder, the live battle message, the private decision controls, the
result with its log, the replay summary and the milestone notices.

The battle message is public (one per `/hoss rank` start or `/hoss battle`): both sides, PV bars,
statuses, synergies and the round's notable events, never the player's hand. Its "Décider" button opens
private controls (the hand, the legal actions) that only the player can use. Rounds returned by the
service's `view()` are shown one per edit, `BattlePace.seconds` apart (tests set it to 0).

| custom_id | what |
|---|---|
| `hoss:rstart:<owner>:<rank>` | start a battle at a playable rank (ladder) |
| `hoss:rdecide:<owner>:<battle>:<pause>` | open the private decision controls (battle message) |
| `hoss:rskip:<owner>:<battle>` | let the AI play the rest of the battle (battle message) |
| `hoss:ract:<owner>:<battle>:<pause>:<message>:<part>` (select of action JSON) | one decision |
| `hoss:rpass:<owner>:<battle>:<pause>:<message>` | pass (play no card this round) |
| `hoss:rdef:<owner>:<battle>:<pause>:<message>` | « Défenseur »: open the select of the legal moves |
| `hoss:rmove:<owner>:<battle>:<pause>:<message>` (select of `<defender> <protégé>`) | move a Défenseur |
| `hoss:notice:<owner>:<notice>` | OK on a milestone notice: its gold is credited |
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, ClassVar

import discord

from cogs.hoss.battle_message import battle_spec, name_of, names_from_log, rank_key, round_events, uid_names
from cogs.hoss.lookup import hoss_of
from cogs.hoss.render import gold
from cogs.shared.components import button, check_owner, reply
from core.errors import BadInput
from core.i18n import format_int
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.permissions import BATTLE_MESSAGE, require_here
from discord_app.render import text, view_of
from engine.hoss.catalog import HossCatalog
from services.hoss.ranked import BattleView, Ladder, Notice
from services.platform.messages import Button, Embed, MessageSpec, Text

MAX_OPTIONS = 25

Edit = Callable[..., Awaitable[Any]]


class BattlePace:
    """Real seconds between two edits of the battle message (one round per edit)."""

    seconds: ClassVar[float] = 5.0

    @classmethod
    async def wait(cls) -> None:
        await asyncio.sleep(cls.seconds)


# --- the live message: its edits, buttons and log -------------------------------------------------


def battle_buttons(view: BattleView, owner: int) -> tuple[Button, ...]:
    """Plain buttons (DecideButton and SkipButton answer their ids), so the outbox can carry them too."""
    if view.status != "live":
        return ()
    return (
        Button(Text("hoss.battle.decide"), f"hoss:rdecide:{owner}:{view.battle_id}:{view.pause}", "primary"),
        Button(Text("hoss.battle.skip"), f"hoss:rskip:{owner}:{view.battle_id}", "danger"),
    )


async def battle_log(interaction: discord.Interaction[Any], view: BattleView) -> str:
    return await hoss_of(interaction).ranked.log(interaction.user.id, view.battle_id, interaction.guild_id)


def battle_kwargs(
    interaction: discord.Interaction[Any],
    view: BattleView,
    record: dict[str, Any] | None,
    locale: str,
    log: str,
) -> dict[str, Any]:
    """The battle message's arguments; once the battle is over, its log as an attachment."""
    spec = battle_message(interaction, view, record, locale, log)
    kwargs = reply(spec, locale, view_of(spec, locale))
    if view.result is not None and (record is None or record["round"] == view.round):
        kwargs["attachments"] = [log_file(log, f"hoss-battle-{view.battle_id}.json")]
    return kwargs


def battle_message(
    interaction: discord.Interaction[Any],
    view: BattleView,
    record: dict[str, Any] | None,
    locale: str,
    log: str,
) -> MessageSpec:
    catalog = hoss_of(interaction).decks.catalog
    spec = battle_spec(view, record, catalog, locale, names_from_log(log, catalog, locale))
    return replace(spec, buttons=battle_buttons(view, interaction.user.id))


def log_file(log: str, name: str) -> discord.File:
    return discord.File(io.BytesIO(log.encode("utf-8")), filename=name)


def rate_limited(exc: Exception) -> bool:
    """A 429 longer than discord.py waits (`RateLimited`, not an `HTTPException`) or still one after its
    retries."""
    return isinstance(exc, discord.RateLimited) or (
        isinstance(exc, discord.HTTPException) and exc.status == 429
    )


async def present(
    interaction: discord.Interaction[Any], view: BattleView, locale: str, edits: list[Edit], message_id: int
) -> None:
    """Show the new rounds one per edit, `BattlePace.seconds` apart, ending on the battle as it is now.
    `edits[0]` makes the first edit (an interaction response), `edits[-1]` every later one (of the
    message `message_id` in this channel). A rate-limited edit of an intermediate round is skipped (a
    later one shows more); the last one goes to the outbox, which makes it once Discord allows it. The
    outbox's version has no log attachment: `/hoss revoir` gives the log. While the outbox still owes
    the message an edit, the new state queues behind it instead (a direct edit would be overwritten)."""
    records: list[dict[str, Any] | None] = [dict(r.record) for r in view.new_rounds] or [None]
    log = await battle_log(interaction, view)
    ranked, channel = hoss_of(interaction).ranked, interaction.channel_id or 0

    async def hand_over(record: dict[str, Any] | None) -> None:
        spec = battle_message(interaction, view, record, locale, log)
        await ranked.hand_over_edit(interaction.user.id, channel, message_id, spec)

    if await ranked.edit_queued(channel, message_id):
        if not interaction.response.is_done():
            queued = MessageSpec(content=Text("hoss.battle.queued"))
            await interaction.response.send_message(**reply(queued, locale, None), ephemeral=True)
        await hand_over(records[-1])
        return
    for index, record in enumerate(records):
        if index:
            await BattlePace.wait()
        edit = edits[min(index, len(edits) - 1)]
        try:
            await edit(**battle_kwargs(interaction, view, record, locale, log))
        except (discord.RateLimited, discord.HTTPException) as exc:
            if not rate_limited(exc):
                raise
            if index == len(records) - 1:
                await hand_over(record)


def last_record(view: BattleView) -> dict[str, Any] | None:
    return dict(view.new_rounds[-1].record) if view.new_rounds else None


# --- the ladder ---------------------------------------------------------------------------------------


def ladder_reply(ladder: Ladder, owner: int, locale: str) -> dict[str, Any]:
    lines = []
    for status in ladder.ranks:
        state = (
            "hoss.ladder.playable"
            if status.playable
            else ("hoss.ladder.closed" if status.unlocked else "hoss.ladder.locked")
        )
        params = {
            "rank": status.name,
            "wins": format_int(status.wins, locale),
            "losses": format_int(status.losses, locale),
            "state": Text(state),
            "win": gold(status.win_gold, locale),
            "loss": gold(status.loss_gold, locale),
        }
        lines.append(Text("hoss.ladder.line", params))
    if ladder.live_battle is not None:
        lines.append(Text("hoss.ladder.live", {"battle": ladder.live_battle}))
    spec = MessageSpec(embeds=(Embed(title=Text("hoss.ladder.title"), description=Text.lines(lines)),))
    items = discord.ui.View(timeout=None)
    for status in ladder.ranks:
        if status.playable:
            label = Text("hoss.ladder.start", {"rank": status.name})
            items.add_item(
                button(StartButton, f"hoss:rstart:{owner}:{status.rank}", label, locale, "primary")
            )
    return reply(spec, locale, items)


async def start_battle(interaction: discord.Interaction[Any], rank: int, locale: str) -> None:
    """Start at `rank` and post the public battle message in this channel."""
    require_here(interaction, BATTLE_MESSAGE)
    ranked = hoss_of(interaction).ranked
    user, guild = interaction.user.id, interaction.guild_id
    started = await ranked.start(user, rank, key=interaction.id, guild=guild)
    view = await ranked.view(user, started.battle_id, guild)
    await interaction.response.send_message(
        **battle_kwargs(interaction, view, last_record(view), locale, await battle_log(interaction, view))
    )


class StartButton(PersistentButton, template=r"hoss:rstart:(?P<owner>\d+):(?P<rank>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        await start_battle(interaction, int(self.match["rank"]), locale)


# --- the battle message's buttons ---------------------------------------------------------------------


ACTION_KEYS = {"path": "hoss.battle.action.path", "place": "hoss.battle.action.place"}


def action_label(action: dict[str, Any], names: dict[str, str]) -> Text:
    """A legal action in words: play (on a protégé), a Rang 2 path, place or move a Défenseur."""

    def name(field: str) -> str:
        return names.get(str(action.get(field)), str(action.get(field)))

    kind = action["kind"]
    if kind == "play":
        key = "hoss.battle.action.play_on" if action.get("protege") else "hoss.battle.action.play"
        return Text(key, {"card": name("card"), "protege": name("protege")})
    if kind == "path":
        return Text(ACTION_KEYS[kind], {"card": name("creature"), "to": name("card")})
    key = ACTION_KEYS.get(kind, "hoss.battle.action.move")
    return Text(key, {"card": name("defender"), "protege": name("protege")})


def controls_reply(
    interaction: discord.Interaction[Any], view: BattleView, message_id: int, locale: str
) -> dict[str, Any]:
    """The private decision controls: the hand, a select of the legal actions, the « Défenseur » button
    when a Défenseur may move (at any step of the pause), and Pass when legal."""
    catalog = hoss_of(interaction).decks.catalog
    me = view.snapshot["seats"][0]
    names = uid_names(view.snapshot["seats"], catalog, locale)
    for action in view.legal:
        if action["kind"] == "path":
            names[action["card"]] = name_of(catalog, action["card"], locale)
    hand = ", ".join(names[c["id"]] for c in me.get("hand_cards", [])) or "—"
    owner = interaction.user.id
    tail = f"{owner}:{view.battle_id}:{view.pause}:{message_id}"
    items = discord.ui.View(timeout=None)
    choices = [a for a in view.legal if a["kind"] not in ("pass", "move")]
    for start in range(0, min(len(choices), MAX_OPTIONS * 4), MAX_OPTIONS):
        options = [
            discord.SelectOption(
                label=text(action_label(a, names), locale)[:100],
                value=json.dumps(a, separators=(",", ":"), sort_keys=True)[:100],
            )
            for a in choices[start : start + MAX_OPTIONS]
        ]
        select = ActionSelect(f"hoss:ract:{tail}:{start // MAX_OPTIONS}", {}, options)
        select.item.placeholder = text(Text("hoss.battle.choose"), locale)[:150]
        items.add_item(select)
    if any(a["kind"] == "move" for a in view.legal):
        items.add_item(
            button(DefenderButton, f"hoss:rdef:{tail}", Text("hoss.battle.defender"), locale, "secondary")
        )
    if any(a["kind"] == "pass" for a in view.legal):
        items.add_item(
            button(PassButton, f"hoss:rpass:{tail}", Text("hoss.battle.pass"), locale, "secondary")
        )
    spec = MessageSpec(content=Text("hoss.battle.controls", {"hand": hand}))
    return reply(spec, locale, items)


class DecideButton(PersistentButton, template=r"hoss:rdecide:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        view = await hoss_of(interaction).ranked.view(
            interaction.user.id, int(self.match["battle"]), interaction.guild_id
        )
        if view.status != "live" or view.pause != int(self.match["pause"]) or view.new_rounds:
            message = interaction.message
            assert message is not None
            edits: list[Edit] = [interaction.response.edit_message, message.edit]
            await present(interaction, view, locale, edits, message.id)
            return
        message_id = interaction.message.id if interaction.message is not None else 0
        await interaction.response.send_message(
            **controls_reply(interaction, view, message_id, locale), ephemeral=True
        )


class SkipButton(PersistentButton, template=r"hoss:rskip:(?P<owner>\d+):(?P<battle>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        ranked, battle = hoss_of(interaction).ranked, int(self.match["battle"])
        await ranked.skip_to_end(interaction.user.id, battle, interaction.guild_id)
        view = await ranked.view(interaction.user.id, battle, interaction.guild_id)
        message = interaction.message
        assert message is not None
        edits: list[Edit] = [interaction.response.edit_message, message.edit]
        await present(interaction, view, locale, edits, message.id)


async def decide(
    interaction: discord.Interaction[Any], match: dict[str, str], action: Any, locale: str
) -> None:
    check_owner(match, interaction)
    ranked, battle, pause = hoss_of(interaction).ranked, int(match["battle"]), int(match["pause"])
    user, guild = interaction.user.id, interaction.guild_id
    answered = await ranked.answer(user, battle, action, key=interaction.id, pause=pause, guild=guild)
    view = await ranked.view(user, battle, guild)
    if not answered.over and answered.pause == pause:  # more decisions owed at this pause
        await interaction.response.edit_message(
            **controls_reply(interaction, view, int(match["message"]), locale)
        )
        return
    done = MessageSpec(content=Text("hoss.battle.answered"))
    await interaction.response.edit_message(**reply(done, locale, None))
    channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
    message = channel.get_partial_message(int(match["message"]))
    await present(interaction, view, locale, [message.edit], message.id)


class ActionSelect(
    PersistentSelect,
    template=r"hoss:ract:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+):(?P<part>\d)",
):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1 or len(values[0]) > 100:
            raise BadInput()
        try:
            action = json.loads(values[0])
        except ValueError as exc:
            raise BadInput() from exc
        await decide(interaction, self.match, action, locale)


class PassButton(
    PersistentButton, template=r"hoss:rpass:(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+)"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        await decide(interaction, self.match, {"kind": "pass"}, locale)


TAIL = r"(?P<owner>\d+):(?P<battle>\d+):(?P<pause>\d+):(?P<message>\d+)"


class DefenderButton(PersistentButton, template=r"hoss:rdef:" + TAIL):
    """« Tu peux aussi le déplacer quand tu veux grâce au bouton « Défenseur » »: the legal moves now,
    asked again from the service (the custom_id is untrusted), in a select."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        offered = await hoss_of(interaction).ranked.defender_moves(
            interaction.user.id,
            int(self.match["battle"]),
            pause=int(self.match["pause"]),
            guild=interaction.guild_id,
        )
        catalog = hoss_of(interaction).decks.catalog
        names = {uid: name_of(catalog, card, locale) for uid, card in offered.cards.items()}
        options = [
            discord.SelectOption(
                label=text(action_label({"kind": "move", "defender": d, "protege": p}, names), locale)[:100],
                value=f"{d} {p}",
            )
            for d, p in offered.moves[:MAX_OPTIONS]
        ]
        m = self.match
        select = MoveSelect(f"hoss:rmove:{m['owner']}:{m['battle']}:{m['pause']}:{m['message']}", {}, options)
        select.item.placeholder = text(Text("hoss.battle.defender_choose"), locale)[:150]
        items = discord.ui.View(timeout=None)
        items.add_item(select)
        spec = MessageSpec(content=Text("hoss.battle.defender_controls"))
        await interaction.response.edit_message(**reply(spec, locale, items))


class MoveSelect(PersistentSelect, template=r"hoss:rmove:" + TAIL):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        parts = values[0].split(" ") if len(values) == 1 and len(values[0]) <= 100 else []
        if len(parts) != 2:
            raise BadInput()
        move = {"kind": "move", "defender": parts[0], "protege": parts[1]}
        await decide(interaction, self.match, move, locale)


# --- milestone notices --------------------------------------------------------------------------------


def notice_reply(notice: Notice, owner: int, locale: str) -> dict[str, Any]:
    items = discord.ui.View(timeout=None)
    ok = f"hoss:notice:{owner}:{notice.id}"
    items.add_item(button(NoticeButton, ok, Text("hoss.notice.ok"), locale, "success"))
    return reply(MessageSpec(content=notice_text(notice, locale)), locale, items)


def notice_text(notice: Notice, locale: str) -> Text:
    """Built here, not in the service, because its numbers are grouped as the reader's language writes them."""
    params = {
        "wins": format_int(notice.wins, locale),
        "rank": Text(rank_key(notice.rank)),
        "gold": format_int(notice.gold, locale),
    }
    return Text("hoss.ranked.notice.milestone", params)


class NoticeButton(PersistentButton, template=r"hoss:notice:(?P<owner>\d+):(?P<notice>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        claim = await hoss_of(interaction).ranked.claim_notice(interaction.user.id, int(self.match["notice"]))
        key = "hoss.notice.claimed" if claim.credited else "hoss.notice.already"
        note = Text(key, {"gold": gold(claim.notice.gold, locale), "balance": gold(claim.balance, locale)})
        spec = MessageSpec(content=Text.lines([notice_text(claim.notice, locale), note]))
        await interaction.response.edit_message(**reply(spec, locale, None))


# --- the replay ---------------------------------------------------------------------------------------


def replay_reply(log: str, battle: int, catalog: HossCatalog, locale: str) -> dict[str, Any]:
    data = json.loads(log)
    known = names_from_log(log, catalog, locale)
    lines: list[str] = []
    for record in data["rounds"]:
        lines.append(text(Text("hoss.battle.round", {"round": record["round"]}), locale))
        lines += round_events(record, catalog, locale, known)
    outcome = data.get("outcome")
    if outcome is not None:
        lines.append(text(Text(outcome["reason"]), locale))
    body = "\n".join(lines)
    if len(body) > 4000:
        body = body[:3990] + "\n…"
    title = Text("hoss.replay.title", {"battle": battle, "rank": Text(rank_key(int(data["rank"])))})
    spec = MessageSpec(embeds=(Embed(title=title, description=Text.raw(body or "—")),))
    kwargs = reply(spec, locale, None)
    kwargs["files"] = [log_file(log, f"hoss-replay-{battle}.json")]
    return kwargs


BATTLE_ITEMS: tuple[type[Any], ...] = (
    StartButton,
    DecideButton,
    SkipButton,
    ActionSelect,
    PassButton,
    DefenderButton,
    MoveSelect,
    NoticeButton,
)
