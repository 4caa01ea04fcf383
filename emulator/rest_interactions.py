"""Interaction callbacks and the interaction webhook (follow-ups, ``@original`` edits).

Mirrors Discord's rules that matter to a bot: one callback per interaction, follow-ups only after it,
the first follow-up after a "thinking" deferral *replaces* the loading message, and ``@original`` of a
component interaction answered with type 6/7 is the message holding the component.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.errors import (
    ALREADY_ACKNOWLEDGED,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    invalid_form,
)
from emulator.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    InteractionRecord,
)
from emulator.limits import check_callback
from emulator.messages import fill_message, is_ephemeral, validate_modal
from emulator.payloads import JsonDict
from emulator.records import RecordedMessage
from emulator.rest import NO_CONTENT, Call, Reply, Router

if TYPE_CHECKING:
    from emulator.core import EmulatorCore

_CHAT_INPUT_COMMAND_MESSAGE = 20
INVALID_WEBHOOK_TOKEN = 50027
"""Discord's JSON error code for a webhook token it no longer accepts ("Opcodes and Status Codes" page);
an interaction token past its 15 minutes gets it, with HTTP 401."""


class InteractionRoutes:
    """The routes of interaction callbacks and of the interaction webhook, on one emulator's state."""

    def __init__(self, core: EmulatorCore) -> None:
        self.core = core
        self.world = core.world

    def interaction_of(self, call: Call) -> InteractionRecord:
        record = self.core.interaction_by_token(call.params["token"])
        if record is None or record.id != call.id("interaction_id"):
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction", bot_bug=True)
        if record.callback_type is None and record.late_for_first_response(self.world.ids.now_ms()):
            text = "Unknown interaction (first response more than 3 s after the interaction)"
            raise ApiError(404, UNKNOWN_INTERACTION, text, bot_bug=True)
        return record

    def webhook_of(self, call: Call) -> InteractionRecord:
        record = self.core.interaction_by_token(call.params["token"])
        if record is None or call.id("application_id") != self.world.application_id:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook", bot_bug=True)
        if record.token_expired(self.world.ids.now_ms()):
            text = "Invalid Webhook Token (interaction token older than 15 minutes)"
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, text, bot_bug=True)
        if record.callback_type is None:
            text = "Unknown Webhook (interaction not acknowledged yet)"
            raise ApiError(404, UNKNOWN_WEBHOOK, text, bot_bug=True)
        return record

    def target_of(self, call: Call, record: InteractionRecord) -> RecordedMessage:
        raw = call.params["message_id"]
        if raw == "@original":
            message = record.original
        else:
            found = self.core.records.get(call.id("message_id"))
            message = found if found is not None and _owned_by_webhook(found, record) else None
        if message is None or message.deleted:
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message", bot_bug=True)
        return message

    async def emit(self, event: str, message: RecordedMessage) -> None:
        await self.core.emit_message(event, message)

    async def callback(self, call: Call) -> Reply:
        record = self.interaction_of(call)
        if record.callback_type is not None:
            text = "Interaction has already been acknowledged."
            raise ApiError(400, ALREADY_ACKNOWLEDGED, text, bot_bug=True)
        body = call.body()
        kind = int(body.get("type") or 0)
        data: JsonDict = body.get("data") or {}
        allowed = _allowed_callbacks(record)
        if kind not in allowed:
            raise invalid_form(f"callback type {kind} is not valid for interaction type {record.type}")
        check_callback(kind, data, record.payload.get("data") or {})
        resource: JsonDict | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            deferred = kind == DEFERRED_CHANNEL_MESSAGE
            message = self.core.create_message(
                record.channel,
                self.world.bot,
                {"flags": data.get("flags") or 0} if deferred else data,
                [] if deferred else call.files,
                ephemeral_to=record.user if is_ephemeral(data) else None,
                interaction=record,
                message_type=_CHAT_INPUT_COMMAND_MESSAGE if record.type == APPLICATION_COMMAND else 0,
                loading=deferred,
            )
            record.original = message
            record.acknowledge(kind)
            if not deferred:
                record.touch(message)
            resource = {"type": kind, "message": message.payload()}
            await self.emit("MESSAGE_CREATE", message)
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = record.source_message
            assert source is not None
            record.original = source
            if kind == UPDATE_MESSAGE:
                fill_message(source, data, call.files, self.world.ids, editing=True)
                record.acknowledge(kind)
                record.touch(source)
                resource = {"type": kind, "message": source.payload()}
                await self.emit("MESSAGE_UPDATE", source)
            else:
                record.acknowledge(kind)
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise invalid_form("autocomplete can return at most 25 choices")
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise invalid_form("autocomplete choice names must be 1-100 characters")
            record.choices = choices
            record.acknowledge(kind)
        elif kind == MODAL:
            validate_modal(data)
            record.modal = data
            self.core.open_modals[record.user.id] = record
            record.acknowledge(kind)
        if not call.flag("with_response"):
            return NO_CONTENT
        return Reply(body=_callback_body(record, kind, resource))

    async def follow_up(self, call: Call) -> Reply:
        record = self.webhook_of(call)
        payload = call.body()
        original = record.original
        if record.callback_type == DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
            fill_message(original, payload, call.files, self.world.ids, editing=True)
            record.touch(original)
            await self.emit("MESSAGE_UPDATE", original)
            message = original
        else:
            channel = record.channel
            if "thread_id" in call.query:
                thread = self.world.channels.get(int(call.query["thread_id"]))
                if thread is None or thread.parent is not channel:
                    raise invalid_form("thread_id does not name a thread of the interaction channel")
                channel = thread
            message = self.core.create_message(
                channel,
                self.world.bot,
                payload,
                call.files,
                ephemeral_to=record.user if is_ephemeral(payload) else None,
                interaction=record,
            )
            record.touch(message)
            await self.emit("MESSAGE_CREATE", message)
        if not call.flag("wait"):
            return NO_CONTENT
        return Reply(body=message.payload())

    async def get_message(self, call: Call) -> Reply:
        record = self.webhook_of(call)
        return Reply(body=self.target_of(call, record).payload())

    async def edit_message(self, call: Call) -> Reply:
        record = self.webhook_of(call)
        message = self.target_of(call, record)
        fill_message(message, call.body(), call.files, self.world.ids, editing=True)
        record.touch(message)
        await self.emit("MESSAGE_UPDATE", message)
        return Reply(body=message.payload())

    async def delete_message(self, call: Call) -> Reply:
        record = self.webhook_of(call)
        message = self.target_of(call, record)
        message.deleted = True
        record.followed_up = True
        record.check_answered()
        await self.emit("MESSAGE_DELETE", message)
        return NO_CONTENT


def register(router: Router, core: EmulatorCore) -> None:
    handlers = InteractionRoutes(core)
    router.add("POST", "/interactions/{interaction_id}/{token}/callback", handlers.callback)
    router.add("POST", "/webhooks/{application_id}/{token}", handlers.follow_up)
    router.add("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", handlers.get_message)
    router.add("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", handlers.edit_message)
    router.add("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", handlers.delete_message)


def _allowed_callbacks(record: InteractionRecord) -> tuple[int, ...]:
    if record.type == AUTOCOMPLETE:
        return (AUTOCOMPLETE_RESULT,)
    updates = (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) if record.source_message is not None else ()
    modal = () if record.type == MODAL_SUBMIT else (MODAL,)
    return (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, *updates, *modal)


def _callback_body(record: InteractionRecord, kind: int, resource: JsonDict | None) -> JsonDict:
    """The ``with_response=true`` body that discord.py turns into ``InteractionCallbackResponse``."""
    interaction: JsonDict = {"id": str(record.id), "type": record.type}
    message = record.original
    if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
        interaction["response_message_id"] = str(message.id)
        interaction["response_message_loading"] = kind == DEFERRED_CHANNEL_MESSAGE
        interaction["response_message_ephemeral"] = message.ephemeral
    body: JsonDict = {"interaction": interaction}
    if resource is not None:
        body["resource"] = resource
    return body


def _owned_by_webhook(message: RecordedMessage, record: InteractionRecord) -> bool:
    """An interaction token reaches the app's webhook messages in its channel (ephemerals: its user's)."""
    if message is record.original or message.interaction is record:
        return True
    if message.webhook_id is None or message.channel is not record.channel:
        return False
    return message.ephemeral_to is None or message.ephemeral_to is record.user
