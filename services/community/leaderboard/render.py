"""The server's board across games (`/leaderboard`), as a MessageSpec of localizable Text."""

from __future__ import annotations

from services.community.leaderboard.service import ServerBoard, ServerLine
from services.infra.erased import mention
from services.infra.games import GameRegistry
from services.infra.messages import Embed, MessageSpec, Number, Text


def game_place(game: str, place: int, registry: GameRegistry) -> Text:
    return Text("leaderboard.server.place", {"game": registry.name(game), "place": place})


def line_text(line: ServerLine, registry: GameRegistry) -> Text:
    return Text(
        "leaderboard.server.line",
        {
            "place": line.place,
            "player": mention(line.player_id),
            "points": Number(line.points),
            "games": [game_place(game, place, registry) for game, place in line.places],
        },
    )


def board_spec(board: ServerBoard, registry: GameRegistry) -> MessageSpec:
    if not board.lines:
        body = Text("leaderboard.server.empty")
    else:
        lines = [line_text(line, registry) for line in board.lines]
        if board.viewer is not None:
            lines += [Text.raw("…"), line_text(board.viewer, registry)]
        if board.players > len(board.lines):
            lines.append(Text("leaderboard.server.more", {"count": board.players - len(board.lines)}))
        lines.append(Text("leaderboard.server.how"))
        body = Text.lines(lines)
    return MessageSpec(embeds=(Embed(title=Text("leaderboard.server.title"), description=body),))
