"""The /choco game's buttons and selects, and how its private replies look.

Every click is re-checked by a service (who may answer a challenge, whose turn it is, which game version
the panel was built on, and that the game or challenge belongs to the server where the click happens:
a custom id is untrusted input); these classes only parse the custom id, call, and render.
"""

from __future__ import annotations

from typing import Any, Literal

import discord

from cogs.choco.lookup import choco_of, member_since
from cogs.shared.components import plain_button
from core.errors import BadInput, NotAllowed
from core.i18n import t
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import public_locale_of, services_of
from discord_app.deferral import defer_update, update
from discord_app.render import files_with_strips, text, to_discord
from services.choco.economy import LEAGUE_KEYS, league_of
from services.choco.game_store import GameRow
from services.choco.games import Absence, Challenge, Declared
from services.choco.panel import Option, Panel
from services.infra.messages import Text

THREAD_ARCHIVE_MINUTES: Literal[10080] = (
    10080  # a week: turns last a day, a thread must not close between two turns
)
PLACEHOLDER_MAX = 150
# A friendly or practice game's thread says what it is in its name.
THREAD_NAMES = {"friendly": "choco.friendly.thread_name", "practice": "choco.practice.thread_name"}


def _lines(items: list[Text], locale: str) -> str:
    return "\n".join(text(i, locale) for i in items)


# --- challenges -----------------------------------------------------------------------------------------


def challenge_reply(found: Challenge, locale: str) -> dict[str, Any]:
    league = text(Text(LEAGUE_KEYS[league_of(found.league)]), locale)
    stamp = int(found.expires_at.timestamp())
    content = t(
        "choco.friendly.open" if found.friendly else "choco.challenge.open",
        locale,
        challenger=f"<@{found.challenger_id}>",
        challenged=f"<@{found.challenged_id}>",
        league=league,
        expires=f"<t:{stamp}:R>",
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        plain_button(AcceptButton, f"choco:accept:{found.id}", t("choco.challenge.accept", locale), "success")
    )
    view.add_item(
        plain_button(
            DeclineButton, f"choco:decline:{found.id}", t("choco.challenge.decline", locale), "danger"
        )
    )
    mentions = discord.AllowedMentions(users=[discord.Object(id=found.challenged_id)])
    return {"content": content, "view": view, "allowed_mentions": mentions}


def _answered(found: Challenge, locale: str) -> str:
    key = {
        "declined": "choco.challenge.declined",
        "withdrawn": "choco.challenge.withdrawn",
        "expired": "choco.challenge.expired",
    }.get(found.status, "choco.challenge.pending")
    return t(key, locale, challenger=f"<@{found.challenger_id}>", challenged=f"<@{found.challenged_id}>")


async def open_game_thread(interaction: discord.Interaction[Any], game: GameRow, locale: str) -> int | None:
    """The game's thread, in the games channel or else where the challenge was made; None if neither
    allows it (the game then lives in the channel itself)."""
    client = interaction.client
    name = t(THREAD_NAMES.get(game.mode, "choco.play.thread_name"), locale, id=game.id)[:100]
    for channel_id in dict.fromkeys([game.channel_id, interaction.channel_id]):
        if channel_id is None:
            continue
        channel = client.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            continue
        try:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except (discord.HTTPException, discord.RateLimited):  # RateLimited: a wait over MAX_RATELIMIT_WAIT
            continue
        return thread.id
    return None


class AcceptButton(PersistentButton, template=r"choco:accept:(?P<id>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """The challenge and the game's thread are public: they speak the server's language."""
        choco = choco_of(interaction)
        found = await choco.games.answer(
            int(self.match["id"]), interaction.user.id, True, interaction.guild_id, member_since(interaction)
        )
        public = await public_locale_of(interaction)  # after the checks: a refused click writes nothing
        if found.status == "accepted" and found.game_id is not None:
            game = await choco.games.get(found.game_id)
            claimed = game.turn_started_at is None and await choco.games.claim_thread(
                game.id, str(interaction.id)
            )
            if claimed:  # the first click (a double click waits for it), or a retry after a failure
                await defer_update(interaction)  # creating the thread waits on Discord
                thread = await open_game_thread(interaction, game, public)
                game = await choco.games.open_thread(game.id, thread)
            content = t(
                "choco.friendly.accepted" if found.friendly else "choco.challenge.accepted",
                public,
                challenged=f"<@{found.challenged_id}>",
                game=game.id,
                where=f"<#{game.where}>",
            )
        else:
            content = _answered(found, public)
        await update(interaction, content=content, view=None)


class DeclineButton(PersistentButton, template=r"choco:decline:(?P<id>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        found = await choco_of(interaction).games.answer(
            int(self.match["id"]), interaction.user.id, False, interaction.guild_id
        )
        if found.status == "accepted":
            raise NotAllowed("choco.error.already_accepted")
        content = _answered(found, await public_locale_of(interaction))
        await interaction.response.edit_message(content=content, view=None)


# --- the game --------------------------------------------------------------------------------------------


def games_text(rows: list[GameRow], player: int, locale: str) -> str:
    if not rows:
        return t("choco.games.none", locale)
    lines = [t("choco.games.title", locale)]
    for game in rows:
        seat = game.seat_of(player)
        held = game.seats[1 - seat]
        opponent = t("choco.practice.ai_name", locale) if held is None else f"<@{held}>"
        key = "choco.games.your_turn" if seat in game.to_act() else "choco.games.their_turn"
        lines.append(
            t(
                key,
                locale,
                id=game.id,
                where=f"<#{game.where}>",
                opponent=opponent,
                turn=game.state.turn,
            )
        )
    return "\n".join(lines)


async def hand_reply(interaction: discord.Interaction[Any], game_id: int, locale: str) -> dict[str, Any]:
    spec = await choco_of(interaction).games.hand_message(game_id, interaction.user.id, interaction.guild_id)
    files = await files_with_strips(spec, locale, services_of(interaction).card_images)
    return {**to_discord(spec, locale), "files": files}


def declared_text(result: Declared, locale: str) -> str:
    parts: list[str] = []
    if result.status == "played":
        parts.append(t("choco.play.declared", locale, id=result.game_id))
        parts += [f"• {text(s, locale)}" for s in result.steps]
        if result.ignored:
            parts.append(t("choco.play.declared_ignored", locale))
            parts += [f"• {text(s, locale)}" for s in result.ignored]
    elif result.status == "fault":
        parts.append(t("choco.play.fault", locale))
        parts += [f"• {text(s, locale)}" for s in result.problems]
    else:
        parts.append(t("choco.play.refused", locale))
        parts += [f"• {text(s, locale)}" for s in (*result.problems, *result.ignored)]
    return "\n".join(parts)[:2000]


def absence_text(recorded: list[Absence], locale: str) -> str:
    lines = []
    for item in recorded:
        if item.until is None:
            reason = text(item.problem, locale)
            lines.append(
                t(
                    "choco.play.absence_refused",
                    locale,
                    id=item.game_id,
                    where=f"<#{item.where}>",
                    reason=reason,
                )
            )
        else:
            until = f"<t:{int(item.until.timestamp())}:F>"
            lines.append(
                t(
                    "choco.play.absence_saved",
                    locale,
                    id=item.game_id,
                    where=f"<#{item.where}>",
                    until=until,
                    left=item.left,
                )
            )
    return "\n".join(lines)[:2000]


class HandButton(PersistentButton, template=r"choco:hand:(?P<game>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        kwargs = await hand_reply(interaction, int(self.match["game"]), locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)


# --- the guided panel ------------------------------------------------------------------------------------


def _select(
    panel: Panel, group: str, options: tuple[Option, ...], placeholder: str, locale: str
) -> PersistentSelect:
    choices = [
        discord.SelectOption(
            label=text(o.label, locale)[:100] or o.value, value=o.value, description=o.hint[:100] or None
        )
        for o in options
    ]
    item = PickSelect(f"choco:pick:{panel.game_id}:{panel.version}:{group}", {}, choices)
    item.item.placeholder = placeholder[:PLACEHOLDER_MAX]
    return item


def panel_reply(panel: Panel, locale: str) -> dict[str, Any]:
    title_key = "choco.panel.title_prep" if panel.preparatory else "choco.panel.title"
    lines = [t(title_key, locale, id=panel.game_id)]
    if panel.steps:
        lines.append(t("choco.panel.draft", locale))
        lines += [f"{i}. {text(s, locale)}" for i, s in enumerate(panel.steps, 1)]
    else:
        lines.append(t("choco.panel.empty", locale))
    lines.append(t("choco.panel.hint_submit" if panel.can_submit else "choco.panel.hint_continue", locale))
    hidden = sum(g.truncated for g in panel.groups)
    if hidden:
        lines.append(t("choco.panel.truncated", locale, count=hidden))
    view = discord.ui.View(timeout=None)
    for group in panel.groups:
        view.add_item(_select(panel, group.code, group.options, text(group.placeholder, locale), locale))
    if not panel.preparatory:
        suffix = f"{panel.game_id}:{panel.version}"
        view.add_item(
            plain_button(
                UndoButton,
                f"choco:undo:{suffix}",
                t("choco.panel.undo", locale),
                "secondary",
                disabled=not panel.steps,
            )
        )
        view.add_item(
            plain_button(
                ClearButton,
                f"choco:clear:{suffix}",
                t("choco.panel.clear", locale),
                "secondary",
                disabled=not panel.steps,
            )
        )
        view.add_item(
            plain_button(
                SubmitButton,
                f"choco:submit:{suffix}",
                t("choco.panel.submit", locale),
                "success",
                disabled=not panel.can_submit,
            )
        )
    return {"content": "\n".join(lines)[:2000], "view": view}


async def _show_panel_or_result(
    interaction: discord.Interaction[Any], outcome: Panel | Declared, locale: str
) -> None:
    if isinstance(outcome, Panel):
        await interaction.response.edit_message(**panel_reply(outcome, locale))
    else:
        await interaction.response.edit_message(content=declared_text(outcome, locale), view=None)


class PanelButton(PersistentButton, template=r"choco:panel:(?P<game>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        game, where = int(self.match["game"]), interaction.guild_id
        shown = await choco_of(interaction).panel.show(game, interaction.user.id, where)
        await interaction.response.send_message(**panel_reply(shown, locale), ephemeral=True)


class PickSelect(PersistentSelect, template=r"choco:pick:(?P<game>\d+):(?P<version>\d+):(?P<group>[sead])"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1 or len(values[0]) > 100:
            raise BadInput()
        game, version = int(self.match["game"]), int(self.match["version"])
        outcome = await choco_of(interaction).panel.pick(
            game, interaction.user.id, version, values[0], interaction.guild_id
        )
        await _show_panel_or_result(interaction, outcome, locale)


class UndoButton(PersistentButton, template=r"choco:undo:(?P<game>\d+):(?P<version>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        game, version = int(self.match["game"]), int(self.match["version"])
        await _show_panel_or_result(
            interaction,
            await choco_of(interaction).panel.undo(game, interaction.user.id, version, interaction.guild_id),
            locale,
        )


class ClearButton(PersistentButton, template=r"choco:clear:(?P<game>\d+):(?P<version>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        game, version = int(self.match["game"]), int(self.match["version"])
        await _show_panel_or_result(
            interaction,
            await choco_of(interaction).panel.clear(game, interaction.user.id, version, interaction.guild_id),
            locale,
        )


class SubmitButton(PersistentButton, template=r"choco:submit:(?P<game>\d+):(?P<version>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        game, version = int(self.match["game"]), int(self.match["version"])
        await _show_panel_or_result(
            interaction,
            await choco_of(interaction).panel.submit(
                game, interaction.user.id, version, interaction.guild_id
            ),
            locale,
        )


# --- forfeit ---------------------------------------------------------------------------------------------


def forfeit_confirm(game_id: int, player: int, locale: str) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    view.add_item(
        plain_button(
            ForfeitButton,
            f"choco:forfeit:{game_id}:{player}",
            t("choco.play.forfeit_button", locale),
            "danger",
        )
    )
    return {"content": t("choco.play.forfeit_confirm", locale, id=game_id), "view": view}


class ForfeitButton(PersistentButton, template=r"choco:forfeit:(?P<game>\d+):(?P<player>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        if int(self.match["player"]) != interaction.user.id:
            raise NotAllowed("error.not_your_message")
        game = int(self.match["game"])
        await choco_of(interaction).games.forfeit(game, interaction.user.id, interaction.guild_id)
        await interaction.response.edit_message(content=t("choco.play.forfeited", locale), view=None)


CHOCO_ITEMS = (
    AcceptButton,
    DeclineButton,
    HandButton,
    PanelButton,
    PickSelect,
    UndoButton,
    ClearButton,
    SubmitButton,
    ForfeitButton,
)
