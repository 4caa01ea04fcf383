"""Each capacity and effect of the vocabulary (engine/dinocard/catalog.py), as docs/dinocard/rules-notes.md
describes it: one test per kind, on battles whose packs are played in order (seat 0 plays first)."""

from __future__ import annotations

from pathlib import Path

from engine.dinocard.catalog import ABILITY_KINDS
from tests.engine.dinocard.helpers import Fight, card, dinoz, flicker, phase_of, rock


def attacks(fight: Fight, phase: int) -> list[dict[str, object]]:
    return [d for k, d in fight.step(phase, 2) if k == "attack"]


def test_first_strike_kills_before_the_other_strikes() -> None:
    fight = Fight(
        [dinoz("fast", force=3, endurance=2, first_strike=0)], [dinoz("slow", force=3, endurance=2)]
    )
    assert [(d["seat"], d["card_id"]) for d in attacks(fight, 2)] == [(0, "fast")]
    assert [d["card_id"] for _, d in fight.all("died")][:1] == ["slow"]
    assert len(fight.all("died", card_id="fast")) == 0
    plain = Fight([dinoz("a", force=3, endurance=2)], [dinoz("b", force=3, endurance=2)])
    assert [d["card_id"] for _, d in plain.all("died")][:2] == ["a", "b"]


def test_flying_hits_the_player_whatever_faces_it() -> None:
    fight = Fight([dinoz("bird", force=2, flying=0)], [dinoz("b", force=1)])
    bird, b = attacks(fight, 2)
    assert (bird["target_slot"], bird["amount"]) == (None, 2)
    assert (b["target_slot"], b["amount"]) == (2, 1)  # the dinoz facing a flyer still hits it


def test_ranged_hits_the_opposing_dinoz_with_least_endurance_left() -> None:
    archer = dinoz("archer", force=2, ranged=0)
    fight = Fight([archer, rock("r"), rock("r2")], [dinoz("tough", endurance=9), dinoz("frail", endurance=3)])
    assert attacks(fight, 2)[0]["target_slot"] == 2  # only the tough one hatched
    shot = next(d for d in attacks(fight, 3) if d["card_id"] == "archer")
    assert shot["target_slot"] == 1  # the frail one, away from the archer's slot


def test_trample_sends_damage_beyond_what_kills_to_the_player() -> None:
    fight = Fight([dinoz("rhino", force=5, trample=0)], [dinoz("small", force=0, endurance=2)])
    hit = next(d for k, d in fight.step(2, 2) if k == "hit_player")
    assert hit == {"seat": 1, "amount": 3, "source_seat": 0, "source": "a0", "source_id": "rhino"}


def test_lifelink_heals_its_owner_by_the_damage_dealt_never_above_the_start_life() -> None:
    fight = Fight([rock("r"), dinoz("leech", force=2, lifelink=0)], [flicker(damage=3)])
    heal = next(d for k, d in fight.step(3, 2) if k == "heal_player")
    assert heal == {"seat": 0, "amount": 2, "source": "a1", "source_id": "leech"}
    assert fight.board(3, 2)["life"] == [19, 18]
    healed = [d["amount"] for _, d in fight.all("heal_player")]
    assert healed == [2, 1]  # then capped at 20


def test_armor_reduces_each_hit_in_combat() -> None:
    fight = Fight([dinoz("a", force=3)], [dinoz("turtle", armor=2)])
    assert attacks(fight, 2)[0]["amount"] == 1


def test_poison_poisons_the_dinoz_it_wounds() -> None:
    fight = Fight([dinoz("snake", force=1, poison=2)], [dinoz("b", force=0)])
    poisoned = next(d for k, d in fight.step(2, 2) if k == "poisoned")
    assert poisoned == {"seat": 1, "slot": 2, "card": "b0", "card_id": "b", "amount": 2}
    wound = fight.all("poison_wound")[0]
    assert phase_of(wound[0]) == (3, 1)  # at the start of the poisoned dinoz's owner's turn
    assert wound[1]["amount"] == 2


def test_regeneration_removes_damage_at_the_end_of_its_owners_turn() -> None:
    fight = Fight([dinoz("a", force=3)], [dinoz("troll", regeneration=2)])
    regen = next(d for k, d in fight.step(3, 1) if k == "regenerate")
    assert regen == {"seat": 1, "slot": 2, "card": "b0", "card_id": "troll", "amount": 2}
    assert fight.board(3, 1)["rails"][1][2]["damage"] == 1


def test_growth_adds_force_at_each_start_of_turn_once_hatched() -> None:
    fight = Fight([dinoz("sprout", force=1, growth=1)], [])
    assert [phase_of(i) for i, _ in fight.all("growth")][:2] == [(3, 0), (4, 0)]
    assert attacks(fight, 2)[0]["amount"] == 1
    assert attacks(fight, 4)[0]["amount"] == 3


def test_hatch_damage_hits_the_opposing_player_when_it_hatches() -> None:
    fight = Fight([dinoz("screamer", force=0, hatch_damage=2)], [])
    assert fight.kinds(2, 0)[-3:] == ["hatch", "hit_player", "board"]
    assert fight.board(2, 0)["life"] == [20, 18]


def test_hatch_heal_heals_its_owner_when_it_hatches() -> None:
    fight = Fight([rock("r"), dinoz("singer", force=0, hatch_heal=3)], [flicker(damage=5)])
    assert next(d for k, d in fight.step(3, 0) if k == "heal_player")["amount"] == 3
    assert fight.board(3, 0)["life"] == [18, 20]


def test_damage_dinoz_hits_the_opposing_dinoz_of_highest_force() -> None:
    fireball = card("fireball", "incantation", damage_dinoz=3)
    fight = Fight([dinoz("weak", force=1), dinoz("strong", force=4)], [rock("r"), rock("r2"), fireball])
    hit = next(d for k, d in fight.step(3, 1) if k == "hit_dinoz")
    assert (hit["slot"], hit["card_id"], hit["amount"], hit["source_id"]) == (1, "strong", 3, "fireball")


def test_damage_player_hits_the_opposing_player() -> None:
    fight = Fight([card("bolt", "incantation", damage_player=4)], [])
    assert fight.board(1, 0)["life"] == [20, 16]


def test_heal_player_heals_its_owner_or_without_damage_fills_the_energy_zone() -> None:
    salve = card("salve", "incantation", heal_player=4)
    fight = Fight([salve, rock("r"), card("salve2", "incantation", heal_player=4)], [flicker(damage=3)])
    assert fight.step(1, 0)[1][1]["reason"] == "no_target"  # at full life
    assert next(d for k, d in fight.step(3, 0) if k == "heal_player")["amount"] == 3  # up to 20 only


def test_heal_dinoz_removes_damage_and_poison_from_the_most_damaged_dinoz() -> None:
    balm = card("balm", "incantation", heal_dinoz=2)
    fight = Fight([dinoz("a", force=0), rock("r"), balm], [dinoz("b", force=3, poison=1)])
    heal = next(d for k, d in fight.step(3, 0) if k == "heal_dinoz")
    assert heal == {"seat": 0, "slot": 2, "card": "a0", "card_id": "a", "amount": 2}
    slot = fight.board(3, 0)["rails"][0][2]
    assert (slot["damage"], slot["poisoned"]) == (2, 0)  # 3 hit + 1 poison wound - 2


def test_draw_plays_the_next_cards_of_the_pack_at_once() -> None:
    wave = card("wave", "incantation", draw=1)
    fight = Fight([wave, dinoz("d"), flicker()], [])
    assert fight.kinds(1, 0)[1:5] == ["cast", "egg", "egg_card", "graveyard"]
    assert fight.board(1, 0)["pile"] == [1, 0]


def test_energy_puts_the_next_cards_of_the_pack_in_the_energy_zone() -> None:
    breeze = card("breeze", "incantation", element="ciel", energy=2)
    fight = Fight([breeze, dinoz("d", element="eau"), flicker()], [])
    fed = [d for k, d in fight.step(1, 0) if k == "energy"]
    assert [(d["card_id"], d["reason"]) for d in fed] == [("d", "fed"), ("flicker", "fed")]
    assert fight.board(1, 0)["energy"][0] == {"feu": 1, "bois": 0, "eau": 1, "foudre": 0, "ciel": 0}


def test_destroy_object_sends_the_oldest_opposing_object_to_the_graveyard() -> None:
    sabotage = card("sabotage", "incantation", destroy_object=0)
    objects = [card("totem", "objet", aura_force=1), card("nest", "objet", incubator=1)]
    fight = Fight(objects, [rock("r"), sabotage])
    gone = next(d for k, d in fight.step(2, 1) if k == "object_destroyed")
    assert gone == {"seat": 0, "card": "a0", "card_id": "totem"}
    assert fight.board(2, 1)["objects"][0] == [{"card": "a1", "card_id": "nest"}]
    alone = Fight([], [sabotage])
    assert alone.step(1, 1)[1][1]["reason"] == "no_target"


def test_losing_an_endurance_aura_can_kill() -> None:
    sabotage = card("sabotage", "incantation", destroy_object=0)
    a = [card("shell", "objet", aura_endurance=2), dinoz("d", force=0, endurance=1)]
    fight = Fight(a, [rock("r"), dinoz("b", force=2), rock("r2"), sabotage])
    assert fight.board(3, 2)["rails"][0][2]["damage"] == 2  # alive thanks to the aura
    assert [k for k in fight.kinds(4, 1) if k in ("object_destroyed", "died")] == ["object_destroyed", "died"]


def test_a_blessing_goes_on_its_owners_left_most_dinoz_else_egg() -> None:
    blessing = card("claws", "enchantement", force=2, endurance=3)
    fight = Fight([dinoz("d", force=1, endurance=2, eclosion=2), blessing], [])
    assert fight.step(2, 0)[-2][1] == {
        "seat": 0,
        "card": "a1",
        "card_id": "claws",
        "target_seat": 0,
        "slot": 2,
    }
    hatched = fight.board(3, 0)["rails"][0][2]
    assert (hatched["force"], hatched["endurance"]) == (3, 5)


def test_an_enchantment_granting_a_keyword_gives_it_to_the_dinoz() -> None:
    wings = card("wings", "enchantement", flying=0)
    fight = Fight([dinoz("d", force=2), rock("r"), wings], [dinoz("wall", force=0)])
    assert attacks(fight, 2)[0]["target_slot"] == 2
    assert attacks(fight, 3)[0]["target_slot"] is None


def test_weaken_takes_force_from_the_strongest_opposing_dinoz() -> None:
    curse = card("vine", "enchantement", weaken=2)
    fight = Fight([dinoz("a", force=3)], [rock("r"), curse])
    enchant = next(d for k, d in fight.step(2, 1) if k == "enchant")
    assert (enchant["target_seat"], enchant["slot"]) == (0, 2)
    assert attacks(fight, 2)[0]["amount"] == 1


def test_an_enchantment_without_a_dinoz_or_egg_fills_the_energy_zone() -> None:
    fight = Fight([card("claws", "enchantement", force=2)], [])
    assert fight.step(1, 0)[1][1]["reason"] == "no_target"


def test_aura_force_and_aura_endurance_apply_to_every_dinoz_of_their_owner() -> None:
    objects = [card("totem", "objet", aura_force=1), card("shell", "objet", aura_endurance=2)]
    fight = Fight([*objects, dinoz("d", force=1, endurance=3)], [])
    slot = fight.board(4, 0)["rails"][0][2]
    assert (slot["force"], slot["endurance"]) == (2, 5)
    assert attacks(fight, 4)[0]["amount"] == 2


def test_start_heal_heals_its_owner_at_each_start_of_turn() -> None:
    fight = Fight([card("tree", "objet", start_heal=1)], [flicker(damage=3)])
    heal = next(d for k, d in fight.step(2, 0) if k == "heal_player")
    assert heal == {"seat": 0, "amount": 1, "source": "a0", "source_id": "tree"}


def test_start_damage_hits_the_opponent_at_each_start_of_turn() -> None:
    fight = Fight([card("brazier", "objet", start_damage=1)], [])
    assert [phase_of(i) for i, _ in fight.all("hit_player")][:2] == [(2, 0), (3, 0)]


def test_incubator_adds_markers_to_each_egg() -> None:
    fight = Fight([card("nest", "objet", incubator=1), dinoz("d", eclosion=4)], [])
    assert next(d for k, d in fight.step(3, 0) if k == "markers") == {"seat": 0, "eggs": 1, "markers": 2}
    assert phase_of(fight.all("hatch")[0][0]) == (4, 0)


def test_every_kind_of_the_vocabulary_is_tested_here() -> None:
    """A new kind needs its own test in this file (the venom curse and Arc: test_battle.py)."""
    source = Path(__file__).read_text(encoding="utf-8")
    untested = [k for k in ABILITY_KINDS if k not in ("venom", "arc") and f"{k}=" not in source]
    assert untested == []
