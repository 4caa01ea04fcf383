"""What the HOSS arena shows (registration, the final, the standings), as MessageSpecs of localizable
Text."""

from __future__ import annotations

from core.i18n import format_int
from engine.hoss import SHOWN_FROM
from services.hoss.arena.posts import Final
from services.hoss.arena.seasons import Entry, Registration, Standings
from services.infra.messages import Day, Embed, EmbedField, MessageSpec, Text


def registration_spec(registration: Registration, slots: tuple[int, int]) -> MessageSpec:
    key = "hoss.arena.registered" if registration.fresh else "hoss.arena.saved"
    params = {
        "attack": slots[0],
        "defence": slots[1],
        "season": Day(registration.season),
        "closes": Text.raw(f"<t:{int(registration.closes_at.timestamp())}:F>"),
        "copies": len(registration.locked),
        "commitment": registration.commitment,
    }
    return MessageSpec(content=Text(key, params))


def standing_line(entry: Entry, me: int, locale: str) -> Text:
    key = "hoss.arena.standings.mine" if entry.player_id == me else "hoss.arena.standings.line"
    params = {
        "place": format_int(entry.place or 0, locale),
        "player": f"<@{entry.player_id}>",
        "points": format_int(entry.points, locale),
        "wins": format_int(entry.attack_wins, locale),
    }
    return Text(key, params)


def final_spec(final: Final, registered: int, locale: str) -> MessageSpec:
    """The season that ended last: the player's final place and reward, the prize places, and how to
    take part in the new one (« il faut se réinscrire pour la nouvelle semaine »)."""
    board = final.board
    if final.me is None:
        mine = Text("hoss.arena.standings.last_absent")
    else:
        mine = Text(
            "hoss.arena.standings.last_mine",
            {
                "place": format_int(final.me.place, locale),
                "players": format_int(board.registered, locale),
                "points": format_int(final.me.points, locale),
                "reward": format_int(final.me.reward or 0, locale),
            },
        )
    top = [
        Text(
            "hoss.arena.standings.last_line",
            {
                "place": format_int(line.place, locale),
                "player": f"<@{line.player_id}>",
                "points": format_int(line.points, locale),
                "reward": format_int(line.reward or 0, locale),
            },
        )
        for line in board.lines
    ]
    embed = Embed(
        title=Text("hoss.arena.standings.last_title", {"season": Day(board.season)}),
        description=Text.lines([mine, Text("hoss.arena.standings.last_top", {"count": len(top)}), *top]),
        fields=(
            EmbedField(
                Text("hoss.arena.standings.next_label"),
                Text("hoss.arena.standings.next", {"count": SHOWN_FROM, "registered": registered}),
                inline=False,
            ),
        ),
    )
    return MessageSpec(embeds=(embed,))


def standings_spec(standings: Standings, me: int, locale: str) -> MessageSpec:
    """The player's place and the players around them; the ranking shows from SHOWN_FROM players, and
    until then the season that ended last, if any."""
    if standings.players < SHOWN_FROM and standings.last is not None:
        return final_spec(standings.last, standings.players, locale)
    if standings.players < SHOWN_FROM:
        body = Text("hoss.arena.standings.too_few", {"count": SHOWN_FROM})
    elif standings.me is None:
        body = Text("hoss.arena.standings.unranked")
    else:
        lines = [standing_line(entry, me, locale) for entry in standings.around]
        body = Text.lines(lines)
    return MessageSpec(embeds=(Embed(title=Text("hoss.arena.standings.title"), description=body),))
