"""/dino défi, dojo and revoir, and the buttons of a battle.

- The private preparation page and « Lancer le Défi »: cogs/dinocard/preparation.py.
- `dino:next|phase|all:<match>:<version>`: « Suivant », « Fin de la phase », « Tout voir » on the public
  battle message (the challenger only).
- `dino:twatch:<match>`: « Regarder » under a tournament battle's DM (services/dinocard/tournament.py):
  the battle whole with its log, privately.

The public battle message is posted and edited by the outbox (services/dinocard/battles.py); a click on
« Suivant » edits it at once through its interaction.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.dinocard.common import card_choices, cards_option, dino_of, number_option, pack_choices, refused
from cogs.dinocard.preparation import MAX_BONUS, PREPARATION_ITEMS, here, prepare_reply
from cogs.shared.lab import LabRequest, lab_reply
from cogs.shared.mixins import CommandsMixin, send
from core.errors import BadInput
from discord_app.components import PersistentButton
from discord_app.context import locale_of, public_locale_of
from discord_app.permissions import PUBLIC_MESSAGE, require_here
from discord_app.render import files_of, to_discord
from discord_app.translator import desc
from services.infra.messages import Embed, MessageSpec, Text
from services.shared.collecting import DeckInvalid

MODES = {"next": "step", "phase": "phase", "all": "all"}


async def masters_matching(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The dojo masters whose name or id holds what the player typed, in their language."""
    locale = await locale_of(interaction)
    masters = dino_of(interaction).battles.masters()
    return [
        app_commands.Choice(name=f"{m.name.get(locale)} (niv. {m.level})"[:100], value=m.id)
        for m in masters
        if current.lower() in m.name.get(locale).lower() or current.lower() in m.id
    ][:25]


class WatchButton(
    PersistentButton, template=r"dino:(?P<mode>next|phase|all):(?P<match>\d+):(?P<version>\d+)"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        spec = await dino_of(interaction).battles.advance(
            int(self.match["match"]),
            interaction.user.id,
            int(self.match["version"]),
            MODES[self.match["mode"]],
            guild=interaction.guild_id,
        )
        public = await public_locale_of(interaction)
        kwargs = to_discord(spec, public)
        kwargs.setdefault("view", discord.ui.View(timeout=None))
        await interaction.response.edit_message(**kwargs, attachments=files_of(spec, public))


class TournamentWatchButton(PersistentButton, template=r"dino:twatch:(?P<match>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        spec = await dino_of(interaction).tournament.watch(
            int(self.match["match"]), interaction.user.id, guild=interaction.guild_id
        )
        kwargs = to_discord(spec, locale)
        kwargs.pop("view", None)
        await interaction.response.send_message(**kwargs, files=files_of(spec, locale), ephemeral=True)


BATTLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    *PREPARATION_ITEMS,
    WatchButton,
    TournamentWatchButton,
)


class DinocardBattleCommands(CommandsMixin):
    @app_commands.command(name="challenge", description=desc("cmd.dino.challenge.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.challenge.opt.pack.description"),
        opponent=desc("cmd.dino.challenge.opt.opponent.description"),
        bonus=desc("cmd.dino.challenge.opt.bonus.description"),
    )
    @app_commands.autocomplete(pack=pack_choices)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40],
        opponent: app_commands.Range[str, 1, 40],
        bonus: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        battles = dino_of(interaction).battles
        cards = cards_option(interaction, bonus, locale) or []
        if len(cards) > MAX_BONUS:
            raise BadInput("dinocard.error.challenge.bonus_count", maximum=MAX_BONUS)
        try:
            prep = await battles.prepare(
                interaction.user.id, pack, number_option(opponent), cards, locale=locale
            )
        except DeckInvalid as exc:
            raise refused("dinocard.error.challenge.refused", exc.problems, battles.cards, locale) from exc
        kwargs = prepare_reply(prep, interaction.user.id, here(interaction), battles.cards, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)

    @challenge.autocomplete("opponent")
    async def opponent_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        await locale_of(interaction)
        mine = str(getattr(interaction.namespace, "pack", "") or "")
        packs = await dino_of(interaction).battles.opponents(interaction.user.id, mine, current)
        return [
            app_commands.Choice(name=f"#{p.id} {p.name} (niv. {p.level})"[:100], value=str(p.id))
            for p in packs
        ]

    @challenge.autocomplete("bonus")
    async def bonus_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)

    @app_commands.command(name="dojo", description=desc("cmd.dino.dojo.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.dojo.opt.pack.description"), master=desc("cmd.dino.dojo.opt.master.description")
    )
    @app_commands.autocomplete(pack=pack_choices)
    @app_commands.guild_only()
    async def dojo(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40] | None = None,
        master: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        battles = dino_of(interaction).battles
        beaten = await battles.dojo_progress(interaction.user.id)
        if pack is None or master is None:
            lines = [
                Text(
                    "dinocard.dojo.line",
                    {
                        "rank": i + 1,
                        "name": Text.per_locale({"fr": m.name.fr, "en": m.name.en}),
                        "level": m.level,
                        "id": m.id,
                        "state": Text(
                            "dinocard.dojo.beaten"
                            if i < beaten
                            else "dinocard.dojo.open"
                            if i == beaten
                            else "dinocard.dojo.locked"
                        ),
                    },
                )
                for i, m in enumerate(battles.masters())
            ]
            await send(
                interaction,
                MessageSpec(
                    embeds=(Embed(title=Text("dinocard.dojo.title"), description=Text.lines(lines)),)
                ),
                locale,
            )
            return
        require_here(interaction, PUBLIC_MESSAGE)
        assert interaction.channel_id is not None
        match = await battles.dojo(
            interaction.user.id,
            pack,
            master,
            guild=interaction.guild_id,
            channel=interaction.channel_id,
            key=str(interaction.id),
        )
        await send(
            interaction, MessageSpec(content=Text("dinocard.dojo.started", {"number": match.number})), locale
        )

    @dojo.autocomplete("master")
    async def master_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await masters_matching(interaction, current)

    @app_commands.command(name="lab", description=desc("cmd.dino.lab.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.lab.opt.pack.description"), opponent=desc("cmd.dino.lab.opt.opponent.description")
    )
    @app_commands.autocomplete(pack=pack_choices)
    async def lab(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40],
        opponent: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """A pack against each dojo master, one master, or another of the player's packs (docs/lab.md)."""
        await lab_reply(interaction, "dinocard", LabRequest(interaction.user.id, pack, opponent))

    @lab.autocomplete("opponent")
    async def lab_opponents(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await masters_matching(interaction, current)

    @app_commands.command(name="replay", description=desc("cmd.dino.replay.description"))
    @app_commands.describe(number=desc("cmd.dino.replay.opt.number.description"))
    async def replay(
        self, interaction: discord.Interaction[Any], number: app_commands.Range[int, 1, 10**12]
    ) -> None:
        locale = await locale_of(interaction)
        _, spec = await dino_of(interaction).battles.replay(
            interaction.user.id, number, guild=interaction.guild_id
        )
        kwargs = to_discord(spec, locale)
        kwargs.pop("view", None)
        await interaction.response.send_message(**kwargs, files=files_of(spec, locale), ephemeral=True)
