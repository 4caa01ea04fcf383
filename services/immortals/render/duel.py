"""What an Immortal's War duel shows: the public message (terrain, line-ups, each fight with its dice and
HP turn by turn, vitality, the recap of gains) and a seat's private controls (its units, its spells,
its selection).

The public message is built from the table's view of the engine (`SPECTATOR`): drawn spells show only as
how many are left; the engaging seat's unit and spell show as soon as they are chosen (the counter
chooses knowing them), and what a round resolved is public. The controls are built from the seat's own
view and say whose turn it is: engage, or counter the attack they name.

A unit is named in the language of the text, with its name in each player's language beside it where they
differ (the players' languages on the public message, the opponent's in a seat's controls); a spell is
not a card, and keeps the reader's name only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial

from engine.immortals import ENGINE, Fighter, FightRecord, ImmortalsCatalog, ImmortalsView, Unit, on_terrain
from engine.protocol import SPECTATOR
from services.immortals.duel_match import Choice, DuelRow
from services.immortals.names import spell_name, spell_text, terrain_badge, terrain_icon, unit_name
from services.immortals.rewards import Gains
from services.infra.messages import Embed, MessageSpec, Text
from services.shared.render import duel as shared

Langs = tuple[str, ...]  # the languages of the players a text names units for (card_names.beside)

COLOR = 0xB8860B
TEXTS = shared.DuelTexts.of("immortals")
# A unit's Attack and Defense by the terrain's change: +1 its favourite, -1 its malus, 0 neither.
STATS_KEYS = {1: "immortals.duel.stats_home", -1: "immortals.duel.stats_malus", 0: "immortals.duel.stats"}
START_KEYS = {
    "attack": "immortals.duel.start",
    "defense": "immortals.duel.start_defense",
    "lots": "immortals.duel.start_lots",
}
OUTCOME_REASONS = ("immortals.outcome.ko", "immortals.outcome.vitality", "immortals.outcome.draw")
OUTCOME_KEYS = {"win": "immortals.recap.win", "draw": "immortals.recap.draw", "loss": "immortals.recap.loss"}


def who(duel: DuelRow, seat: int) -> Text:
    return shared.who(duel, seat, TEXTS)


def unit_label(catalog: ImmortalsCatalog, unit: Unit, terrain: str, others: Langs = ()) -> Text:
    """A drawn unit with its favourite terrain's icon and the numbers it fights with before spells: level,
    family and card bonuses included, and the duel's terrain shown as the change it makes (« ATQ 2 → 3 ·
    DÉF 4 → 5 sur son terrain »), marked when it is the unit's favourite or its malus."""
    attack, defense, mod = on_terrain(unit, terrain)
    numbers: dict[str, object] = {
        "attack": unit.attack,
        "defense": unit.defense,
        "attack_here": attack,
        "defense_here": defense,
    }
    stats = Text(STATS_KEYS[mod], numbers)
    key = "immortals.duel.unit_family" if unit.family_bonus else "immortals.duel.unit"
    return Text(
        key,
        {
            "name": unit_name(catalog, unit.card_id, others),
            "icon": terrain_icon(unit.terrain),
            "level": unit.level,
            "stats": stats,
            "hp": unit.hp,
            "power": max(0, unit.attack + unit.damage),
        },
    )


def _line_up(catalog: ImmortalsCatalog, view: ImmortalsView, seat: int, others: Langs) -> Text:
    done = set(view.fought[seat])
    return Text.lines([_unit_line(catalog, u, view.terrain, others, u.uid in done) for u in view.units[seat]])


def _unit_line(catalog: ImmortalsCatalog, unit: Unit, terrain: str, others: Langs, used: bool) -> Text:
    """A unit of a line-up, marked ready or used."""
    return Text(
        "immortals.duel.used" if used else "immortals.duel.ready",
        {"unit": unit_label(catalog, unit, terrain, others)},
    )


def _side(duel: DuelRow, catalog: ImmortalsCatalog, seat: int, fighter: Fighter, others: Langs) -> Text:
    params: dict[str, object] = {
        "player": who(duel, seat),
        "unit": unit_name(catalog, fighter.card_id, others),
        "attack": fighter.attack,
        "defense": fighter.defense,
        "hp": fighter.hp,
    }
    if fighter.spell is None:
        return Text("immortals.duel.side", params)
    key = "immortals.duel.side_spell" if fighter.spell_acted else "immortals.duel.side_spell_void"
    return Text(key, params | {"spell": spell_name(catalog, fighter.spell)})


def _fighter(duel: DuelRow, catalog: ImmortalsCatalog, record: FightRecord, seat: int, others: Langs) -> Text:
    """A fighting unit with its side, « Drake des sables (@alice) »: both units may share a name."""
    return Text(
        "immortals.duel.fighter",
        {"unit": unit_name(catalog, record.fighters[seat].card_id, others), "player": who(duel, seat)},
    )


def _healed(duel: DuelRow, record: FightRecord, seat: int) -> Text:
    """A heal, where the engine applies it: cast with the spell, before the fight's damage. The vitality
    it leaves is the round's end plus what the fight then took, so the lines add up in order."""
    lost = record.damage if record.winner is not None and record.winner != seat else 0
    return Text(
        "immortals.duel.healed",
        {
            "player": who(duel, seat),
            "amount": record.fighters[seat].healed,
            "left": record.vitality[seat] + lost,
        },
    )


def _hp(duel: DuelRow, catalog: ImmortalsCatalog, record: FightRecord, others: Langs) -> Text:
    """Each side's HP from the fight's start to its end, « … 20 → 0 en 7 tours ; … 20 → 6 »."""
    end = record.trace[-1] if record.trace else (record.fighters[0].hp, record.fighters[1].hp)
    turns = len(record.trace)
    sides = [
        Text(
            "immortals.duel.hp_ko" if end[seat] == 0 else "immortals.duel.hp",
            {
                "fighter": _fighter(duel, catalog, record, seat, others),
                "start": record.fighters[seat].hp,
                "end": end[seat],
                "turns": turns,
            },
        )
        for seat in (0, 1)
    ]
    key = "immortals.duel.hp_line" if 0 in end else "immortals.duel.hp_turns"
    return Text(key, {"a": sides[0], "b": sides[1], "turns": turns})


def _fight(duel: DuelRow, catalog: ImmortalsCatalog, record: FightRecord, others: Langs) -> Text:
    lines = [
        Text(
            "immortals.duel.fight",
            {
                "round": record.round,
                "first": _side(duel, catalog, 0, record.fighters[0], others),
                "second": _side(duel, catalog, 1, record.fighters[1], others),
            },
        ),
        *(_healed(duel, record, seat) for seat in (0, 1) if record.fighters[seat].healed),
        Text(
            "immortals.duel.initiative",
            {"fighter": _fighter(duel, catalog, record, record.initiative, others)},
        ),
        _hp(duel, catalog, record, others),
    ]
    if record.winner is None:
        lines.append(Text("immortals.duel.fight_draw"))
    else:
        loser = 1 - record.winner
        lines.append(
            Text(
                "immortals.duel.fight_won",
                {
                    "unit": unit_name(catalog, record.fighters[record.winner].card_id, others),
                    "winner": who(duel, record.winner),
                    "player": who(duel, loser),
                    "damage": record.damage,
                    "left": record.vitality[loser],
                },
            )
        )
    return Text.lines(lines)


def _notes(duel: DuelRow, round_number: int) -> list[Text]:
    return shared.timeout_notes(duel, round_number, TEXTS)


def public(duel: DuelRow, catalog: ImmortalsCatalog, languages: Langs = ()) -> MessageSpec:
    """The message both players read in the server's language; `languages`: theirs (their names of the
    units stand beside the server's where they differ)."""
    state = duel.state
    assert state is not None
    view = ENGINE.view(state, SPECTATOR)
    seats = [
        (
            Text("immortals.duel.seat_field", {"vitality": view.vitality[s], "spells": view.spells_left[s]}),
            _line_up(catalog, view, s, languages),
        )
        for s in (0, 1)
    ]
    lines: list[Text] = [_start(duel, view)]
    for record in view.history:
        lines += [_fight(duel, catalog, record, languages), *_notes(duel, record.round)]
    playing = False
    if duel.status == "over" and duel.result is not None:
        lines += recap(duel, catalog, languages)
    elif not view.finished:
        playing = True
        lines += [*_notes(duel, view.round), _round(duel, catalog, view, languages)]
    return shared.public_message(duel, TEXTS, color=COLOR, seats=seats, lines=lines, playing=playing)


def _start(duel: DuelRow, view: ImmortalsView) -> Text:
    """The terrain and who engages, with what decided it: the total Attack, else the total Defense, else
    a draw of lots."""
    engager = view.engager
    return Text(
        START_KEYS[view.engage_by],
        {
            "terrain": terrain_badge(view.terrain),
            "player": who(duel, engager),
            "attack": view.engage_totals[engager],
            "other": view.engage_totals[1 - engager],
            "defense": view.engage_defense[engager],
            "other_defense": view.engage_defense[1 - engager],
        },
    )


def _round(duel: DuelRow, catalog: ImmortalsCatalog, view: ImmortalsView, others: Langs) -> Text:
    """The round in play: the engaging seat to choose, or its attack (unit and spell) and the counter to
    choose."""
    engager = view.engager
    params: dict[str, object] = {
        "round": view.round,
        "player": who(duel, engager),
        "other": who(duel, 1 - engager),
    }
    if view.engaged is None:
        return Text("immortals.duel.round_engage", params)
    return Text("immortals.duel.round_engaged", params | {"attack": attack(catalog, view, others)})


def attack(catalog: ImmortalsCatalog, view: ImmortalsView, others: Langs = ()) -> Text:
    """The engaged unit and its spell (« Drake des sables avec Force du Titan », or « sans sort »)."""
    engaged = view.engaged
    assert engaged is not None
    unit = next(u for u in view.units[engaged.seat] if u.uid == engaged.unit)
    if engaged.spell is None:
        return Text("immortals.duel.attack", {"unit": unit_label(catalog, unit, view.terrain, others)})
    found = catalog.spell(engaged.spell.spell_id)
    named = spell_name(catalog, engaged.spell.spell_id) if found is None else spell_text(catalog, found)
    return Text(
        "immortals.duel.attack_spell",
        {"unit": unit_label(catalog, unit, view.terrain, others), "spell": named},
    )


def recap(duel: DuelRow, catalog: ImmortalsCatalog, others: Langs = ()) -> list[Text]:
    """The result, then each player's gains line by line (cards, player XP, combat points, gold,
    fragments, the anti-farm halving)."""
    result = duel.result or {}
    winner = result.get("winner")
    why = f"immortals.outcome.{result.get('reason')}"
    reason = Text(why if why in OUTCOME_REASONS else "immortals.outcome.draw")
    lines = [
        Text("immortals.duel.result_draw", {"why": reason})
        if winner is None
        else Text("immortals.duel.result_win", {"player": who(duel, int(winner)), "why": reason})
    ]
    for raw in result.get("gains") or []:
        gains = Gains.from_json(raw)
        player = who(duel, gains.seat)
        if gains.absent:
            lines.append(Text("immortals.recap.absent", {"player": player}))
            continue
        lines.append(
            Text(
                "immortals.recap.line",
                {
                    "player": player,
                    "outcome": Text(OUTCOME_KEYS[gains.outcome]),
                    "xp": gains.player_xp,
                    "points": gains.combat_points,
                    "gold": gains.gold,
                    "fragments": gains.fragments,
                },
            )
        )
        for card in gains.cards:
            key = (
                "immortals.recap.card_up" if card.level_after > card.level_before else "immortals.recap.card"
            )
            lines.append(
                Text(
                    key,
                    {
                        "unit": unit_name(catalog, card.card_id, others),
                        "xp": card.xp,
                        "before": card.level_before,
                        "after": card.level_after,
                    },
                )
            )
        if gains.halvings:
            count = gains.consecutive or gains.halvings  # a recap stored without the run's length
            lines.append(Text("immortals.recap.anti_farm", {"count": count, "factor": 2**gains.halvings}))
        if duel.kind == "practice":
            lines.append(Text("immortals.recap.practice"))
    return lines


def controls(choice: Choice, catalog: ImmortalsCatalog, unit: int | None, spell: int | None) -> MessageSpec:
    """A seat's private controls: its units and spells, the opponent's units left, and its selection."""
    lines = [*controls_lines(choice, catalog), chosen_line(choice, catalog, unit, spell)]
    embed = Embed(title=controls_title(choice), description=Text.lines(lines), color=COLOR)
    return MessageSpec(embeds=(embed,))


def controls_title(choice: Choice) -> Text:
    return Text("immortals.controls.title", {"id": choice.duel_id, "round": choice.view.round})


def controls_lines(choice: Choice, catalog: ImmortalsCatalog) -> list[Text]:
    """The controls' lines that stay while the seat chooses (all but `chosen_line`)."""
    return [build() for _, build in controls_entries(choice, catalog)]


# A line of the controls and how to make it: with a key when the line is the same wherever that key is (a
# unit or a spell, ready or used: the same through a whole duel), for a caller that keeps it rendered.
Entry = tuple[Hashable | None, Callable[[], Text]]


def controls_entries(choice: Choice, catalog: ImmortalsCatalog) -> list[Entry]:
    """`controls_lines`, each line with its key (`Entry`): the line is a function of the catalog and its
    key only."""
    view = choice.view
    seat = view.seat
    others = _others(choice)
    status = Text(
        "immortals.controls.status",
        {
            "round": view.round,
            "terrain": terrain_badge(view.terrain),
            "vitality": view.vitality[seat],
            "foe": view.vitality[1 - seat],
        },
    )
    turn = (
        Text("immortals.controls.turn_engage")
        if view.engaged is None
        else Text(
            "immortals.controls.turn_counter",
            {"player": choice.engager, "attack": attack(catalog, view, others)},
        )
    )
    entries: list[Entry] = [(None, lambda: status), (None, lambda: turn)]
    for title, side in (("immortals.controls.mine", seat), ("immortals.controls.theirs", 1 - seat)):
        done = set(view.fought[side])
        entries.append((None, partial(Text, title)))
        entries += [
            (
                ("unit", u, view.terrain, others, u.uid in done),
                partial(_unit_line, catalog, u, view.terrain, others, u.uid in done),
            )
            for u in view.units[side]
        ]
    if view.spells:
        entries.append((None, partial(Text, "immortals.controls.spells")))
        entries += [
            (("spell", drawn.spell_id, drawn.used), partial(_spell_line, catalog, drawn.spell_id, drawn.used))
            for drawn in view.spells
        ]
    return entries


def _spell_line(catalog: ImmortalsCatalog, spell_id: str, used: bool) -> Text:
    found = catalog.spell(spell_id)
    label = spell_name(catalog, spell_id) if found is None else spell_text(catalog, found)
    return Text("immortals.duel.used" if used else "immortals.duel.ready", {"unit": label})


def chosen_line(choice: Choice, catalog: ImmortalsCatalog, unit: int | None, spell: int | None) -> Text:
    """The controls' last line: the unit (and spell) selected so far, or the invitation to choose."""
    view = choice.view
    if unit is None:
        return Text(
            "immortals.controls.pick_unit" if view.engaged is None else "immortals.controls.pick_counter"
        )
    picked = unit_name(catalog, view.units[view.seat][unit].card_id, _others(choice))
    if spell is None:
        return Text("immortals.controls.selected", {"unit": picked})
    named = spell_name(catalog, view.spells[spell].spell_id)
    return Text("immortals.controls.selected_spell", {"unit": picked, "spell": named})


def _others(choice: Choice) -> tuple[str, ...]:
    return () if choice.foe_language is None else (choice.foe_language,)
