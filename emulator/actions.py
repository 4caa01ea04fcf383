"""Scripted user actions: slash commands, autocomplete, buttons, selects, modals and plain messages.

Every action sends one interaction over the gateway and waits for the bot's answer, so a test reads as
a conversation: ``result = await emu.run_command(alice, "profile")`` then assertions on ``result``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from emulator.commands import CHAT_INPUT
from emulator.core import EmulatorCore
from emulator.errors import EmulatorError
from emulator.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionResult,
)
from emulator.modals import modal_components
from emulator.options import Invocation, OptionContext, Resolved, build_options, resolve_command
from emulator.payloads import JsonDict, channel_payload, member_payload, user_payload
from emulator.records import RecordedMessage
from emulator.world import Channel, User

USER_COMMAND, MESSAGE_COMMAND = 2, 3
_SELECT_TYPES = (3, 5, 6, 7, 8)


def as_seen(label: str) -> str:
    """A label as a user reads it on screen: a no-break space (French punctuation, digit groups) looks
    like a space, so a test or a sandbox script names a button with plain spaces."""
    return label.replace("\u00a0", " ").replace("\u202f", " ")


class ActionsMixin(EmulatorCore):
    async def run_command(
        self,
        user: User,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: Channel | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Invoke ``/command [group] [sub]`` as ``user``; names may be base or localized names.

        Option values are Python values (str, int, float, bool, ``User``, ``Channel``, ``Role``, or a
        choice's name); they are typed and validated against the synced declaration.
        """
        channel = self._acting_channel(user, channel)
        invocation = self._resolve(user, channel, command, CHAT_INPUT)
        ctx = OptionContext(self.world, user, channel.guild, Resolved())
        data = self._command_data(invocation, build_options(invocation, options or {}, ctx), ctx.resolved)
        record = await self._send(APPLICATION_COMMAND, user, channel, invocation.display, data, locale=locale)
        result = await self._wait(record)
        self.answered(result)
        return result

    async def autocomplete(
        self,
        user: User,
        command: str,
        option: str,
        value: Any = "",
        *,
        options: Mapping[str, Any] | None = None,
        channel: Channel | None = None,
        locale: str | None = None,
    ) -> list[JsonDict]:
        """Type ``value`` into ``option`` and return the choices (``{"name", "value"}``) the bot offered."""
        channel = self._acting_channel(user, channel)
        invocation = self._resolve(user, channel, command, CHAT_INPUT)
        ctx = OptionContext(self.world, user, channel.guild, Resolved(), autocomplete=True)
        values = {**(options or {}), option: value}
        built = build_options(invocation, values, ctx, focused=option)
        data = self._command_data(invocation, built, ctx.resolved)
        record = await self._send(AUTOCOMPLETE, user, channel, invocation.display, data, locale=locale)
        return (await self._wait(record)).choices

    async def run_context_menu(
        self,
        user: User,
        name: str,
        target: User | RecordedMessage,
        *,
        channel: Channel | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Use a user (target ``User``) or message (target ``RecordedMessage``) context-menu command."""
        channel = self._acting_channel(user, channel)
        kind = USER_COMMAND if isinstance(target, User) else MESSAGE_COMMAND
        invocation = self._resolve(user, channel, name, kind)
        resolved = Resolved()
        if isinstance(target, User):
            resolved.add_user(self.world, target, channel.guild)
        else:
            resolved.messages[str(target.id)] = target.payload()
        data = self._command_data(invocation, [], resolved)
        data["target_id"] = str(target.id)
        name = invocation.command.name
        record = await self._send(APPLICATION_COMMAND, user, channel, name, data, locale=locale)
        return await self._wait(record)

    async def click(
        self,
        user: User,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
        channel: Channel | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Click a button by label or custom_id on the newest message ``user`` can see that has it."""
        if label is None and custom_id is None:
            raise EmulatorError("click() needs a label or a custom_id")

        def wanted(component: JsonDict) -> bool:
            if component.get("type") != 2 or component.get("style") in (5, 6):
                return False
            if custom_id is not None:
                return component.get("custom_id") == custom_id
            return as_seen(str(component.get("label"))) == as_seen(label or "")

        what = f"button {label!r}" if label is not None else f"button with custom_id {custom_id!r}"
        source, button = self._find_component(user, channel, message, wanted, what)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._component(user, source, data, locale)

    async def select(
        self,
        user: User,
        option_label: str | Sequence[str] | None = None,
        *,
        values: Sequence[str] | None = None,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
        channel: Channel | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Pick options of a string select by label (or raw ``values``), like a user would."""
        labels = [option_label] if isinstance(option_label, str) else list(option_label or [])
        if not labels and values is None:
            raise EmulatorError("select() needs option labels or values")

        def chosen(component: JsonDict) -> list[str] | None:
            options = component.get("options") or []
            if values is not None:
                known = {str(o.get("value")) for o in options}
                return list(values) if set(values) <= known else None
            by_label = {as_seen(str(o.get("label"))): str(o.get("value")) for o in options}
            seen = [as_seen(lab) for lab in labels]
            return [by_label[lab] for lab in seen] if all(lab in by_label for lab in seen) else None

        def wanted(component: JsonDict) -> bool:
            if component.get("type") != 3:
                return False
            if custom_id is not None and component.get("custom_id") != custom_id:
                return False
            return chosen(component) is not None

        what = f"select offering {labels or list(values or [])}"
        source, menu = self._find_component(user, channel, message, wanted, what)
        picked = chosen(menu) or []
        low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
        if not low <= len(picked) <= high:
            raise EmulatorError(f"select {menu.get('custom_id')!r} takes {low}-{high} values, got {picked}")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": picked}
        return await self._component(user, source, data, locale)

    async def forge_component(
        self,
        user: User,
        custom_id: str,
        *,
        channel: Channel | None = None,
        values: Sequence[str] | None = None,
        locale: str | None = None,
    ) -> InteractionResult:
        """Click a component with any custom_id (a select choosing ``values`` when given), as a modified
        client could: the click comes from a private message of the bot, in ``channel``, that carries
        only that component, so the interaction runs in that channel's server."""
        where = self._acting_channel(user, channel)
        if values is None:
            component: JsonDict = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
        else:
            options = [{"label": v, "value": v} for v in dict.fromkeys(values)]
            component = {"type": 3, "custom_id": custom_id, "options": options, "max_values": len(options)}
        payload: JsonDict = {"content": "?", "components": [{"type": 1, "components": [component]}]}
        source = self.create_message(where, self.world.bot, payload, ephemeral_to=user)
        data: JsonDict = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = list(values)
        return await self._component(user, source, data, locale)

    async def submit_modal(
        self,
        user: User,
        values: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
    ) -> InteractionResult:
        """Fill and submit the latest modal the bot opened for ``user``; keys are custom_ids or labels."""
        opener = self.open_modals.pop(user.id, None)
        if opener is None or opener.modal is None:
            raise EmulatorError(f"no modal is open for {user.name}")
        modal = opener.modal
        data = {"custom_id": modal["custom_id"], "components": modal_components(modal, dict(values or {}))}
        record = await self._send(
            MODAL_SUBMIT,
            user,
            opener.channel,
            str(modal["custom_id"]),
            data,
            locale=locale,
            source=opener.source_message,
            parent=opener,
        )
        return await self._wait(record)

    async def post_message(
        self, user: User, content: str, *, channel: Channel | None = None
    ) -> RecordedMessage:
        """A user writes a plain message (MESSAGE_CREATE); use ``settle()`` to collect the bot's reaction."""
        channel = self._acting_channel(user, channel)
        message = self.create_message(channel, user, {"content": content})
        await self.emit_message("MESSAGE_CREATE", message)
        await self.quiesce()
        return message

    # -- internals --------------------------------------------------------------------------------------

    def _acting_channel(self, user: User, channel: Channel | None) -> Channel:
        """Remember where each user acts, so later clicks look at the channel they are reading."""
        if channel is None:
            channel = self.acting_in.get(user.id)
        if channel is None:
            if not self.world.guilds:
                raise EmulatorError("no guild exists; call add_guild() first or pass a DM channel")
            channel = self.world.guilds[0].default_channel
        if channel.recipient is not None and channel.recipient is not user:
            raise EmulatorError(f"{user.name} cannot act in {channel.recipient.name}'s DM")
        self.acting_in[user.id] = channel
        return channel

    def _resolve(self, user: User, channel: Channel, path: str, kind: int) -> Invocation:
        guild = channel.guild
        commands = self.commands.available(guild.id if guild else None)
        invocation = resolve_command(commands, path, kind=kind)
        data = invocation.command.data
        context = 0 if guild is not None else 1
        contexts = data.get("contexts")
        forbidden_in_dm = guild is None and data.get("dm_permission") is False
        if (contexts is not None and context not in contexts) or forbidden_in_dm:
            where = "in DMs" if guild is None else "in guilds"
            raise EmulatorError(f"{invocation.display} cannot be used {where}")
        required = data.get("default_member_permissions")
        if self.enforce_default_permissions and guild is not None and required is not None:
            needed = int(required)
            granted = self.world.member_permissions(user, guild)
            if granted & needed != needed or (needed == 0 and not user.admin):
                raise EmulatorError(f"{user.name} lacks the permissions to see {invocation.display}")
        return invocation

    @staticmethod
    def _command_data(invocation: Invocation, options: list[JsonDict], resolved: Resolved) -> JsonDict:
        command = invocation.command
        data: JsonDict = {"id": str(command.id), "name": command.name, "type": command.type}
        if options:
            data["options"] = options
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        payload = resolved.payload()
        if payload:
            data["resolved"] = payload
        return data

    def _find_component(
        self,
        user: User,
        channel: Channel | None,
        message: RecordedMessage | None,
        wanted: Callable[[JsonDict], bool],
        what: str,
    ) -> tuple[RecordedMessage, JsonDict]:
        if message is not None:
            private_to = message.ephemeral_to or message.channel.recipient
            if message.deleted or private_to not in (None, user):
                raise EmulatorError(f"{user.name} cannot see {message!r}")
            candidates = [message]
        else:
            where = self._acting_channel(user, channel)
            dm = self.world.dm_channels.get(user.id)
            candidates = [
                m
                for m in reversed(self.records.messages)
                if not m.deleted
                and (m.ephemeral_to is user or (m.ephemeral_to is None and m.channel in (where, dm)))
            ]
        disabled = None
        for candidate in candidates:
            for component in candidate.all_components():
                if wanted(component):
                    if not component.get("disabled"):
                        return candidate, component
                    disabled = disabled or candidate
        if disabled is not None:
            raise EmulatorError(f"{what} is disabled on the latest message offering it: {disabled!r}")
        raise EmulatorError(f"no {what} on any message {user.name} can see here")

    async def _component(
        self, user: User, source: RecordedMessage, data: JsonDict, locale: str | None
    ) -> InteractionResult:
        custom_id = str(data["custom_id"])
        record = await self._send(
            MESSAGE_COMPONENT, user, source.channel, custom_id, data, locale=locale, source=source
        )
        return await self._wait(record)

    async def _send(
        self,
        kind: int,
        user: User,
        channel: Channel,
        name: str,
        data: JsonDict,
        *,
        locale: str | None,
        source: RecordedMessage | None = None,
        parent: InteractionRecord | None = None,
    ) -> InteractionRecord:
        guild_id = None if channel.guild is None else channel.guild.id
        if not self.gateway.connected_for(guild_id):
            where = "DMs" if guild_id is None else f"guild {guild_id}"
            raise EmulatorError(
                f"no gateway connection receives {where} (await emu.wait_ready() first; with shards, "
                "start the shard of that guild)"
            )
        interaction_id = self.world.ids.next()
        record = InteractionRecord(
            id=interaction_id,
            token=f"interaction-token-{interaction_id}",
            type=kind,
            user=user,
            channel=channel,
            guild=channel.guild,
            name=name,
            source_message=source,
            parent=parent,
        )
        record.payload = self._interaction_payload(record, data, locale or user.locale)
        self.register_interaction(record)
        record.shards = await self.gateway.dispatch("INTERACTION_CREATE", record.payload)
        return record

    def _interaction_payload(self, record: InteractionRecord, data: JsonDict, locale: str) -> JsonDict:
        world, user, guild, channel = self.world, record.user, record.guild, record.channel
        payload: JsonDict = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": record.type,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": locale,
            "channel_id": str(channel.id),
            "channel": channel_payload(world, channel, permissions_for=user),
            "app_permissions": str(world.bot_channel_permissions(channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild is not None else 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = member_payload(world, user, guild, permissions=True)
        else:
            payload["user"] = user_payload(user)
        if record.source_message is not None:
            payload["message"] = record.source_message.payload()
        return payload

    async def _wait(self, record: InteractionRecord, idle: float = 0.025) -> InteractionResult:
        """Wait for the answer; a bare deferred update (type 6) also counts as answered once idle.

        While other actions wait too, "idle" and the final ``quiesce`` look at this interaction's own
        requests only: with users acting at once the bot as a whole is never idle.
        """
        self._waiting += 1
        try:
            return await self._wait_answer(record, idle)
        finally:
            self._waiting -= 1

    async def _wait_answer(self, record: InteractionRecord, idle: float) -> InteractionResult:
        limit = self.action_timeout
        try:
            async with asyncio.timeout(limit):
                while not record.answered.is_set():
                    bare = record.callback_type == DEFERRED_UPDATE_MESSAGE and self.bare_deferred_updates
                    if bare and self._idle_for(record, idle):
                        break
                    try:
                        async with asyncio.timeout(idle):
                            await record.answered.wait()
                    except TimeoutError:
                        continue
        except TimeoutError:
            state = "no callback" if record.callback_type is None else f"callback type {record.callback_type}"
            raise EmulatorError(
                f"{record.user.name}'s {record.name!r} got no complete answer within {limit}s ({state})"
            ) from None
        if record.failure is not None:
            raise EmulatorError(f"{record.name!r} failed: {record.failure}")
        await self.quiesce(record=record)
        return InteractionResult(record)

    def _idle_for(self, record: InteractionRecord, idle: float) -> bool:
        """No request for ``idle`` seconds: from the bot, or with other actions waiting, for ``record``."""
        now = asyncio.get_running_loop().time()
        if self._waiting > 1:
            return not record.inflight and now - record.last_request_end >= idle
        return not self._inflight and now - self._last_activity >= idle
