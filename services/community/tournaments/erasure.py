"""What a player's erasure does to the tournaments they are in (docs/privacy.md, "What erasure ends"),
run in the erasure's unit before their wallets are emptied.

- registered in a tournament not started: withdrawn, their fee refunded (it then leaves with every other
  balance, through the ledger);
- in a running tournament: 'withdrawn', no longer paired (Swiss) or losing by walkover (elimination),
  and placed after every player still in: nothing of the pot is ever paid to the anonymous id. A match of
  theirs still waiting or being played refuses the erasure until it ends (services/community/privacy.py).
"""

from __future__ import annotations

from datetime import datetime

from services.community.tournaments import store
from services.community.tournaments.flow import REFUND_REASON, fee_ref
from services.infra import ledger
from store.connection import Connection


def end_for_erasure(conn: Connection, now: datetime, player: int) -> None:
    rows = conn.execute(
        "SELECT t.id FROM tournaments t JOIN tournament_entries e ON e.tournament_id = t.id"
        " WHERE e.player_id = ? AND t.status IN ('open', 'running') ORDER BY t.id",
        (player,),
    ).fetchall()
    for (tournament_id,) in rows:
        t = store.load_trusted(conn, int(tournament_id))
        entry = store.entry(conn, t.id, player)
        assert entry is not None
        if t.status == "running":
            store.set_entry(conn, t.id, player, status="withdrawn")
            continue
        store.remove_entry(conn, t.id, player)
        if entry.fee_paid and t.currency is not None:
            why = ledger.Movement(REFUND_REASON, ref=fee_ref(t))
            ledger.credit(conn, now, player, t.currency, entry.fee_paid, why)
        store.save(conn, t, pot=t.pot - entry.fee_paid)
