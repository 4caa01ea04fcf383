"""HOSS numbers are written as the reader's language groups them (« 1 000 » in French, "1,000" in
English) in every message: battle PV and shields, rewards, the ranked ladder and milestone notices."""

from __future__ import annotations

from typing import Any

from cogs.hoss.battle import ladder_reply, notice_reply
from services.hoss.battle.battles import BattleResult
from services.hoss.battle.notices import Notice
from services.hoss.battle.ranked import RANK_NAME_KEYS, Ladder, RankStatus
from services.hoss.battle.view import CreatureView
from services.hoss.render.battle import creature_line, result_text
from services.infra.messages import Text

NNBSP = "\u202f"  # French groups thousands with a narrow no-break space


def test_battle_pv_and_shield_are_grouped() -> None:
    creature = CreatureView("a1", "x", hp=512_300, hp_max=520_000, shield=130_000, statuses=(), protege=None)
    french = creature_line(creature, {"a1": "Golem"}, "fr")
    assert f"5{NNBSP}123/5{NNBSP}200" in french
    assert f"1{NNBSP}300" in french
    assert "5,123/5,200" in creature_line(creature, {"a1": "Golem"}, "en")


def test_a_reward_is_grouped() -> None:
    result = BattleResult(
        status="won",
        counted=True,
        rounds=9,
        reason="hoss.outcome.elimination",
        scores=(10, 0),
        base=4_050,
        tenth_win=True,
        fast_bonus=1_005,
        flawless_bonus=1_000,
        gold=6_055,
        wins=10,
        milestone=None,
    )
    sides = (Text.raw("<@1>"), Text("hoss.battle.ai_rank", {"rank": Text(RANK_NAME_KEYS[1])}))
    shown = result_text(result, sides, "fr")
    assert f"6{NNBSP}055" in shown
    assert f"base 4{NNBSP}050" in shown
    assert f"+1{NNBSP}005" in shown
    assert "base 4,050" in result_text(result, sides, "en")


def _rendered(kwargs: dict[str, Any]) -> str:
    parts = [str(kwargs.get("content") or "")]
    parts += [str(embed.description or "") for embed in kwargs.get("embeds") or []]
    return "\n".join(parts)


def test_the_ladder_and_a_milestone_notice_are_grouped() -> None:
    status = RankStatus(
        rank=1,
        name=Text(RANK_NAME_KEYS[1]),
        wins=1_200,
        losses=1_000,
        unlocked=True,
        playable=True,
        win_gold=45,
        loss_gold=5,
    )
    ladder = Ladder(ranks=(status,), highest=1, playable=(1,), live_battle=None, notices=())
    assert f"1{NNBSP}200 V / 1{NNBSP}000 D" in _rendered(ladder_reply(ladder, 7, "fr"))
    notice = Notice(id=1, kind="milestone", rank=1, wins=1_000, gold=1_000, battle_id=None)
    shown = _rendered(notice_reply(notice, 7, "fr"))
    assert f"Palier atteint\u00a0: 1{NNBSP}000 victoires au Rang 1\u202f! +1{NNBSP}000 or." in shown
    assert "Milestone reached: 1,000 wins at Rank 1! +1,000 gold." in _rendered(notice_reply(notice, 7, "en"))
