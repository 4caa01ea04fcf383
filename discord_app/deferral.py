"""Answer Discord first, then do what may wait.

Discord forgets an interaction whose first response comes more than 3 s after it was created (Discord's
"Receiving and Responding" page), and discord.py waits out a rate limit inside the call that met it, up to
`MAX_RATELIMIT_WAIT` (discord_app/bot.py). So a path that calls Discord (a thread to open) or computes for
long (a sale of thousands of copies, the AI's move) defers before that work; its result then replaces the
deferred response, within the token's 15 minutes. The error handler already follows up after a deferral
(`reply_private`), so a refusal raised after deferring still reaches the player privately.

`reply` and `update` work deferred or not, so a path defers only where it may wait and renders the same
way either way.
"""

from __future__ import annotations

from typing import Any

import discord


async def defer_reply(interaction: discord.Interaction[Any], *, ephemeral: bool = True) -> None:
    """A command: the "thinking" message now, the answer (`reply`) when the work is done."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def reply(interaction: discord.Interaction[Any], *, ephemeral: bool = True, **kwargs: Any) -> None:
    """The command's answer: the response itself, or the follow-up that replaces the "thinking" message."""
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(**kwargs, ephemeral=ephemeral)


async def defer_update(interaction: discord.Interaction[Any]) -> None:
    """A click: acknowledge it and leave the clicked message as it is until `update` replaces it."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def update(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Replace the clicked message, whether the click was deferred or not."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
