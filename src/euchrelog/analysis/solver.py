"""An exact double-dummy solver on the engine's integer card tables.

With every hand known and trump fixed, :class:`Solver` tells how many tricks the makers
take when every seat plays perfectly: the makers maximise their tricks, the other seats
(together, in the games for one) minimise them. The search is a fail-soft alpha-beta on
the makers' tricks (a window of one trick answers "can the makers take at least k?") with
a transposition table of bounds kept at the trick boundaries, keyed on the cards each seat
still holds and the leader; equivalent cards (a hand's cards adjacent in rank among the
cards still live) are one move; moves are ordered by a cheap heuristic (play low when the
side wins the trick, else the lowest card that wins, then the lowest).

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

import functools
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


@functools.lru_cache(maxsize=8)
def _tables(trump: Trump) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...],
                                   tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The engine's tables under ``trump``, by suit number (the order of :class:`Suit`):
    each card's suit number (-1: no card), each suit's mask, each suit's power table
    (led), each card's power in its own suit (its rank there, for ordering moves), and
    each suit's cards (bits) highest first."""
    suits = tuple(_SUITS.index(s) if s is not None else -1 for s in suit_list(trump))
    masks = follow_masks(trump)
    suit_masks = tuple(masks[s] for s in _SUITS)
    powers = tuple(power_list(trump, s) for s in _SUITS)
    rank = tuple(powers[s][i] if s >= 0 else 0 for i, s in enumerate(suits))
    order = []
    for k in range(len(_SUITS)):
        cards = [i for i, s in enumerate(suits) if s == k and card_at(i) is not None]
        cards.sort(key=lambda i: -powers[k][i])
        order.append(tuple(1 << i for i in cards))
    return suits, suit_masks, powers, rank, tuple(order)


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
        self._suit, self._suit_mask, self._power, self._rank, self._order = _tables(trump)
        self._table: dict[int, tuple[int, int]] = {}
        self._run_cache: tuple[dict[tuple[int, int], tuple[tuple[int, ...], ...]], ...] = (
            tuple({} for _ in _SUITS))
        self._lead_cache: dict[tuple[int, int], tuple[int, ...]] = {}
        self._trumps: tuple[int, ...] = (
            self._order[_SUITS.index(trump)] if isinstance(trump, Suit) else ())
        """The trumps (bits), highest first; none at no trump."""
        self._trump_mask = sum(self._trumps)
        """The trumps, as a mask."""

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

    def value(self, position: Position, *, low: int = 0, high: int | None = None,
              guess: int | None = None) -> int:
        """The tricks the makers take from ``position`` under perfect play, the current trick
        included; ``low`` and ``high``: bounds known of it (a search between them is
        shorter); ``guess``: a likely value, searched about with null windows (MTD(f)),
        which takes fewer nodes than a whole window when it is close."""
        hands, leader, trick = position
        most = hands[(leader + len(trick)) % len(self.seats)].bit_count()
        high = most if high is None else min(high, most)
        if low >= high:
            return low
        if guess is None:
            return self._search(hands, leader, trick, low - 1, high + 1)
        guess = min(max(guess, low), high)
        while low < high:  # MTD(f): null windows about the guess
            target = guess + 1 if guess == low else guess
            found = self._search(hands, leader, trick, target - 1, target)
            if found >= target:
                low = found
            else:
                high = found
            guess = found
        return low

    def values(self, position: Position, value: int | None = None) -> dict[Card, int]:
        """Every card the seat to play may play from ``position``, with the tricks the makers
        take from here (the current trick included) if it is played, then perfect play;
        ``value``: the position's own, when known (it bounds the cards'); when not, each
        card is searched whole, about the value of the card before it (fewer nodes than
        the position's value first)."""
        hands, leader, trick = position
        n = len(self.seats)
        turn = (leader + len(trick)) % n
        hand = hands[turn]
        legal = playable(hand, self._suit_mask[self._suit[trick[0]]]) if trick else hand
        maker = self.maker[turn]
        out: dict[Card, int] = {}
        groups = self._groups(legal, self._live(hands, trick))
        guess: int | None = None
        for group in groups:
            first = group[0]
            won = 0
            if len(trick) == n - 1:  # the card ends the trick: its winner's trick counts
                won = self.maker[self._winner(leader, (*trick, first))]
            # A maker's card is worth at most the position, a defender's at least; the
            # best is worth it exactly, and so is the only choice.
            after = self.after(position, first)
            if value is None:
                worth = guess = self.value(after, guess=guess)
            elif len(groups) == 1:
                worth = value - won
            elif maker:
                worth = self.value(after, high=value - won)
            else:
                worth = self.value(after, low=max(value - won, 0))
            for index in group:
                card = card_at(index)
                assert card is not None
                out[card] = worth + won
        return out

    def at_least(self, position: Position, target: int) -> bool:
        """Whether the makers take at least ``target`` tricks from ``position`` (the current
        trick included) under perfect play: cheaper than :meth:`value` when a bound is all
        that is asked."""
        hands, leader, trick = position
        return self._search(hands, leader, trick, target - 1, target) >= target

    def equivalent(self, cards: Iterable[Card], live: Iterable[Card]) -> list[list[Card]]:
        """``cards`` (one hand's) in groups of cards that are worth the same to the hand:
        cards of one suit under this trump between which no other card of ``live`` lies."""
        groups = self._groups(mask_of(cards), mask_of(live))
        return [[c for c in map(card_at, group) if c is not None] for group in groups]

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
        """The cards not yet gone: in the hands, or in the current trick."""
        live = 0
        for hand in hands:
            live |= hand
        for index in trick:
            live |= 1 << index
        return live

    def _runs(self, suit: int, mine: int, live: int) -> tuple[tuple[int, ...], ...]:
        """The cards of ``mine`` (one hand's, of the suit numbered ``suit``) as groups of
        equivalent cards (indexes, highest first): no other live card of the suit lies
        between the cards of a group. Cached by the suit's live cards."""
        key = (mine, live & self._suit_mask[suit])
        cache = self._run_cache[suit]
        runs = cache.get(key)
        if runs is not None:
            return runs
        out: list[tuple[int, ...]] = []
        run: list[int] = []
        for bit in self._order[suit]:
            if not bit & live:
                continue
            if bit & mine:
                run.append(bit.bit_length() - 1)
            elif run:
                out.append(tuple(run))
                run = []
        if run:
            out.append(tuple(run))
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        runs = cache[key] = tuple(out)
        return runs

    def _groups(self, legal: int, live: int) -> list[tuple[int, ...]]:
        """The cards of ``legal`` (one hand's) as groups of equivalent cards (see
        :meth:`_runs`), suit by suit."""
        groups: list[tuple[int, ...]] = []
        for k, mask in enumerate(self._suit_mask):
            if legal & mask:
                groups += self._runs(k, legal & mask, live)
        return groups

    def _leads(self, hand: int, live: int) -> tuple[int, ...]:
        """One card (its bit) of each group of equivalent cards of ``hand``, to lead: the
        other suits' before the trumps (the likelier best leads in a cold search: 14% fewer
        nodes in the single-dummy review than trumps first), each highest first."""
        key = (hand, live)
        moves = self._lead_cache.get(key)
        if moves is None:
            rank, trumps = self._rank, self._trump_mask
            reps = [g[-1] for g in self._groups(hand, live)]
            reps.sort(key=lambda i: (bool(trumps >> i & 1), -rank[i]))
            if len(self._lead_cache) > _CACHE_LIMIT:
                self._lead_cache.clear()
            moves = self._lead_cache[key] = tuple(1 << i for i in reps)
        return moves

    def _search(self, hands: tuple[int, ...], leader: int, trick: tuple[int, ...],
                alpha: int, beta: int) -> int:
        """The makers' tricks from the position, the current trick included, when it lies
        between ``alpha`` and ``beta`` (both excluded); else a bound beyond the one it
        passes (fail-soft alpha-beta)."""
        work = list(hands)
        if not trick:
            return self._boundary(work, leader, alpha, beta)
        power = self._power[self._suit[trick[0]]]
        best, at = -1, 0
        for k, index in enumerate(trick):
            if power[index] > best:
                best, at = power[index], (leader + k) % len(self.seats)
        return self._play(work, leader, len(trick), self._suit[trick[0]], best, at,
                          self._live(hands, trick), alpha, beta)

    def _boundary(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """:meth:`_search` at the start of a trick, through the transposition table of
        bounds."""
        left = hands[leader].bit_count()
        if left <= 1:  # the last trick plays itself (cheaper than the table)
            if not left:
                return 0
            n = len(hands)
            trick = [hands[(leader + k) % n].bit_length() - 1 for k in range(n)]
            return int(self.maker[self._winner(leader, trick)])
        key = leader
        live = 0
        for hand in hands:
            key = (key << _SHIFT) | hand
            live |= hand
        found = self._table.get(key)
        if found is None:
            low, high = self._sure(hands, live, left)
        else:
            low, high = found
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low - 1), min(beta, high + 1)
        value = self._play(hands, leader, 0, -1, -1, 0, live, alpha, beta)
        if value <= alpha:
            high = value
        elif value >= beta:
            low = value
        else:
            low = high = value
        self._table[key] = (low, high)
        return value

    def _sure(self, hands: list[int], live: int, left: int) -> tuple[int, int]:
        """Bounds of the makers' tricks at a trick boundary from the trumps alone: the
        trumps above every trump of the other side win a trick each, and those of one
        hand win distinct tricks, so the side of the highest trump left takes at least as
        many tricks as one of its hands holds of the trumps above the other side's."""
        counts = [0] * len(hands)
        side = -1
        for bit in self._trumps:
            if not bit & live:
                continue
            place = 0
            while not hands[place] & bit:
                place += 1
            holder = int(self.maker[place])
            if side < 0:
                side = holder
            elif holder != side:
                break
            counts[place] += 1
        sure = max(counts)
        if side == 1:
            return sure, left
        return 0, left - sure

    def _play(self, hands: list[int], leader: int, k: int, led: int, best: int, at: int,
              live: int, alpha: int, beta: int) -> int:
        """:meth:`_search` with ``k`` cards of the trick played, the suit ``led``, and the
        best power so far ``best``, played from place ``at``; ``live``: the cards in the
        hands and the trick."""
        n = len(hands)
        turn = (leader + k) % n
        hand = hands[turn]
        maker = self.maker
        side = maker[turn]
        value = -1 if side else 99
        moves: Sequence[int]
        if k == 0:
            suits, powers = self._suit, self._power
            for bit in self._leads(hand, live):
                index = bit.bit_length() - 1
                suit = suits[index]
                hands[turn] = hand ^ bit
                result = self._play(hands, leader, 1, suit, powers[suit][index], turn, live,
                                    alpha, beta)
                hands[turn] = hand
                if side:
                    if result > value:
                        value = result
                        if value >= beta:
                            return value
                        alpha = max(alpha, value)
                elif result < value:
                    value = result
                    if value <= alpha:
                        return value
                    beta = min(beta, value)
            return value
        legal = playable(hand, self._suit_mask[led])
        if legal & (legal - 1):
            moves = self._follows(legal, live, led, best, maker[at] == side)
        else:
            moves = (legal,)  # one card: no choice
        power = self._power[led]
        last = k == n - 1
        for bit in moves:
            strength = power[bit.bit_length() - 1]
            hands[turn] = hand ^ bit
            if strength > best:
                place, top = turn, strength
            else:
                place, top = at, best
            if last:
                won = maker[place]
                result = won + self._boundary(hands, place, alpha - won, beta - won)
            else:
                result = self._play(hands, leader, k + 1, led, top, place, live, alpha, beta)
            hands[turn] = hand
            if side:
                if result > value:
                    value = result
                    if value >= beta:
                        return value
                    alpha = max(alpha, value)
            elif result < value:
                value = result
                if value <= alpha:
                    return value
                beta = min(beta, value)
        return value

    def _follows(self, legal: int, live: int, led: int, best: int, winning: bool
                 ) -> list[int]:
        """The moves (bits) of a follower, the likeliest best first: with the side winning
        the trick, the lowest cards first; else the lowest cards that win, then the
        lowest."""
        mine = legal & self._suit_mask[led]
        if mine == legal:  # following suit: one suit, lowest first
            low = [1 << g[-1] for g in reversed(self._runs(led, mine, live))]
            if winning or len(low) == 1:
                return low
            power = self._power[led]
            return ([b for b in low if power[b.bit_length() - 1] > best]
                    + [b for b in low if power[b.bit_length() - 1] <= best])
        power, rank = self._power[led], self._rank
        reps = [g[-1] for g in self._groups(legal, live)]
        if winning:
            reps.sort(key=lambda i: rank[i])
        else:
            reps.sort(key=lambda i: (power[i] <= best, rank[i]))
        return [1 << i for i in reps]
