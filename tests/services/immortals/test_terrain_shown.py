"""« Le terrain est représenté par un icone à la fois sur la carte (terrain favoris) et sur l'image du terrain
de combat. »: the duel shows its terrain's icon, and each unit's line (the board's line-ups, the controls,
the unit select) its favourite terrain's icon and its Attack and Defense on the duel's terrain, marked when
that is its favourite (+1) or its malus (−1)."""

from __future__ import annotations

from engine.immortals import ImmortalsCatalog, Unit
from services.immortals import ImmortalsServices
from services.immortals.names import TERRAIN_ICONS
from services.immortals.render import duel as render
from services.immortals.render.duel import unit_label
from services.infra.messages import render_text

GUILD, CHANNEL = 500, 600
ALICE = 11


def drake(terrain: str = "desert") -> Unit:
    return Unit(
        uid="u0-0",
        card_id="imp",
        deck_index=0,
        family="demons",
        terrain=terrain,
        level=2,
        attack=2,
        defense=4,
    )


def test_a_units_line_shows_its_numbers_on_the_duels_terrain(catalog: ImmortalsCatalog) -> None:
    home = render_text(unit_label(catalog, drake(), "desert"), "fr")
    assert "🏜️ niveau 2 — ATQ 2 → 3 · DÉF 4 → 5 sur son terrain ⬆️" in home
    hostile = render_text(unit_label(catalog, drake(), "foret"), "fr")  # Désert-lovers in the Forêt
    assert "ATQ 2 → 1 · DÉF 4 → 3, terrain hostile ⬇️" in hostile
    elsewhere = render_text(unit_label(catalog, drake(), "plaine"), "fr")
    assert "— ATQ 2 · DÉF 4 · 20 PV" in elsewhere
    assert "⬆️" not in elsewhere
    assert "⬇️" not in elsewhere
    assert "ATK 2 → 3 · DEF 4 → 5 on its terrain ⬆️" in render_text(
        unit_label(catalog, drake(), "desert"), "en"
    )


async def test_the_board_and_the_controls_show_the_terrain_and_each_units_line(
    services: ImmortalsServices,
) -> None:
    duel = await services.duels.practice(GUILD, CHANNEL, ALICE, key="p1")
    state = duel.state
    assert state is not None
    catalog = services.duels.catalog
    (embed,) = services.duels.public(duel).embeds
    board = render_text(embed.description, "fr") + "".join(render_text(f.value, "fr") for f in embed.fields)
    assert f"Terrain\u00a0: **{TERRAIN_ICONS[state.terrain]} " in board
    choice = await services.duels.controls(duel.id, ALICE, guild=GUILD)
    (panel,) = render.controls(choice, catalog, None, None).embeds
    shown = render_text(panel.description, "fr")
    assert f"terrain\u00a0: {TERRAIN_ICONS[state.terrain]} " in shown
    for seat in (0, 1):
        for unit in state.units[seat]:
            line = render_text(unit_label(catalog, unit, state.terrain), "fr")
            assert f"{TERRAIN_ICONS[unit.terrain]} niveau" in line
            assert line in board
            assert line in shown
