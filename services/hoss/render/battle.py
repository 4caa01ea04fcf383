"""The public message of a ranked HOSS battle as a MessageSpec: both sides with PV bars, statuses and
synergies, the round's notable events, then the call to decide or the result (with the log attached).

Rendered in the service layer because the outbox makes the message's edits, long after the interaction
that caused them: the board's text is written in every language (`Text.per_locale`) and the outbox shows
the channel's. Only `battle_view.Board` is read, which holds nothing the board may not show. The ranked
standings (`/hoss classement`) are here too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from core.i18n import format_int
from core.settings import SUPPORTED_LOCALES
from engine.hoss import ChoosePath, HossAction, HossCatalog, Move, Place, Play
from services.hoss.arena.results import ArenaReward, ArenaTag
from services.hoss.battle.battles import BattleResult
from services.hoss.battle.view import Board, CreatureView, EventView, SideView
from services.hoss.keys import RACE_KEYS, RANK_NAME_KEYS
from services.hoss.standings import StandingEntry, Standings
from services.infra.messages import Attachment, Button, Embed, EmbedField, MessageSpec, Text, render_text

BAR = 10
STATUS_KEYS = {
    "poison": "hoss.battle.status.poison",
    "saignement": "hoss.battle.status.saignement",
    "embrasement": "hoss.battle.status.embrasement",
    "bris": "hoss.battle.status.bris",
    "gel": "hoss.battle.status.gel",
    "choc": "hoss.battle.status.choc",
    "confusion": "hoss.battle.status.confusion",
}
EVENT_KEYS = {
    "play": "hoss.battle.event.play",
    "place": "hoss.battle.event.place",
    "move": "hoss.battle.event.move",
    "evolve": "hoss.battle.event.evolve",
    "evolve_choice": "hoss.battle.event.evolve_choice",
    "death": "hoss.battle.event.death",
    "revive": "hoss.battle.event.revive",
}
STATUS_TITLES = {"won": "hoss.battle.won", "lost": "hoss.battle.lost", "draw": "hoss.battle.draw"}


def pv_bar(hp: int, hp_max: int) -> str:
    filled = 0 if hp <= 0 or hp_max <= 0 else max(1, min(BAR, round(BAR * hp / hp_max)))
    return "▰" * filled + "▱" * (BAR - filled)


def pv_of(centi: int) -> int:
    """The engine counts hundredths of PV; a creature alive with less than 1 PV still shows 1."""
    return -(-centi // 100)


def name_of(catalog: HossCatalog, card_id: str, locale: str) -> str:
    card = catalog.card(card_id)
    return card.name.get(locale) if card is not None else card_id


def creature_line(creature: CreatureView, names: dict[str, str], locale: str) -> str:
    hp, hp_max = creature.hp, creature.hp_max
    pv = f"{format_int(pv_of(hp), locale)}/{format_int(pv_of(hp_max), locale)}"
    parts = [f"**{names.get(creature.uid, creature.card)}** {pv_bar(hp, hp_max)} {pv}"]
    if creature.shield:
        shield = format_int(pv_of(creature.shield), locale)
        parts.append(render_text(Text("hoss.battle.shield", {"shield": shield}), locale))
    statuses = [render_text(Text(STATUS_KEYS[s]), locale) for s in creature.statuses if s in STATUS_KEYS]
    if statuses:
        parts.append("[" + ", ".join(statuses) + "]")
    if creature.protege:
        protege = names.get(creature.protege, creature.protege)
        parts.append(render_text(Text("hoss.battle.protects", {"protege": protege}), locale))
    return " ".join(parts)


def side_text(side: SideView, names: dict[str, str], locale: str) -> str:
    lines = [creature_line(c, names, locale) for c in side.creatures]
    if not lines:
        lines.append(render_text(Text("hoss.battle.no_creature"), locale))
    found = [
        render_text(
            Text("hoss.battle.synergy", {"race": Text(RACE_KEYS[race]), "percent": f"{bp / 100:g}"}), locale
        )
        for race, bp in side.synergy
        if race in RACE_KEYS
    ]
    if side.synergy:
        lines.append(" · ".join(found))
    lines.append(render_text(Text("hoss.battle.counts", {"hand": side.hand, "pile": side.pile}), locale))
    return "\n".join(lines)


def event_line(
    event: EventView, names: dict[str, str], catalog: HossCatalog, locale: str, sides: tuple[Text, Text]
) -> str:
    """One notable event, naming the side it happened to (`sides`: the player's name, the opponent's)."""
    params: dict[str, object] = {
        "who": sides[0 if event.mine else 1],
        "card": names.get(event.target, event.target),
    }
    if event.protege is not None:
        params["protege"] = names.get(event.protege, event.protege)
    if event.to is not None:
        params["to"] = name_of(catalog, event.to, locale)
    if event.kind == "play" and event.card is not None:
        params["card"] = name_of(catalog, event.card, locale)
    return "• " + render_text(Text(EVENT_KEYS[event.kind], params), locale)


def player_name(owner: int) -> Text:
    """The player as a public message names them: a mention, which Discord shows as their name in a
    message's text and in an embed's description and field values (not in a title or a field's name)."""
    return Text.raw(f"<@{owner}>")


def opponent_name(rank: int, arena: ArenaTag | None) -> Text:
    """The AI's side: « IA (Rang N) » in a ranked battle, the defender whose deck it plays in the Arena."""
    if arena is not None:
        return Text("hoss.arena.battle.defence_of", {"defender": f"<@{arena.defender}>"})
    return Text("hoss.battle.ai_rank", {"rank": Text(RANK_NAME_KEYS[rank])})


def board_sides(board: Board) -> tuple[Text, Text]:
    return player_name(board.owner), opponent_name(board.rank, board.arena)


def reason_line(reason: str, status: str, sides: tuple[Text, Text], locale: str) -> str:
    """Why the battle ended, naming who won and who lost (a bare « le combat est perdu » under a
    « Victoire » read as the winner's own defeat)."""
    won = status == "won"
    winner, loser = (sides[0], sides[1]) if won else (sides[1], sides[0])
    return render_text(Text(reason, {"winner": winner, "loser": loser}), locale)


ARENA_TITLES = {
    "won": "hoss.arena.battle.won",
    "lost": "hoss.arena.battle.lost",
    "draw": "hoss.arena.battle.draw",
}


def arena_result_text(
    result: BattleResult, reward: ArenaReward, sides: tuple[Text, Text], locale: str
) -> str:
    """An attack's end: both sides' points and gold (public: the ranking and the table are)."""
    attacker = sides[0]
    defender = f"<@{reward.defender}>"
    title = "hoss.arena.battle.abandoned" if reward.abandoned else ARENA_TITLES[result.status]
    lines = [f"**{render_text(Text(title, {'attacker': attacker, 'defender': defender}), locale)}**"]
    if not reward.abandoned:
        lines.append(reason_line(result.reason, result.status, sides, locale))
    amounts = {
        "attacker": attacker,
        "points": format_int(reward.attacker_points, locale),
        "change": f"{reward.attacker_change:+d}",
        "gold": Text("hoss.gold_amount", {"amount": format_int(reward.attacker_gold, locale)}),
        "defender": defender,
        "defender_points": format_int(reward.defender_points, locale),
        "defender_change": f"{reward.defender_change:+d}",
        "defender_gold": Text("hoss.gold_amount", {"amount": format_int(reward.defender_gold, locale)}),
    }
    lines.append(render_text(Text("hoss.arena.battle.reward", amounts), locale))
    return "\n".join(lines)


def result_text(result: BattleResult, sides: tuple[Text, Text], locale: str) -> str:
    """The end of the battle, both sides named: who won, why, and what the player earned."""
    if result.arena is not None:
        return arena_result_text(result, result.arena, sides, locale)
    names = {"player": sides[0], "opponent": sides[1]}
    lines = [
        f"**{render_text(Text(STATUS_TITLES[result.status], names), locale)}**",
        reason_line(result.reason, result.status, sides, locale),
    ]
    if not result.counted:
        lines.append(render_text(Text("hoss.battle.not_counted"), locale))
    else:
        amounts = {"base": result.base, "fast": result.fast_bonus, "flawless": result.flawless_bonus}
        bonus = {name: format_int(amount, locale) for name, amount in amounts.items()}
        gold = Text("hoss.gold_amount", {"amount": format_int(result.gold, locale)})
        params = {"player": sides[0], "gold": gold, **bonus}
        lines.append(render_text(Text("hoss.battle.reward", params), locale))
    return "\n".join(lines)


def card_names(board: Board, catalog: HossCatalog, locale: str) -> dict[str, str]:
    names = {uid: name_of(catalog, card, locale) for uid, card in board.names.items()}
    for side in board.sides:
        names.update({c.uid: name_of(catalog, c.card, locale) for c in side.creatures})
    return names


def description(board: Board, catalog: HossCatalog, locale: str, names: dict[str, str] | None = None) -> str:
    """`names`: the board's `card_names` in `locale`, when the caller wrote them already."""
    names = card_names(board, catalog, locale) if names is None else names
    sides = board_sides(board)
    if board.arena is not None:
        versus = Text(
            "hoss.arena.battle.against", {"attacker": sides[0], "defender": f"<@{board.arena.defender}>"}
        )
    else:
        versus = Text("hoss.battle.versus", {"player": sides[0], "opponent": sides[1]})
    lines = [
        render_text(versus, locale),
        render_text(Text("hoss.battle.round", {"round": board.round}), locale),
    ]
    lines += [event_line(e, names, catalog, locale, sides) for e in board.events]
    if board.ai_decided and board.status != "live":  # every round the AI played after the missed deadline
        lines.append(render_text(Text("hoss.battle.ai_finished", {"player": sides[0]}), locale))
    if board.final and board.status == "live":
        if board.ai_decided:
            lines.append(render_text(Text("hoss.decision_timeout", {"player": sides[0]}), locale))
        deadline = int(board.deadline.timestamp()) if board.deadline is not None else 0
        key = "hoss.battle.next_round" if board.between else "hoss.battle.your_turn"
        turn = Text(key, {"player": sides[0], "deadline": f"<t:{deadline}:R>"})
        lines.append(render_text(turn, locale))
    if board.final and board.result is not None:
        lines.append(result_text(board.result, sides, locale))
    return "\n".join(lines)


def in_every_language(
    write: Callable[[str], str], locales: Sequence[str] = SUPPORTED_LOCALES, written_in: str | None = None
) -> Text:
    """`write` in each of `locales`: every language for a board the outbox shows later, only the one it
    is shown in for an interaction's response. `written_in`: the language the outbox will show it in,
    known to the caller (`RankedService.answer`'s channel): written in it alone, and shown as written
    whichever of `locales` it is delivered in (only a server whose language changed before the edit
    went out sees it in the former one, as the message it edits)."""
    if written_in is not None:
        text = write(written_in)
        return Text.per_locale(dict.fromkeys(locales, text))
    return Text.per_locale({locale: write(locale) for locale in locales})


def side_field(
    board: Board,
    seat: int,
    catalog: HossCatalog,
    header: Text | None = None,
    locales: Sequence[str] = SUPPORTED_LOCALES,
    names: Mapping[str, dict[str, str]] | None = None,
    written_in: str | None = None,
) -> Text:
    """A side's creatures; `header` first (a mention: a field's name cannot show one as a name).
    `names`: the board's `card_names` per language, when the caller wrote them already; `written_in`:
    as `in_every_language`'s."""

    def write(locale: str) -> str:
        known = card_names(board, catalog, locale) if names is None else names[locale]
        text = side_text(board.sides[seat], known, locale)
        return text if header is None else f"{render_text(header, locale)}\n{text}"

    return in_every_language(write, locales, written_in)


def buttons(board: Board) -> tuple[Button, ...]:
    """Plain buttons: the cog's DecideButton, GuardButton and SkipButton answer their ids. « Décider »
    while the player owes a decision; « Défenseur » whenever the player has a Défenseur in play (« Tu
    peux aussi le déplacer quand tu veux grâce au bouton « Défenseur » »), on every round shown."""
    if board.status != "live":
        return ()
    owner, battle = board.owner, board.battle_id
    shown: tuple[Button, ...] = ()
    if not board.between:
        decide = f"hoss:rdecide:{owner}:{battle}:{board.pause}"
        shown += (Button(Text("hoss.battle.decide"), decide, "primary"),)
    if board.guards:
        shown += (Button(Text("hoss.battle.defender"), f"hoss:rguard:{owner}:{battle}", "secondary"),)
    shown += (Button(Text("hoss.battle.skip"), f"hoss:rskip:{owner}:{battle}", "danger"),)
    if board.arena is not None:  # the cog's AbandonButton: « Un combat abandonné compte comme une défaite »
        shown += (Button(Text("hoss.arena.battle.abandon"), f"hoss:aquit:{owner}:{battle}", "secondary"),)
    return shown


def side_fields(
    board: Board,
    catalog: HossCatalog,
    locales: Sequence[str] = SUPPORTED_LOCALES,
    names: Mapping[str, dict[str, str]] | None = None,
    written_in: str | None = None,
) -> tuple[EmbedField, EmbedField]:
    """Both sides. The field names are plain labels (« Joueur », « IA (Rang 3) », « Attaque »,
    « Défense (IA) »): a mention there shows as `<@id>`, so a player's mention opens the field's value.
    `names`, `written_in`: as `side_field`'s."""
    player = player_name(board.owner)
    if board.arena is None:
        labels = (Text("hoss.battle.side.player"), opponent_name(board.rank, None))
        headers: tuple[Text, Text | None] = (player, None)
    else:
        labels = (Text("hoss.arena.battle.attack"), Text("hoss.arena.battle.defence"))
        headers = (player, Text.raw(f"<@{board.arena.defender}>"))
    return (
        EmbedField(
            labels[0], side_field(board, 0, catalog, headers[0], locales, names, written_in), inline=False
        ),
        EmbedField(
            labels[1], side_field(board, 1, catalog, headers[1], locales, names, written_in), inline=False
        ),
    )


def battle_spec(
    board: Board,
    catalog: HossCatalog,
    files: tuple[Attachment, ...] = (),
    locales: Sequence[str] = SUPPORTED_LOCALES,
    written_in: str | None = None,
) -> MessageSpec:
    """The public battle message at `board`, written in `locales` (or in `written_in` alone, shown so in
    each of them: `in_every_language`); `files` (the finished battle's log) go with its final version
    only, never with a live battle's (the log holds the seed)."""
    title = Text("hoss.battle.title", {"battle": board.battle_id, "rank": Text(RANK_NAME_KEYS[board.rank])})
    if board.arena is not None:
        title = Text("hoss.arena.battle.title", {"battle": board.battle_id})
    written = locales if written_in is None else (written_in,)
    names = {locale: card_names(board, catalog, locale) for locale in written}  # for all three texts
    body = in_every_language(
        lambda locale: description(board, catalog, locale, names[locale]), locales, written_in
    )
    attached = files if board.final and board.result is not None else ()
    fields = side_fields(board, catalog, locales, names, written_in)
    embed = Embed(title=title, description=body, fields=fields)
    return MessageSpec(embeds=(embed,), buttons=buttons(board), attachments=attached)


def standings_spec(board: Standings, locale: str) -> MessageSpec:
    """`/hoss classement`: the server's players by the rank they reached, then their wins (public: it
    names players by mention, which pings nobody on a board)."""

    def line(entry: StandingEntry) -> Text:
        s = entry.standing
        params = {
            "place": entry.place,
            "player": f"<@{s.player_id}>",
            "rank": Text(RANK_NAME_KEYS[s.highest]),
            "wins": format_int(s.wins, locale),
            "losses": format_int(s.losses, locale),
        }
        return Text("hoss.standings.line", params)

    lines = [line(e) for e in board.entries]
    if board.viewer is not None:
        lines += [Text("hoss.standings.gap"), line(board.viewer)]
    embed = Embed(
        title=Text("hoss.standings.title", {"count": board.players}),
        description=Text.lines(lines) if lines else Text("hoss.standings.empty"),
        fields=(EmbedField(Text("hoss.standings.how"), Text("hoss.standings.rule"), inline=False),),
    )
    return MessageSpec(embeds=(embed,))


def action_label(action: HossAction, names: dict[str, str]) -> Text:
    """A legal action in words: play (on a protégé), a Rang 2 path, place or move a Défenseur."""

    def name(uid: str | None) -> str:
        return names.get(str(uid), str(uid))

    if isinstance(action, Play):
        key = "hoss.battle.action.play_on" if action.protege else "hoss.battle.action.play"
        return Text(key, {"card": name(action.card), "protege": name(action.protege)})
    if isinstance(action, ChoosePath):
        return Text("hoss.battle.action.path", {"card": name(action.creature), "to": name(action.card)})
    if isinstance(action, Place | Move):
        key = "hoss.battle.action.place" if isinstance(action, Place) else "hoss.battle.action.move"
        return Text(key, {"card": name(action.defender), "protege": name(action.protege)})
    return Text("hoss.battle.pass")
