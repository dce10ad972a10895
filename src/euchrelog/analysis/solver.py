"""An exact double-dummy solver on the engine's integer card tables.

With every hand known and trump fixed, :class:`Solver` tells how many tricks the makers
take when every seat plays perfectly: the makers maximise their tricks, the other seats
(together, in the games for one) minimise them. The search is a null-window alpha-beta
("can the makers take at least k more tricks?") with a transposition table of bounds kept
at the trick boundaries, keyed on the cards each seat still holds and the leader;
equivalent cards (a hand's cards adjacent in rank among the cards still live) are one
move; moves are ordered by a cheap heuristic (play low when the side wins the trick,
else the lowest card that wins, then the lowest).

The card rules come from the engine: which cards may be played is
:func:`~euchrelog.engine.playable`, the suit a card leads and follows is
:func:`~euchrelog.cards.suit_list`, the suits' masks are
:func:`~euchrelog.cards.follow_masks` and the strength of a card in a trick is
:func:`~euchrelog.cards.power_list`, the table :func:`~euchrelog.cards.trick_winner`
reads (the first card of the highest power wins).

>>> from euchrelog.cards import parse_card
>>> from euchrelog.seats import Seat
>>> hand = lambda text: [parse_card(c) for c in text.split()]
>>> solver = Solver(Suit.HEARTS, (Seat.E, Seat.S, Seat.W, Seat.N), (Seat.N, Seat.S))
>>> hands = {Seat.E: hand("AD"), Seat.S: hand("JH"), Seat.W: hand("9H"), Seat.N: hand("AS")}
>>> solver.solve(hands, Seat.E)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..cards import (
    JOKER,
    NO_TRUMP,
    Card,
    Suit,
    Trump,
    card_at,
    follow_masks,
    mask_of,
    power_list,
    suit_list,
)
from ..engine import playable
from ..seats import Seat

_SUITS = tuple(Suit)
_SHIFT = 72
"""Bits a seat's hand takes in a transposition key (more than any card index)."""
_CACHE_LIMIT = 400_000
"""Entries of the move cache before it is emptied (a deal needs far fewer)."""

Position = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A position of the play, as :class:`Solver` takes it: the hands by place in the line-up
(masks), the place of the trick's leader, and the cards of the trick so far (indexes)."""


class Solver:
    """Double-dummy search of the play of deals under one trump, line-up and side.

    :param trump: the trump suit, or no trump.
    :param seats: the seats that play, clockwise.
    :param makers: the makers' seats; every other seat of ``seats`` defends.

    The transposition table is kept between calls, so every position of one deal (the
    played line, every alternative card, the dealer's every discard) shares it.
    """

    def __init__(self, trump: Trump, seats: Sequence[Seat], makers: Iterable[Seat]) -> None:
        self.trump = trump
        self.seats = tuple(seats)
        chosen = set(makers)
        self.maker = tuple(seat in chosen for seat in self.seats)
        """Whether each place of the line-up is a maker."""
        follows = suit_list(trump)
        self._suit = tuple(_SUITS.index(s) if s is not None else -1 for s in follows)
        masks = follow_masks(trump)
        self._suit_mask = tuple(masks[s] for s in _SUITS)
        self._power = tuple(power_list(trump, s) for s in _SUITS)
        self._rank = tuple(self._power[s][i] if s >= 0 else 0 for i, s in enumerate(self._suit))
        """Each card's power in its own suit: its rank there, for ordering moves."""
        self._order = tuple(self._ranked(k) for k in range(len(_SUITS)))
        """The cards of each suit under this trump, highest first."""
        n = len(self.seats)
        self._next = tuple((p + 1) % n for p in range(n))
        self._table: dict[int, tuple[int, int]] = {}
        self._moves: dict[tuple[int, int], tuple[int, ...]] = {}
        self.nodes = 0
        """Positions searched so far (for measurements)."""

    def _ranked(self, suit: int) -> tuple[int, ...]:
        """The cards (bits) of the suit numbered ``suit`` under this trump, highest first."""
        power = self._power[suit]
        cards = [i for i, s in enumerate(self._suit) if s == suit and card_at(i) is not None]
        return tuple(1 << i for i in sorted(cards, key=lambda i: -power[i]))

    # ------------------------------------------------------------ the public side

    def position(self, hands: Mapping[Seat, Iterable[Card]], leader: Seat,
                 trick: Sequence[Card] = ()) -> Position:
        """The position of ``hands`` (each seat's cards not yet played), with ``leader``
        on lead and ``trick`` played to the current trick so far."""
        masks = tuple(mask_of(hands.get(seat, ())) for seat in self.seats)
        cards = tuple(card.index for card in trick)
        if self.trump is NO_TRUMP and (JOKER in trick or any(m & JOKER.bit for m in masks)):
            raise ValueError("the benny follows no suit at no trump: no-trump is not played "
                             "with it (T205)")
        return masks, self.seats.index(leader), cards

    def solve(self, hands: Mapping[Seat, Iterable[Card]], leader: Seat,
              trick: Sequence[Card] = ()) -> int:
        """The tricks the makers take from here under perfect play, the current trick
        included."""
        return self.value(self.position(hands, leader, trick))

    def value(self, position: Position) -> int:
        """The tricks the makers take from ``position`` under perfect play, the current trick
        included."""
        hands, leader, trick = position
        low, high = 0, hands[(leader + len(trick)) % len(self.seats)].bit_count()
        while low < high:
            mid = (low + high + 1) // 2
            if self._at_least(hands, leader, trick, mid):
                low = mid
            else:
                high = mid - 1
        return low

    def values(self, position: Position) -> dict[Card, int]:
        """Every card the seat to play may play from ``position``, with the tricks the makers
        take from here (the current trick included) if it is played, then perfect play."""
        hands, leader, trick = position
        n = len(self.seats)
        turn = (leader + len(trick)) % n
        hand = hands[turn]
        legal = playable(hand, self._suit_mask[self._suit[trick[0]]]) if trick else hand
        out: dict[Card, int] = {}
        for group in self._groups(legal, self._live(hands, trick)):
            first = group[0]
            value = self.value(self.after(position, first))
            won = 0
            if len(trick) == n - 1:  # the card ends the trick: its winner's trick counts
                won = self.maker[self._winner(leader, (*trick, first))]
            for index in group:
                card = card_at(index)
                assert card is not None
                out[card] = value + won
        return out

    def after(self, position: Position, index: int) -> Position:
        """The position after the seat to play plays the card of ``index``."""
        hands, leader, trick = position
        n = len(self.seats)
        turn = (leader + len(trick)) % n
        new = list(hands)
        new[turn] ^= 1 << index
        if len(trick) < n - 1:
            return tuple(new), leader, (*trick, index)
        return tuple(new), self._winner(leader, (*trick, index)), ()

    def turn(self, position: Position) -> Seat:
        """The seat to play at ``position``."""
        _, leader, trick = position
        return self.seats[(leader + len(trick)) % len(self.seats)]

    def trick_won(self, position: Position, index: int) -> bool | None:
        """Whether playing the card of ``index`` at ``position`` wins the trick for the
        makers (``None``: the trick goes on)."""
        _, leader, trick = position
        if len(trick) < len(self.seats) - 1:
            return None
        return self.maker[self._winner(leader, (*trick, index))]

    # ------------------------------------------------------------ the search

    def _winner(self, leader: int, trick: Sequence[int]) -> int:
        """The place of the winner of a whole trick led from ``leader``."""
        power = self._power[self._suit[trick[0]]]
        best, at = -1, 0
        for k, index in enumerate(trick):
            if power[index] > best:
                best, at = power[index], k
        return (leader + at) % len(self.seats)

    def _live(self, hands: Sequence[int], trick: Sequence[int]) -> int:
        live = 0
        for hand in hands:
            live |= hand
        for index in trick:
            live |= 1 << index
        return live

    def _groups(self, legal: int, live: int) -> list[tuple[int, ...]]:
        """The cards of ``legal`` (one hand's) as groups of equivalent cards (indexes):
        cards of one suit with no other live card of the suit between them."""
        groups: list[tuple[int, ...]] = []
        for k, order in enumerate(self._order):
            mine = legal & self._suit_mask[k]
            if not mine:
                continue
            run: list[int] = []
            for bit in order:
                if not bit & live:
                    continue
                if bit & mine:
                    run.append(bit.bit_length() - 1)
                elif run:
                    groups.append(tuple(run))
                    run = []
            if run:
                groups.append(tuple(run))
        return groups

    def _candidates(self, legal: int, live: int) -> tuple[int, ...]:
        """One card (its bit) of each group of equivalent cards of ``legal``, cached."""
        key = (legal, live)
        moves = self._moves.get(key)
        if moves is None:
            if len(self._moves) > _CACHE_LIMIT:
                self._moves.clear()
            moves = self._moves[key] = tuple(1 << g[-1] for g in self._groups(legal, live))
        return moves

    def _at_least(self, hands: tuple[int, ...], leader: int, trick: tuple[int, ...],
                  target: int) -> bool:
        """Whether the makers take at least ``target`` tricks from the position."""
        work = list(hands)
        if not trick:
            return self._boundary(work, leader, target)
        power = self._power[self._suit[trick[0]]]
        best, at, mask = -1, 0, 0
        for k, index in enumerate(trick):
            mask |= 1 << index
            if power[index] > best:
                best, at = power[index], (leader + k) % len(self.seats)
        return self._play(work, leader, len(trick), self._suit[trick[0]], best, at, mask,
                          target)

    def _boundary(self, hands: list[int], leader: int, target: int) -> bool:
        """:meth:`_at_least` at the start of a trick, through the transposition table."""
        if target <= 0:
            return True
        left = hands[leader].bit_count()
        if target > left:
            return False
        key = leader
        for hand in hands:
            key = (key << _SHIFT) | hand
        low, high = self._table.get(key, (0, left))
        if low >= target:
            return True
        if high < target:
            return False
        if left == 1:  # the last trick plays itself
            trick = [(hands[(leader + k) % len(hands)]).bit_length() - 1
                     for k in range(len(hands))]
            won = int(self.maker[self._winner(leader, trick)])
            self._table[key] = (won, won)
            return won >= target
        result = self._play(hands, leader, 0, -1, -1, 0, 0, target)
        if result:
            low = target
        else:
            high = target - 1
        self._table[key] = (low, high)
        return result

    def _play(self, hands: list[int], leader: int, k: int, led: int, best: int, at: int,
              trick: int, target: int) -> bool:
        """:meth:`_at_least` with ``k`` cards of the trick played (``trick``, a mask), the
        suit ``led``, and the best power so far ``best``, played from place ``at``."""
        self.nodes += 1
        n = len(hands)
        turn = (leader + k) % n
        hand = hands[turn]
        maker = self.maker
        side = maker[turn]
        live = trick
        for h in hands:
            live |= h
        if k == 0:
            moves = self._candidates(hand, live)
            rank = self._rank
            moves = tuple(sorted(moves, key=lambda b: -rank[b.bit_length() - 1]))
        else:
            moves = self._ordered(playable(hand, self._suit_mask[led]), live, led, best,
                                  maker[at] == side)
        last = k == n - 1
        for bit in moves:
            index = bit.bit_length() - 1
            if k == 0:
                suit = self._suit[index]
                power, place, now = self._power[suit][index], turn, suit
            else:
                power = self._power[led][index]
                now = led
                if power > best:
                    place = turn
                else:
                    power, place = best, at
            hands[turn] = hand ^ bit
            if last:
                result = self._boundary(hands, place, target - maker[place])
            else:
                result = self._play(hands, leader, k + 1, now, power, place, trick | bit, target)
            hands[turn] = hand
            if result is side:
                return result
        return not side

    def _ordered(self, legal: int, live: int, led: int, best: int, winning: bool
                 ) -> tuple[int, ...]:
        """The moves of a follower, the likeliest best first: with the side winning the
        trick, low cards first; else the lowest cards that win, then the lowest."""
        moves = self._candidates(legal, live)
        if len(moves) == 1:
            return moves
        power, rank = self._power[led], self._rank
        if winning:
            return tuple(sorted(moves, key=lambda b: rank[b.bit_length() - 1]))
        return tuple(sorted(moves, key=lambda b: (
            power[b.bit_length() - 1] <= best, rank[b.bit_length() - 1])))
