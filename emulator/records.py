"""What the bot did: every message it produced (in its final state) and every request it made."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulator.payloads import JsonDict, user_payload
from emulator.world import Channel, User, iso_timestamp

if TYPE_CHECKING:
    from emulator.interactions import InteractionRecord

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self) -> JsonDict:
        url = f"https://cdn.discordapp.invalid/attachments/{self.id}/{self.filename}"
        data: JsonDict = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass
class RequestRecord:
    """One REST call, kept so tests can assert on traffic the records do not capture."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[str] = field(default_factory=list)
    status: int = 0
    at: float = 0.0  # when it arrived: the emulator's event-loop time, in seconds
    token: str | None = None  # its Authorization header: which bot sent it

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


def walk_components(components: list[JsonDict]) -> Iterator[JsonDict]:
    """Depth-first over action rows, sections, containers and labels alike."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(eq=False)
class RecordedMessage:
    """A message in its latest state; ``history`` holds the states it had before each edit."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JsonDict] = field(default_factory=list)
    components: list[JsonDict] = field(default_factory=list)
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    ephemeral_to: User | None = None
    interaction: InteractionRecord | None = None
    message_reference: JsonDict | None = None
    poll: JsonDict | None = None
    type: int = 0
    tts: bool = False
    webhook_id: int | None = None
    edited_id: int | None = None
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    history: list[JsonDict] = field(default_factory=list)
    uploads: list[Attachment] = field(default_factory=list)
    """Every file ever attached, with its bytes, including those a later edit removed."""

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """A deferred ("Bot is thinking…") response that has not been filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def where(self) -> tuple[str, str]:
        """``("channel"|"thread"|"dm"|"ephemeral", name)``: where a reader would find this message."""
        if self.ephemeral_to is not None:
            return ("ephemeral", self.ephemeral_to.name)
        return (self.channel.kind, self.channel.label)

    @property
    def embed(self) -> JsonDict | None:
        return self.embeds[0] if self.embeds else None

    def all_components(self) -> list[JsonDict]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[JsonDict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def button_labels(self) -> list[str]:
        return [str(button.get("label") or "") for button in self.buttons]

    @property
    def selects(self) -> list[JsonDict]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def select_options(self) -> list[str]:
        return [str(o.get("label")) for select in self.selects for o in select.get("options") or []]

    def snapshot(self) -> JsonDict:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachments],
        }

    def payload(self) -> JsonDict:
        """The message as Discord returns it from REST and includes it in component interactions."""
        data: JsonDict = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": user_payload(self.author),
            "content": self.content,
            "timestamp": iso_timestamp(self.id),
            "edited_timestamp": None if self.edited_id is None else iso_timestamp(self.edited_id),
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.poll is not None:
            data["poll"] = self.poll
        if self.channel.is_thread:
            data["position"] = 0
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata_payload()
        return data

    def render(self, *, header: bool = False) -> str:
        from emulator.render import render_message

        return render_message(self, header=header)

    def __repr__(self) -> str:
        kind, name = self.where
        return f"<RecordedMessage id={self.id} {kind}:{name} content={self.content[:40]!r}>"


class Records:
    """Append-only stores with the queries tests and the sandbox transcript need."""

    def __init__(self) -> None:
        self.messages: list[RecordedMessage] = []
        self.requests: list[RequestRecord] = []
        self._by_id: dict[int, RecordedMessage] = {}

    def add(self, message: RecordedMessage) -> None:
        self.messages.append(message)
        self._by_id[message.id] = message

    def get(self, message_id: int) -> RecordedMessage | None:
        message = self._by_id.get(message_id)
        return None if message is None or message.deleted else message

    def live(self) -> Iterator[RecordedMessage]:
        return (message for message in self.messages if not message.deleted)

    def channel_messages(self, channel: Channel) -> list[RecordedMessage]:
        """Public messages of a channel, thread or DM channel, oldest first (ephemerals excluded)."""
        return [m for m in self.live() if m.channel is channel and m.ephemeral_to is None]

    def ephemeral_messages(self, user: User) -> list[RecordedMessage]:
        return [m for m in self.live() if m.ephemeral_to is user]

    def visible_to(self, user: User, dm_channel: Channel | None) -> list[RecordedMessage]:
        """Guild messages (users belong to every guild), the user's DMs and the user's ephemerals."""
        visible = []
        for message in self.live():
            if message.ephemeral_to is not None:
                if message.ephemeral_to is user:
                    visible.append(message)
            elif message.channel.is_dm:
                if message.channel is dm_channel:
                    visible.append(message)
            else:
                visible.append(message)
        return visible

    def clear(self) -> None:
        self.messages.clear()
        self.requests.clear()
        self._by_id.clear()

    def forget(self, messages: list[RecordedMessage], tokens: set[str]) -> None:
        """Drop these messages and the requests that carried one of `tokens` (interactions' traffic)."""
        gone = {id(message) for message in messages}
        if gone:
            self.messages = [m for m in self.messages if id(m) not in gone]
            for message in messages:
                self._by_id.pop(message.id, None)
        self.requests = [r for r in self.requests if tokens.isdisjoint(r.path.split("/"))]
