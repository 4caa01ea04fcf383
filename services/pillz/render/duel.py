"""What a Pillz duel shows: the public message (line-ups, rounds, PV and pillz, result) and a player's
private controls (for each unused character, every amount of pillz with its attack and its chance to win
the round: `bet_rows`).

The public message is built from what the rules make public: both line-ups, the card the leader played
(its pillz stay hidden until the round resolves), resolved rounds, PV, and each seat's pillz as at the
start of the round — never the pending bet, neither directly nor by subtraction (engine view).

A character is named in the language of the text, with its name in each player's language beside it
where they differ (`others`: the players' languages on the public message, the opponent's in a seat's
controls; services/community/card_names.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.pillz import ENGINE, EffectRecord, Fighter, PillzCatalog, RoundRecord, attack_power, round_chances
from engine.protocol import SPECTATOR
from services.community.card_names import beside
from services.infra.messages import CardStrip, Embed, MessageSpec, Number, StripCard, Text
from services.pillz.duel_match import Choice, DuelRow
from services.pillz.economy import GAME_KEY
from services.pillz.names import ABILITY_KEYS
from services.shared.render import duel as shared

COLOR = 0x7B2D8E
TEXTS = shared.DuelTexts.of("pillz")
FIRST_KEYS = {
    "stars": "pillz.first.stars",
    "random": "pillz.first.random",
    "counter_attack": "pillz.first.counter_attack",
}
EFFECT_KEYS = {
    "power_bonus": "pillz.effect.power_bonus",
    "damage_bonus": "pillz.effect.damage_bonus",
    "reduce_damage": "pillz.effect.reduce_damage",
    "heal_on_win": "pillz.effect.heal_on_win",
    "pillz_on_loss": "pillz.effect.pillz_on_loss",
    "drain_pillz": "pillz.effect.drain_pillz",
    "war_chest": "pillz.effect.war_chest",
    "blessing": "pillz.effect.blessing",
}
REASON_KEYS = {
    "pillz.outcome.ko": "pillz.duel.result_ko",
    "pillz.outcome.points": "pillz.duel.result_points",
    "pillz.outcome.draw": "pillz.duel.result_draw",
}


def languages_of(language: str | None) -> tuple[str, ...]:
    return () if language is None else (language,)


def card_name(catalog: PillzCatalog, card_id: str, others: Iterable[str] = ()) -> Text:
    card = catalog.card(card_id)
    if card is None:
        return Text.raw(card_id)
    return beside(card.name, others) or Text("pillz.duel.name", {"fr": card.name.fr, "en": card.name.en})


def ability_name(catalog: PillzCatalog, card_id: str, kind: str) -> Text:
    """The catalog's name of a card's ability, in the reader's language (its kind if the card is gone)."""
    card = catalog.card(card_id)
    if card is None or card.ability is None:
        return Text.raw(kind)
    return Text("pillz.duel.name", {"fr": card.ability.name.fr, "en": card.ability.name.en})


def fighter_label(catalog: PillzCatalog, fighter: Fighter, others: Iterable[str] = ()) -> Text:
    """A character as the line-up and the controls show it: its stats and, if it has one, its ability, so
    every number a round then shows can be traced to something the player saw."""
    params: dict[str, object] = {
        "name": card_name(catalog, fighter.card_id, others),
        "stars": "★" * fighter.stars,
        "power": fighter.power,
        "damage": fighter.damage,
    }
    kind = fighter.ability
    if kind is None or kind not in ABILITY_KEYS:
        # No ability, or one a duel stored by the previous version still names (a leader that raised the
        # start): it acted when that duel began and does nothing since, so there is nothing to show.
        return Text("pillz.duel.fighter", params)
    ability = Text(
        "pillz.card.ability",
        {
            "name": ability_name(catalog, fighter.card_id, kind),
            "text": Text(ABILITY_KEYS[kind], {"value": fighter.value}),
        },
    )
    return Text("pillz.duel.fighter_ability", {**params, "ability": ability})


def who(duel: DuelRow, seat: int) -> Text:
    return shared.who(duel, seat, TEXTS)


def _line_up(duel: DuelRow, catalog: PillzCatalog, seat: int, others: tuple[str, ...]) -> Text:
    assert duel.state is not None
    lines = []
    for fighter in duel.state.hands[seat]:
        key = "pillz.duel.used" if fighter.used else "pillz.duel.ready"
        lines.append(Text(key, {"fighter": fighter_label(catalog, fighter, others)}))
    return Text.lines(lines)


def _round(duel: DuelRow, catalog: PillzCatalog, record: RoundRecord, others: tuple[str, ...]) -> Text:
    sides = [
        Text(
            "pillz.duel.side",
            {
                "player": who(duel, s),
                "card": card_name(catalog, record.cards[s], others),
                "pillz": record.pillz[s],
                "attack": record.attacks[s],
            },
        )
        for s in (0, 1)
    ]
    loser = 1 - record.winner
    lead, answer = record.attacks[record.leader], record.attacks[1 - record.leader]
    odds = Text("pillz.duel.odds", {"attack": lead, "other": answer, "percent": chance(lead, answer)})
    lines = [
        Text(
            "pillz.duel.round",
            {
                "round": record.round,
                "first": sides[record.leader],
                "second": sides[1 - record.leader],
                "odds": odds,
                "winner": card_name(catalog, record.cards[record.winner], others),
                "loser": who(duel, loser),
                "damage": record.damage,
            },
        )
    ]
    lines += [_effect(duel, catalog, effect, others) for effect in record.effects]
    return Text.lines(lines)


def _effect(duel: DuelRow, catalog: PillzCatalog, effect: EffectRecord, others: tuple[str, ...]) -> Text:
    """One line naming the ability behind a change of attack, damage, PV or pillz in a round."""
    params = {
        "ability": ability_name(catalog, effect.card, effect.kind),
        "card": card_name(catalog, effect.card, others),
        "amount": effect.amount,
        "player": who(duel, effect.seat),
        "foe": who(duel, 1 - effect.seat),
    }
    key = "pillz.effect.cancelled" if effect.cancelled else EFFECT_KEYS[effect.kind]
    return Text(key, params)


def _notes(duel: DuelRow, round_number: int) -> list[Text]:
    return shared.timeout_notes(duel, round_number, TEXTS)


def public(duel: DuelRow, catalog: PillzCatalog, languages: tuple[str, ...] = ()) -> MessageSpec:
    """The message both players read in the server's language; `languages`: theirs (their names of the
    characters stand beside the server's where they differ)."""
    state = duel.state
    assert state is not None
    view = ENGINE.view(state, SPECTATOR)
    seats = [
        (
            Text("pillz.duel.seat_field", {"life": state.life[s], "pillz": view.pillz[s]}),
            _line_up(duel, catalog, s, languages),
        )
        for s in (0, 1)
    ]
    lines: list[Text] = [
        Text(
            "pillz.duel.first",
            {"player": who(duel, state.first), "why": Text(FIRST_KEYS[view.first_reason])},
        )
    ]
    for record in state.history:
        lines += [_round(duel, catalog, record, languages), *_notes(duel, record.round)]
    playing = False
    if duel.status == "over" and duel.result is not None:
        lines.append(_result(duel))
    elif not state.finished:
        playing = True
        lead = view.lead
        lines += _notes(duel, state.round)
        if state.pending is not None:
            lines.append(
                Text(
                    "pillz.duel.led",
                    {
                        "round": state.round,
                        "player": who(duel, lead),
                        "card": card_name(catalog, state.pending[0], languages),
                        "next": who(duel, 1 - lead),
                    },
                )
            )
        else:
            lines.append(Text("pillz.duel.to_lead", {"round": state.round, "player": who(duel, lead)}))
    return shared.public_message(duel, TEXTS, color=COLOR, seats=seats, lines=lines, playing=playing)


def _result(duel: DuelRow) -> Text:
    result = duel.result or {}
    winner = result.get("winner")
    key = REASON_KEYS.get(str(result.get("reason")), "pillz.duel.result_draw")
    parts = [
        Text("pillz.duel.result_draw") if winner is None else Text(key, {"player": who(duel, int(winner))})
    ]
    for seat, reward in enumerate(result.get("rewards") or []):
        reward_key = "pillz.duel.reward_capped" if reward.get("capped") else "pillz.duel.reward"
        if reward.get("absent"):
            reward_key = "pillz.duel.reward_absent"
        parts.append(
            Text(
                reward_key,
                {
                    "player": who(duel, seat),
                    "gold": reward.get("gold", 0),
                    "before": Number(int(reward.get("rating_before", 0))),
                    "after": Number(int(reward.get("rating_after", 0))),
                },
            )
        )
    return Text.lines(parts)


def chance(attack: int, other: int) -> int:
    """The rules' chance to win, in whole percent: attack ÷ (sum of attacks), 50 when both are 0."""
    total = attack + other
    return 50 if total == 0 else round(100 * attack / total)


@dataclass(frozen=True)
class Bet:
    """One amount of pillz a character may be given: the attack it makes, the chance to win the round."""

    pillz: int
    attack: int
    chance: float  # engine.pillz.round_chance(s): the rulebook's odds over what the player cannot know


@dataclass(frozen=True)
class BetRow:
    """An unused character of the seat (its place in the line-up) and every amount it may be given."""

    place: int
    fighter: Fighter
    bets: tuple[Bet, ...]


def revealed(choice: Choice) -> Fighter | None:
    """The opposing character the leader played this round (answering), None when leading."""
    state = choice.state
    if state.pending is None:
        return None
    return next(f for f in state.hands[1 - choice.seat] if f.card_id == state.pending[0])


def bet_rows(choice: Choice) -> tuple[BetRow, ...]:
    """What the controls offer, in two clicks: for each unused character, every amount of pillz from 0 to
    those left, each with its attack and its chance to win the round (docs/pillz/duels.md)."""
    state, seat = choice.state, choice.seat
    foe = revealed(choice)
    foes = [foe] if foe is not None else [f for f in state.hands[1 - seat] if not f.used]
    left, foe_left = state.pillz[seat], state.pillz[1 - seat]
    return tuple(
        BetRow(place, me, _bets(attack_power(me, foe), round_chances(me, foes, left, foe_left)))
        for place, me in enumerate(state.hands[seat])
        if not me.used
    )


def _bets(power: int, chances: Sequence[float]) -> tuple[Bet, ...]:
    """Every amount of pillz for a character fighting with `power` (the same whatever the amount): its
    attack, power × pillz, and its chance."""
    return tuple(Bet(pillz, power * pillz, chance) for pillz, chance in enumerate(chances))


def controls(choice: Choice, catalog: PillzCatalog, place: int | None, pillz: int) -> MessageSpec:
    """A seat's private controls: where the duel stands, whom they answer (or that they lead), how the
    chances beside each amount are counted, and the move chosen so far."""
    return MessageSpec(
        embeds=(
            Embed(
                title=controls_title(choice),
                description=Text.lines(
                    [*controls_lines(choice, catalog), chosen_line(choice, catalog, place, pillz)]
                ),
                color=COLOR,
            ),
        ),
    )


def controls_title(choice: Choice) -> Text:
    return Text("pillz.controls.title", {"id": choice.duel_id})


def controls_lines(choice: Choice, catalog: PillzCatalog) -> list[Text]:
    """The controls' lines that stay while the seat chooses its move (all but `chosen_line`)."""
    state = choice.state
    seat = choice.seat
    others = languages_of(choice.foe_language)
    lines: list[Text] = [
        Text(
            "pillz.controls.status",
            {
                "round": state.round,
                "life": state.life[seat],
                "pillz": state.pillz[seat],
                "foe_life": state.life[1 - seat],
                "foe_pillz": state.pillz[1 - seat],
            },
        )
    ]
    foe = revealed(choice)
    if foe is not None:
        lines.append(Text("pillz.controls.against", {"fighter": fighter_label(catalog, foe, others)}))
        lines.append(Text("pillz.controls.chances_answering", {"pillz": state.pillz[1 - seat]}))
    else:
        lines.append(Text("pillz.controls.leading"))
        lines.append(Text("pillz.controls.chances_leading", {"pillz": state.pillz[1 - seat]}))
    return lines


def chosen_line(choice: Choice, catalog: PillzCatalog, place: int | None, pillz: int) -> Text:
    """The controls' last line: the move chosen so far, or the invitation to choose one."""
    if place is None:
        return Text("pillz.controls.choose")
    me = choice.state.hands[choice.seat][place]
    return Text(
        "pillz.controls.attack",
        {
            "fighter": fighter_label(catalog, me, languages_of(choice.foe_language)),
            "pillz": pillz,
            "attack": attack_power(me, revealed(choice)) * pillz,
        },
    )


def line_up_strip(choice: Choice) -> CardStrip:
    """The seat's four drawn characters' figures, at their stars. The line-ups are public on the
    duel's message (docs/pillz/duels.md), but the picture goes on the private controls: the public message
    is edited after every move, and a picture there would be uploaded again each time."""
    fighters = choice.state.hands[choice.seat]
    return CardStrip(
        f"pillz-line-up-{choice.duel_id}.png",
        GAME_KEY,
        tuple(StripCard(f.card_id, None, f.stars) for f in fighters),
        figures=True,
    )
