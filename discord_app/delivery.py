"""Delivers the outbox after services commit: channel posts and DMs, retried while Discord is unavailable.

A DM refused because the player closed them (code 50007) is not retried: the player is marked,
and a private "show" button is posted in the game's channel or thread instead. A channel post refused
because the bot may not post there (403: 50001 Missing Access, 50013 Missing Permissions) is not retried
either: the outbox records the permissions it needed and tells the game's players by DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from core.errors import NotAllowed
from core.i18n import t
from discord_app import posts_http
from discord_app.components import PersistentButton
from discord_app.context import guild_locale, services_of
from discord_app.render import files_with_strips, text, to_discord
from services.infra.channel_permissions import post_needs
from services.infra.outbox import TOPIC as OUTBOX_TOPIC

if TYPE_CHECKING:
    from services.infra.container import Services
    from services.infra.outbox import OutboxItem

log = logging.getLogger("bot.delivery")

DMS_CLOSED = 50007
MISSING_ACCESS = 50001  # the bot cannot see the channel (Discord's JSON error codes)
MISSING_PERMISSIONS = 50013  # it sees it but lacks a permission the call needs
IDLE_RECHECK = timedelta(minutes=10)
HOLD = timedelta(seconds=1)  # how long a pass keeps sent posts unrecorded before it records them
TRANSIENT = (discord.DiscordServerError, aiohttp.ClientError, TimeoutError, discord.RateLimited)


class ShowPrivateButton(PersistentButton, template=r"outbox:show:(?P<id>\d+)"):
    """Shows a DM that could not be delivered, privately, to its recipient only."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        item = await services_of(interaction).outbox.get(int(self.match["id"]))
        if item is None or item.target.kind != "dm" or item.target.id != interaction.user.id:
            raise NotAllowed("error.not_your_message")
        files = await files_with_strips(item.spec, locale, services_of(interaction).card_images)
        await interaction.response.send_message(**to_discord(item.spec, locale), files=files, ephemeral=True)


def refused_needs(code: int, channel: Any, item: OutboxItem) -> tuple[str, ...]:
    """The permissions a refused post needed: View Channel when the bot cannot see the channel, else
    what creating it needs there (an edit needs no Send Messages: only its author may edit it)."""
    if code == MISSING_ACCESS:
        return ("view_channel",)
    needs = post_needs(in_thread=isinstance(channel, discord.Thread), embeds=bool(item.spec.embeds))
    return needs if item.edit_of is None else tuple(n for n in needs if not n.startswith("send_"))


def guild_of(channel: Any) -> int | None:
    """The server of a channel or thread (None for a DM channel): its public posts speak its language."""
    guild = getattr(channel, "guild", None)
    return getattr(guild, "id", None)


class Deliverer:
    def __init__(self, client: discord.Client, services: Services) -> None:
        self.client = client
        self.services = services
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()  # one pass at a time, or two passes could send the same row twice
        self.delivered = 0
        self._next_at: datetime | None = None  # when the last pass's final read saw the next item due
        self._sent: list[tuple[int, int]] = []  # sent, not recorded yet: (item id, message id)
        self._held_since: datetime | None = None
        self._riding: asyncio.Future[int] | None = None  # the last pass's record, riding with the next commit

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="outbox-deliverer")
        self.services.db.subscribe(OUTBOX_TOPIC, self.wake)  # a message queued by any commit leaves at once

    async def stop(self) -> None:
        self.services.db.unsubscribe(OUTBOX_TOPIC, self.wake)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self._recorded()  # a clean stop leaves no post to send again
        except Exception:
            log.exception("could not record the last posts sent; they go again, with their nonces")

    def wake(self, *_: Any) -> None:
        self._wake.set()

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        clock = self.services.clock
        while True:
            self._wake.clear()
            try:
                await self.flush(hold=True)
                next_at = self._next_at
            except Exception:
                log.exception("outbox pass failed")
                next_at = None
            await clock.sleep_until(next_at or clock.now() + IDLE_RECHECK, self._wake)

    async def flush(self, *, hold: bool = False) -> int:
        """Deliver everything due now; returns how many messages went out. The pass's last read also tells
        when the next item falls due (`_next_at`), for the loop's sleep.

        The posts sent from one read are recorded together (`_record`), before the next read: one commit
        for a turn's resolution and hand instead of one each. A read that found every item due with none
        queued behind them (`Pending.complete`) is the pass's last once they are all sent: what a second
        read could find, a later commit queued, and that commit wakes the deliverer again. With `hold` (the
        deliverer's own passes) the last record rides with the next commit of anyone's
        (`Outbox.mark_all_sent_soon`) instead of a commit of its own, and the next pass makes sure it
        committed before reading. Either way a post stays unrecorded at most `HOLD` (a rate limit's wait,
        a slow Discord, a quiet bot), so a crash sends again no more than the last second's posts, with
        their nonces."""
        sent = 0
        clock = self.services.clock
        async with self._lock:
            riding = False
            try:
                await self._recorded()
                while True:
                    found = await self.services.outbox.pending(50)
                    self._next_at = found.next_at
                    if not found.items:
                        return sent
                    delivered = 0
                    for item in found.items:  # one at a time: a command's request never waits behind a batch
                        if self._held_since is not None and clock.now() >= self._held_since + HOLD:
                            await self._record()
                        delivered += await self._deliver(item)
                    sent += delivered
                    if found.complete and delivered == len(found.items):
                        riding = hold
                        return sent
                    await self._record()
            finally:
                if riding and self._sent:
                    self._record_soon()
                else:
                    await self._record()

    def _sent_now(self, item_id: int, message_id: int) -> None:
        if not self._sent:
            self._held_since = self.services.clock.now()
        self._sent.append((item_id, message_id))
        self.delivered += 1

    async def _record(self) -> None:
        """Mark the posts sent since the last record as sent, in one transaction."""
        await self._recorded()
        sent, self._sent, self._held_since = self._sent, [], None
        await self.services.outbox.mark_all_sent(sent)

    def _record_soon(self) -> None:
        """`_record`, riding with the next commit; within `HOLD` of the first post it records."""
        assert self._held_since is not None
        held = self.services.clock.now() - self._held_since
        sent, self._sent, self._held_since = self._sent, [], None
        self._riding = self.services.outbox.mark_all_sent_soon(sent, max(HOLD - held, timedelta(0)))

    async def _recorded(self) -> None:
        """The record left riding (`_record_soon`) committed: before a read of the outbox, which would find
        its posts still pending and send them again, and before a record of later posts."""
        riding, self._riding = self._riding, None
        if riding is not None:
            if not riding.done():
                self.services.db.hurry()
            await riding

    async def _deliver(self, item: OutboxItem) -> int:
        outbox = self.services.outbox
        channel: Any = None
        try:
            if item.target.kind == "dm":
                if item.dms_closed:
                    await self._fallback(item)
                    return 0
                channel = await self.client.create_dm(discord.Object(id=item.target.id))
                locale = item.locale or self.services.settings.default_locale
            else:
                channel = self.client.get_channel(item.target.id) or await self.client.fetch_channel(
                    item.target.id
                )
                locale = await guild_locale(self.services, guild_of(channel))
            if item.edit_of is not None:
                return await self._edit(item, channel, locale)
            # discord.py sends `enforce_nonce` with every nonce: a re-send returns the first message.
            kwargs = to_discord(item.spec, locale)
            if item.spec.attachments or item.spec.strips or item.spec.pictures:
                kwargs["files"] = await files_with_strips(item.spec, locale, self.services.card_images)
            message_id = await posts_http.send(self.client, channel.id, kwargs, item.nonce())
        except discord.Forbidden as exc:
            if item.target.kind == "dm" and exc.code == DMS_CLOSED:
                await self._fallback(item)
            elif item.target.kind == "channel" and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
                needs = refused_needs(exc.code, channel, item)
                await outbox.mark_undeliverable(item.id, needs, f"{exc.status} {exc.code} {exc.text}")
            else:
                await outbox.mark_failed(item.id, f"{exc.status} {exc.code} {exc.text}")
            return 0
        except discord.NotFound as exc:
            await outbox.mark_failed(item.id, f"{exc.status} {exc.code} {exc.text}")
            return 0
        except discord.RateLimited as exc:  # longer than MAX_RATELIMIT_WAIT: not before Discord says
            await outbox.mark_retry(item.id, repr(exc), wait=timedelta(seconds=exc.retry_after))
            return 0
        except TRANSIENT as exc:
            await outbox.mark_retry(item.id, repr(exc))
            return 0
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                await outbox.mark_retry(item.id, f"{exc.status} {exc.text}")
            else:
                await outbox.mark_failed(item.id, f"{exc.status} {exc.code} {exc.text}")
            return 0
        self._sent_now(item.id, message_id)
        if item.spec.archive_thread and isinstance(channel, discord.Thread):
            await self._record()  # the game's last post is recorded before its thread closes
            await self._archive(channel)
        return 1

    async def _edit(self, item: OutboxItem, channel: Any, locale: str) -> int:
        """Edit the message an earlier item sent (it left first: one target's items keep their order)."""
        if item.edit_message_id is None:
            await self.services.outbox.mark_failed(item.id, f"item {item.edit_of} was never sent")
            return 0
        kwargs = to_discord(item.spec, locale)
        kwargs.setdefault("view", None)  # no buttons in the new version: remove the old ones
        if item.spec.attachments or item.spec.strips or item.spec.pictures:
            kwargs["attachments"] = await files_with_strips(item.spec, locale, self.services.card_images)
        await posts_http.edit(self.client, channel.id, item.edit_message_id, kwargs)
        self._sent_now(item.id, item.edit_message_id)
        return 1

    @staticmethod
    async def _archive(thread: discord.Thread) -> None:
        """A finished game's thread is archived after its last post; failing that only leaves it open."""
        try:
            await thread.edit(archived=True)
        except (discord.HTTPException, discord.RateLimited) as exc:
            log.warning("could not archive thread %s: %s", thread.id, exc)

    async def _fallback(self, item: OutboxItem) -> None:
        """Post the private "show" button where the game happens; without such a place the DM is dropped.

        The row leaves 'pending' only once the button is posted (or can never be): a crash before that
        makes the next start post it, never lose it."""
        outbox = self.services.outbox
        if item.target.fallback_channel_id is None:
            await outbox.mark_dms_closed(item.id, item.target.id)
            await outbox.mark_failed(item.id, "dms closed, no fallback channel")
            return
        try:
            channel: Any = self.client.get_channel(
                item.target.fallback_channel_id
            ) or await self.client.fetch_channel(item.target.fallback_channel_id)
            locale = await guild_locale(self.services, guild_of(channel))  # a public post: the server's
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=text(item.spec.show_label, locale)
                    if item.spec.show_label
                    else t("outbox.show", locale),
                    custom_id=f"outbox:show:{item.id}",
                    style=discord.ButtonStyle.primary,
                )
            )
            await channel.send(
                t("outbox.dms_closed", locale, mention=f"<@{item.target.id}>"),
                view=view,
                nonce=item.nonce("fallback"),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=item.target.id)]),
            )
        except TRANSIENT as exc:
            await outbox.mark_retry(item.id, repr(exc))
            return
        except discord.HTTPException as exc:  # the fallback channel is gone or closed to the bot
            await outbox.mark_dms_closed(item.id, item.target.id)
            await outbox.mark_failed(item.id, f"fallback: {exc.status} {exc.code} {exc.text}")
            return
        await outbox.mark_dms_closed(item.id, item.target.id)
