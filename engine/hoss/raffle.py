"""The daily raffle's arithmetic (« La tombola »): the pot, how many win, what each gets.

"Il y a un gagnant par tranche de 5 000 or dans la cagnotte (au moins un), et la cagnotte est partagée à
parts égales entre eux." Decisions where the rulebook is silent (docs/hoss/raffle.md):

- a share is the pot divided by the winners, rounded down, so every winner gets exactly the same; the
  indivisible remainder (less than one gold per winner) is carried into the next draw's pot, so no gold
  is created or lost;
- a draw without any ticket has no winner; what was carried stays in the pot for the next draw;
- there are never more winners than tickets (a pot made mostly of carried gold still needs tickets).
"""

from __future__ import annotations

from dataclasses import dataclass

TICKET_PRICE = 100  # « un ticket à 100 or »
GOLD_PER_WINNER = 5_000  # « un gagnant par tranche de 5 000 or dans la cagnotte (au moins un) »


@dataclass(frozen=True)
class RaffleSplit:
    """How one draw's pot is divided."""

    tickets: int
    pot: int  # the tickets' gold plus what the previous draw carried
    winners: int
    share: int  # what each winner is credited
    carried: int  # left in the pot for the next draw

    @property
    def paid(self) -> int:
        return self.winners * self.share


def split(tickets: int, carried_in: int = 0) -> RaffleSplit:
    """The division of a draw with `tickets` sold and `carried_in` gold left by the previous draw."""
    if tickets < 0 or carried_in < 0:
        raise ValueError("tickets and carried gold cannot be negative")
    pot = tickets * TICKET_PRICE + carried_in
    if tickets == 0:
        return RaffleSplit(tickets=0, pot=pot, winners=0, share=0, carried=pot)
    winners = min(tickets, max(1, pot // GOLD_PER_WINNER))
    share = pot // winners
    return RaffleSplit(tickets=tickets, pot=pot, winners=winners, share=share, carried=pot - share * winners)
