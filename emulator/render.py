"""Plain-text rendering of recorded messages, for sandbox transcripts and readable test failures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.payloads import JsonDict

if TYPE_CHECKING:
    from emulator.records import RecordedMessage

_SELECT_KINDS = {
    3: "select",
    5: "user select",
    6: "role select",
    7: "mentionable select",
    8: "channel select",
}


def render_message(message: RecordedMessage, *, header: bool = False) -> str:
    """Content, embeds and components, one element per line; ``header`` prefixes location and author."""
    lines: list[str] = []
    if message.loading:
        lines.append(f"{message.author.name} is thinking…")
    elif message.content:
        lines.extend(message.content.splitlines() or [""])
    for embed in message.embeds:
        lines.extend(_render_embed(embed))
    for attachment in message.attachments:
        lines.append(f"[file: {attachment.filename}]")
    if message.poll is not None:
        lines.extend(_render_poll(message.poll))
    lines.extend(_render_components(message.components))
    if message.reactions:
        lines.append("reactions: " + " ".join(message.reactions))
    if not lines:
        lines.append("(empty message)")
    if header:
        kind, name = message.where
        place = {"channel": f"#{name}", "thread": f"#{name} (thread)", "dm": f"DM @{name}"}.get(
            kind, f"only @{name} sees"
        )
        prefix = f"[{place}] {message.author.name}: "
        lines[0] = prefix + lines[0]
        indent = " " * 4
        lines = [lines[0], *(indent + line for line in lines[1:])]
    return "\n".join(lines)


def _render_embed(embed: JsonDict) -> list[str]:
    lines: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(f"| {author}")
    if embed.get("title"):
        lines.append(f"| ** {embed['title']} **")
    for line in str(embed.get("description") or "").splitlines():
        lines.append(f"| {line}")
    for field in embed.get("fields") or []:
        name, value = field.get("name", ""), str(field.get("value", ""))
        value_lines = value.splitlines() or [""]
        lines.append(f"| {name}: {value_lines[0]}")
        lines.extend(f"|   {line}" for line in value_lines[1:])
    if (embed.get("image") or {}).get("url"):
        lines.append(f"| [image: {embed['image']['url']}]")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"| -- {footer}")
    return lines or ["| (empty embed)"]


def _render_poll(poll: JsonDict) -> list[str]:
    question = (poll.get("question") or {}).get("text", "")
    answers = [str((a.get("poll_media") or {}).get("text", "")) for a in poll.get("answers") or []]
    return [f"poll: {question}", *(f"  ( ) {answer}" for answer in answers)]


def _render_components(components: list[JsonDict]) -> list[str]:
    lines: list[str] = []
    for component in components:
        kind = component.get("type")
        if kind == 1:
            row = [_render_inline(child) for child in component.get("components") or []]
            lines.append(" ".join(row))
        elif kind == 10:
            lines.extend(str(component.get("content", "")).splitlines())
        elif kind in (9, 17):
            lines.extend(_render_components(component.get("components") or []))
            accessory = component.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") in (2, 3, 5, 6, 7, 8):
                lines.append(_render_inline(accessory))
        elif kind == 14:
            lines.append("---")
        else:
            lines.append(_render_inline(component))
    return lines


def _render_inline(component: JsonDict) -> str:
    kind = component.get("type")
    if kind == 2:
        emoji = (component.get("emoji") or {}).get("name")
        label = " ".join(str(part) for part in (emoji, component.get("label")) if part)
        if component.get("url"):
            label += f" -> {component['url']}"
        if component.get("disabled"):
            label += " (disabled)"
        return f"[{label}]"
    if kind in _SELECT_KINDS:
        placeholder = component.get("placeholder") or _SELECT_KINDS[kind]
        options = [
            f"*{o.get('label')}" if o.get("default") else str(o.get("label"))
            for o in component.get("options") or []
        ]
        disabled = " (disabled)" if component.get("disabled") else ""
        listed = f": {' / '.join(options)}" if options else ""
        return f"<{placeholder}{listed}>{disabled}"
    return f"<component type {kind}>"
