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

from cogs.hoss.lookup import hoss_of
from cogs.hoss.render import gold
from cogs.hoss.views import _check_owner, button, reply
from core.errors import BadInput
from core.i18n import format_int
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.permissions import BATTLE_MESSAGE, require_here
from discord_app.render import text, view_of
from engine.hoss.catalog import HossCatalog
from services.hoss import RACE_KEYS
from services.hoss.ranked import RANK_NAME_KEYS, BattleView, Ladder, Notice
from services.platform.messages import Button, Embed, EmbedField, MessageSpec, Text

BAR = 10
MAX_OPTIONS = 25
STATUS_KEYS = {
    "poison": "hoss.battle.status.poison",
    "saignement": "hoss.battle.status.saignement",
    "embrasement": "hoss.battle.status.embrasement",
    "bris": "hoss.battle.status.bris",
    "gel": "hoss.battle.status.gel",
    "choc": "hoss.battle.status.choc",
    "confusion": "hoss.battle.status.confusion",
}
EVENT_KEYS = {
    "play": "hoss.battle.event.play",
    "place": "hoss.battle.event.place",
    "move": "hoss.battle.event.move",
    "evolve": "hoss.battle.event.evolve",
    "evolve_choice": "hoss.battle.event.evolve_choice",
    "death": "hoss.battle.event.death",
    "revive": "hoss.battle.event.revive",
}
STATUS_TITLES = {"won": "hoss.battle.won", "lost": "hoss.battle.lost", "draw": "hoss.battle.draw"}

Edit = Callable[..., Awaitable[Any]]


class BattlePace:
    """Real seconds between two edits of the battle message (one round per edit)."""

    seconds: ClassVar[float] = 5.0

    @classmethod
    async def wait(cls) -> None:
        await asyncio.sleep(cls.seconds)


# --- rendering ----------------------------------------------------------------------------------------


def pv_bar(hp: int, hp_max: int) -> str:
    filled = 0 if hp <= 0 or hp_max <= 0 else max(1, min(BAR, round(BAR * hp / hp_max)))
    return "▰" * filled + "▱" * (BAR - filled)


def pv_of(centi: int) -> int:
    """The engine counts hundredths of PV; a creature alive with less than 1 PV still shows 1."""
    return -(-centi // 100)


def name_of(catalog: HossCatalog, card_id: str, locale: str) -> str:
    card = catalog.card(card_id)
    return card.name.get(locale) if card is not None else card_id


def _uid_names(sides: list[dict[str, Any]], catalog: HossCatalog, locale: str) -> dict[str, str]:
    names = {}
    for side in sides:
        for creature in side.get("creatures", []):
            names[creature["uid"]] = name_of(catalog, creature["card"], locale)
        for card in side.get("hand_cards", []):
            names[card["id"]] = name_of(catalog, card["card"], locale)
    return names


def names_from_log(log: str, catalog: HossCatalog, locale: str) -> dict[str, str]:
    """Every creature of the battle by uid, under its latest card (dead ones included)."""
    names: dict[str, str] = {}
    for record in json.loads(log)["rounds"]:
        for event in record["events"]:
            if event["k"] == "play":
                names[str(event["tgt"])] = name_of(catalog, str(event["card"]), locale)
            elif event["k"] == "evolve":
                names[str(event["tgt"])] = name_of(catalog, str(event["to"]), locale)
    return names


def creature_line(creature: dict[str, Any], names: dict[str, str], locale: str) -> str:
    hp, hp_max = int(creature["hp"]), int(creature["hp_max"])
    pv = f"{format_int(pv_of(hp), locale)}/{format_int(pv_of(hp_max), locale)}"
    parts = [f"**{names.get(creature['uid'], creature['card'])}** {pv_bar(hp, hp_max)} {pv}"]
    if creature.get("shield"):
        parts.append(
            text(
                Text("hoss.battle.shield", {"shield": format_int(pv_of(int(creature["shield"])), locale)}),
                locale,
            )
        )
    statuses = [text(Text(STATUS_KEYS[s]), locale) for s in creature.get("statuses", {}) if s in STATUS_KEYS]
    if statuses:
        parts.append("[" + ", ".join(statuses) + "]")
    if creature.get("protege"):
        protege = names.get(creature["protege"], creature["protege"])
        parts.append(text(Text("hoss.battle.protects", {"protege": protege}), locale))
    return " ".join(parts)


def side_text(side: dict[str, Any], names: dict[str, str], locale: str) -> str:
    lines = [creature_line(c, names, locale) for c in side.get("creatures", [])]
    if not lines:
        lines.append(text(Text("hoss.battle.no_creature"), locale))
    synergy = side.get("synergy", {})
    if synergy:
        found = [
            text(
                Text("hoss.battle.synergy", {"race": Text(RACE_KEYS[race]), "percent": f"{bp / 100:g}"}),
                locale,
            )
            for race, bp in synergy.items()
            if race in RACE_KEYS
        ]
        lines.append(" · ".join(found))
    lines.append(text(Text("hoss.battle.counts", {"hand": side["hand"], "pile": side["pile"]}), locale))
    return "\n".join(lines)


def event_line(event: dict[str, Any], names: dict[str, str], locale: str, catalog: HossCatalog) -> str:
    uid = str(event.get("tgt", ""))
    who = Text("hoss.battle.you" if uid.startswith("a") else "hoss.battle.ai")
    params: dict[str, Any] = {"who": who, "card": names.get(uid, uid)}
    if "protege" in event:
        params["protege"] = names.get(str(event["protege"]), str(event["protege"]))
    if "to" in event:
        params["to"] = name_of(catalog, str(event["to"]), locale)
    if event["k"] in ("play",) and "card" in event:
        params["card"] = name_of(catalog, str(event["card"]), locale)
    return "• " + text(Text(EVENT_KEYS[event["k"]], params), locale)


def round_events(
    record: dict[str, Any], catalog: HossCatalog, locale: str, known: dict[str, str]
) -> list[str]:
    names = {**known, **_uid_names(record["sides"], catalog, locale)}
    return [event_line(e, names, locale, catalog) for e in record["events"] if e["k"] in EVENT_KEYS]


def result_text(view: BattleView, locale: str) -> str:
    result = view.result
    assert result is not None
    lines = [f"**{text(Text(STATUS_TITLES[result.status]), locale)}**", text(Text(result.reason), locale)]
    if not result.counted:
        lines.append(text(Text("hoss.battle.not_counted"), locale))
    else:
        amounts = {"base": result.base, "fast": result.fast_bonus, "flawless": result.flawless_bonus}
        bonus = {name: format_int(amount, locale) for name, amount in amounts.items()}
        lines.append(text(Text("hoss.battle.reward", {"gold": gold(result.gold, locale), **bonus}), locale))
    return "\n".join(lines)


def battle_spec(
    view: BattleView, record: dict[str, Any] | None, catalog: HossCatalog, locale: str, known: dict[str, str]
) -> MessageSpec:
    """The public battle message: at an intermediate round (`record` and its sides) or now (snapshot)."""
    if record is not None and record["round"] != view.round:
        sides, round_number, final = record["sides"], record["round"], False
    else:
        sides, round_number, final = view.snapshot["seats"], view.round, True
    names = {**known, **_uid_names(sides, catalog, locale)}
    lines = [text(Text("hoss.battle.round", {"round": round_number}), locale)]
    if record is not None:
        lines += round_events(record, catalog, locale, known)
    if final and view.status == "live":
        if view.ai_decided and view.ai_decided[-1] == view.pause - 1:
            lines.append(text(Text("hoss.decision_timeout"), locale))
        deadline = int(view.deadline.timestamp()) if view.deadline is not None else 0
        lines.append(text(Text("hoss.battle.your_turn", {"deadline": f"<t:{deadline}:R>"}), locale))
    if final and view.result is not None:
        lines.append(result_text(view, locale))
    title = Text("hoss.battle.title", {"battle": view.battle_id, "rank": Text(rank_key(view.rank))})
    fields = (
        EmbedField(Text("hoss.battle.you"), Text.raw(side_text(sides[0], names, locale)), inline=False),
        EmbedField(Text("hoss.battle.ai"), Text.raw(side_text(sides[1], names, locale)), inline=False),
    )
    return MessageSpec(embeds=(Embed(title=title, description=Text.raw("\n".join(lines)), fields=fields),))


def rank_key(rank: int) -> str:
    return str(RANK_NAME_KEYS[rank])


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
    if await ranked.edit_queued(channel, message_id):
        if not interaction.response.is_done():
            queued = MessageSpec(content=Text("hoss.battle.queued"))
            await interaction.response.send_message(**reply(queued, locale, None), ephemeral=True)
        spec = battle_message(interaction, view, records[-1], locale, log)
        await ranked.hand_over_edit(interaction.user.id, channel, message_id, spec)
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
                spec = battle_message(interaction, view, record, locale, log)
                await ranked.hand_over_edit(interaction.user.id, channel, message_id, spec)


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
        _check_owner(self.match, interaction)
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
    names = _uid_names(view.snapshot["seats"], catalog, locale)
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
        _check_owner(self.match, interaction)
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
        _check_owner(self.match, interaction)
        ranked, battle = hoss_of(interaction).ranked, int(self.match["battle"])
        await ranked.skip_to_end(interaction.user.id, battle, interaction.guild_id)
        view = await ranked.view(interaction.user.id, battle, interaction.guild_id)
        message = interaction.message
        assert message is not None
        await present(
            interaction, view, locale, [interaction.response.edit_message, message.edit], message.id
        )


async def decide(
    interaction: discord.Interaction[Any], match: dict[str, str], action: Any, locale: str
) -> None:
    _check_owner(match, interaction)
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
        _check_owner(self.match, interaction)
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
        _check_owner(self.match, interaction)
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
