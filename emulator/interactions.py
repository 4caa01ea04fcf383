"""Interactions the emulator sent to the bot, and the answers it got back.

An action is "answered" once the callback arrived and, for deferrals (types 5 and 6), once the bot also
followed up or edited the original response: that is the moment a human would see the bot's reply.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from emulator.payloads import JsonDict, user_payload
from emulator.world import Channel, Guild, User

if TYPE_CHECKING:
    from emulator.records import RecordedMessage

# Interaction types
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
DEFERRALS = (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

# Discord's "Receiving and Responding" page: "you must send an initial response within 3 seconds of
# receiving the event", and "Interaction tokens are valid for 15 minutes".
RESPONSE_DEADLINE_MS = 3_000
TOKEN_LIFETIME_MS = 15 * 60 * 1000


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    name: str
    """Command path for commands and autocomplete, custom_id for components and modals."""
    payload: JsonDict = field(default_factory=dict)
    source_message: RecordedMessage | None = None
    parent: InteractionRecord | None = None
    callback_type: int | None = None
    original: RecordedMessage | None = None
    """The message ``@original`` refers to: the response, or for components the message clicked."""
    messages: list[RecordedMessage] = field(default_factory=list)
    choices: list[JsonDict] | None = None
    modal: JsonDict | None = None
    followed_up: bool = False
    shards: list[tuple[int, int] | None] = field(default_factory=list)
    """The shards (``(shard_id, num_shards)``, None unsharded) of the gateway sessions it was sent to."""
    failure: str | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    inflight: int = 0
    """REST requests carrying this interaction's token (callback, follow-ups, edits) being served now."""
    last_request_end: float = 0.0
    """Event-loop time at which the last of those requests was served (0 before any)."""

    def touch(self, message: RecordedMessage) -> None:
        """Remember a message this interaction created or edited and re-check completion."""
        if message not in self.messages:
            self.messages.append(message)
        self.followed_up = True
        self.check_answered()

    def acknowledge(self, callback_type: int) -> None:
        self.callback_type = callback_type
        self.check_answered()

    def check_answered(self) -> None:
        if self.callback_type is None:
            return
        if self.callback_type in DEFERRALS and not self.followed_up:
            return
        self.answered.set()

    @property
    def created_ms(self) -> int:
        """When Discord created the interaction: the time its snowflake id carries."""
        return self.id >> 22

    def late_for_first_response(self, now_ms: int) -> bool:
        return now_ms - self.created_ms > RESPONSE_DEADLINE_MS

    def token_expired(self, now_ms: int) -> bool:
        return now_ms - self.created_ms > TOKEN_LIFETIME_MS

    @property
    def ephemeral_context(self) -> bool:
        return self.source_message is not None and self.source_message.ephemeral

    def metadata_payload(self) -> JsonDict:
        """``interaction_metadata`` as Discord attaches it to response messages."""
        owners = {"0": str(self.guild.id)} if self.guild is not None else {"1": str(self.user.id)}
        data: JsonDict = {
            "id": str(self.id),
            "type": self.type,
            "user": user_payload(self.user),
            "authorizing_integration_owners": owners,
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.name.lstrip("/")
            data["command_type"] = 1
        if self.original is not None and self.original.interaction is self:
            data["original_response_message_id"] = str(self.original.id)
        if self.type == MESSAGE_COMPONENT and self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        if self.type == MODAL_SUBMIT and self.parent is not None:
            data["triggering_interaction_metadata"] = self.parent.metadata_payload()
        return data

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} {self.name!r} by {self.user.name}>"


@dataclass
class InteractionResult:
    """What a scripted action produced; ``messages`` stays live as later follow-ups arrive."""

    interaction: InteractionRecord

    @property
    def messages(self) -> list[RecordedMessage]:
        return [message for message in self.interaction.messages if not message.deleted]

    @property
    def message(self) -> RecordedMessage | None:
        messages = self.messages
        return messages[0] if messages else None

    @property
    def content(self) -> str:
        message = self.message
        return "" if message is None else message.content

    @property
    def embeds(self) -> list[JsonDict]:
        message = self.message
        return [] if message is None else message.embeds

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return message is not None and message.ephemeral

    @property
    def callback_type(self) -> int | None:
        return self.interaction.callback_type

    @property
    def modal(self) -> JsonDict | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[JsonDict]:
        return list(self.interaction.choices or [])

    def render(self) -> str:
        if self.modal is not None:
            return f"(modal opened: {self.modal.get('title')})"
        return "\n".join(message.render(header=True) for message in self.messages)

    def __repr__(self) -> str:
        name, callback = self.interaction.name, self.callback_type
        return f"<InteractionResult {name!r} callback={callback} {self.messages!r}>"
