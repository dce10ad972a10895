"""The hidden cards of a deal as one seat sees them: the layouts a single-dummy review (or a
single-dummy player) averages over.

A **layout** is one assignment of the cards a seat cannot see to the places it cannot see,
consistent with what it has seen (docs/analysis.md, "Single dummy"). What the seat has
seen: its own hand as it is now; every card played and who played it; the upcard; whether
the dealer took it up (the dealer knows its own discard; to every other seat the upcard
is then in the dealer's hand or is the discard, until it is played); that a turned-down
upcard lies in the undealt pile; the show-outs (a seat that did not follow the suit led
holds no card of it, the left bower counted as trump: the engine's own record,
:attr:`~euchrelog.engine.DealState.showouts`, under the engine's suit masks). The places
it cannot see: each other playing seat's hand (its size known), each seat that sits out
(its hand out of play), the hand dealt to the empty side (cutthroat's dummy, the ghost
hand) and the undealt pile (the kitty and, to anyone but the dealer, the discard). Every
layout weighs the same; nothing is inferred from the bidding.

:class:`Layouts` counts them (:attr:`Layouts.count`), lists every deal of the hands that
play with the number of layouts behind it (:meth:`Layouts.deals`), and draws layouts
uniformly at random (:meth:`Layouts.sample`). Cards that may lie in the same places are
one group, so counting and drawing work on how many cards of each group go to each place
(a small dynamic programme), not on the cards one by one.

>>> from euchrelog.notation import loads
>>> from euchrelog.replay import replay
>>> game = loads(open("samples/valid/two-hand-club-night.euchre").read()).games[0]
>>> state = replay(game, trace=True).deals[1].trace.lead
>>> seen = Layouts(state, state.to_play())
>>> seen.count  # N's view: S holds 5 of the 19 cards N cannot see (the upcard S took among them)
11628
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from ..cards import cards_of, deck_mask
from ..engine import DealState, lineup
from ..seats import Seat

PILE = "pile"
"""The name of the undealt pile among :attr:`Layouts.places`."""


class UnsupportedError(ValueError):
    """A state whose layouts cannot be told: the message (lowercase) says why."""


def _factorial(n: int) -> int:
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out


def _multinomial(total: int, parts: Sequence[int]) -> int:
    """The ways to split ``total`` distinct cards into places of ``parts`` cards."""
    out = _factorial(total)
    for part in parts:
        out //= _factorial(part)
    return out


class Layouts:
    """The layouts of the cards ``seat`` cannot see at ``state`` (a state of the play,
    trump fixed, before or during the play of a trick).

    :raises UnsupportedError: when the state's hidden cards cannot be told: the maker took up
        cutthroat's dummy (a merge) or swapped for the ghost hand, the seat's hand or a
        card played is not known, or the seat does not play.
    """

    def __init__(self, state: DealState, seat: Seat) -> None:
        if state.trump is None or state.maker is None:
            raise UnsupportedError("trump is not fixed")
        if state.merged:
            raise UnsupportedError("the maker took up the dummy (a merge keeps any five of ten "
                              "cards, which the review does not average over)")
        if state.swapped is not None:
            raise UnsupportedError("a hand was swapped for the ghost hand (the review does not "
                              "average over the swap)")
        rules = state.ruleset
        playing, _ = lineup(rules, state.dealer, state.maker, state.alone, state.defender)
        if seat not in playing:
            raise UnsupportedError(f"{seat} does not play this deal")
        mine = state.hands[seat]
        if mine.free:
            raise UnsupportedError(f"the hand of {seat} is not known")
        self.seat = seat
        """The seat whose view this is."""
        self.seats: tuple[Seat, ...] = playing
        """The seats that play."""
        self.own = mine.known
        """The seat's own hand (a mask of :attr:`~euchrelog.cards.Card.bit`)."""
        size = rules.variant.hand_size
        played = dict.fromkeys(playing, 0)
        seen = self.own
        for trick in [*state.tricks, state.current]:
            for who, card in trick:
                if card is None:
                    raise UnsupportedError("a card played is not known")
                played[who] = played.get(who, 0) + 1
                seen |= card.bit
        names: list[str] = []
        sizes: list[int] = []
        owners: list[Seat | None] = []
        for other in playing:
            if other != seat:
                names.append(other.value)
                sizes.append(size - played[other])
                owners.append(other)
        for out in state.sitting_out:
            names.append(f"out {out.value}")
            sizes.append(size)
            owners.append(None)
        if rules.extra_hand is not None:
            names.append(rules.extra_hand)
            sizes.append(rules.extra_size)
            owners.append(None)
        upcard_places = 0
        up = state.upcard
        if up is not None and rules.variant.upcard:
            place = state.place_of(up)
            if seat == state.dealer or place in ("up", "played"):
                seen |= up.bit  # in hand, discarded, played, or turned down into the pile
            else:  # taken up: in the dealer's hand, or the dealer's discard in the pile
                dealer = (state.dealer.value if state.dealer in playing
                          else f"out {state.dealer.value}")
                upcard_places = 1 << names.index(dealer)
            if seat == state.dealer:
                for card in cards_of(deck_mask(rules.options.deck) & ~seen):
                    if state.place_of(card) == "discard":
                        seen |= card.bit
        hidden = deck_mask(rules.options.deck) & ~seen
        pile = hidden.bit_count() - sum(sizes)
        if pile < 0:
            raise UnsupportedError("the record does not add up to the deck")
        names.append(PILE)
        sizes.append(pile)
        owners.append(None)
        if upcard_places:
            upcard_places |= 1 << (len(names) - 1)
        self.places: tuple[str, ...] = tuple(names)
        """The places the seat cannot see: the other playing seats' letters, ``out X`` for
        a seat X that sits out, ``dummy`` or ``ghost`` for the hand dealt to the empty
        side, and :data:`PILE`."""
        self.sizes: tuple[int, ...] = tuple(sizes)
        """The number of cards in each place."""
        self.owners: tuple[Seat | None, ...] = tuple(owners)
        """The playing seat of each place (``None``: a place out of play)."""
        every = (1 << len(names)) - 1
        allowed: dict[int, int] = {}
        for card in cards_of(hidden):
            where = every
            for k, owner in enumerate(owners):
                if owner is not None:
                    for suit in state.showouts[owner]:
                        if card.bit & state.suit_masks[suit]:
                            where &= ~(1 << k)
            if up is not None and card == up and upcard_places:
                where &= upcard_places
            allowed[where] = allowed.get(where, 0) | card.bit
        self.groups: tuple[tuple[int, int], ...] = tuple(sorted(
            ((cards, where) for where, cards in allowed.items()),
            key=lambda g: (g[0].bit_count(), g[1])))
        """The hidden cards in groups: each group's cards (a mask) and the places (bit k:
        place k) where they may lie."""
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._splits: dict[tuple[int, tuple[int, ...]],
                           tuple[list[tuple[int, ...]], list[int]]] = {}
        self.count = self._count(0, self.sizes)
        """The number of layouts."""
        if not self.count:
            raise UnsupportedError("no layout of the hidden cards is consistent with the play")

    # ------------------------------------------------------------ counting

    def _spread(self, cards: int, where: int, caps: tuple[int, ...]
                ) -> Iterator[tuple[int, ...]]:
        """Every way to put ``cards`` (a number) in the places of ``where`` within
        ``caps``, as a count a place."""
        parts = [0] * len(caps)

        def fill(k: int, left: int) -> Iterator[tuple[int, ...]]:
            if k == len(caps):
                if not left:
                    yield tuple(parts)
                return
            most = min(left, caps[k]) if where >> k & 1 else 0
            for n in range(most, -1, -1):
                parts[k] = n
                yield from fill(k + 1, left - n)
            parts[k] = 0

        return fill(0, cards)

    def _count(self, group: int, caps: tuple[int, ...]) -> int:
        """The layouts of the groups from ``group`` on into places of ``caps`` cards."""
        if group == len(self.groups):
            return int(not any(caps))
        key = (group, caps)
        found = self._ways.get(key)
        if found is None:
            found = sum(weight for weight in self._split(group, caps)[1])
            self._ways[key] = found
        return found

    def _split(self, group: int, caps: tuple[int, ...]
               ) -> tuple[list[tuple[int, ...]], list[int]]:
        """The spreads of ``group`` into ``caps`` that leave room for the groups after it,
        each with its number of layouts."""
        key = (group, caps)
        found = self._splits.get(key)
        if found is not None:
            return found
        cards, where = self.groups[group]
        size = cards.bit_count()
        spreads: list[tuple[int, ...]] = []
        weights: list[int] = []
        for parts in self._spread(size, where, caps):
            rest = tuple(c - p for c, p in zip(caps, parts, strict=True))
            ways = self._count(group + 1, rest)
            if ways:
                spreads.append(parts)
                weights.append(_multinomial(size, parts) * ways)
        found = self._splits[key] = (spreads, weights)
        return found

    # ------------------------------------------------------------ the hands

    def _hands(self, placed: Sequence[int]) -> dict[Seat, int]:
        """Every playing seat's hand, from the cards of each place."""
        hands = {self.seat: self.own}
        for owner, cards in zip(self.owners, placed, strict=True):
            if owner is not None:
                hands[owner] = cards
        return hands

    def deals(self) -> list[tuple[dict[Seat, int], int]]:
        """Every deal of the hands that play (masks by seat, the seat's own included) with
        the number of layouts that give it (they add up to :attr:`count`): how the cards
        out of play lie does not change the play. As many as :attr:`count` at most."""
        found: dict[tuple[int, ...], int] = {}
        playing = [k for k, owner in enumerate(self.owners) if owner is not None]
        placed = [0] * len(self.places)

        def deal(group: int, caps: tuple[int, ...], weight: int) -> None:
            if group == len(self.groups):
                key = tuple(placed[k] for k in playing)
                found[key] = found.get(key, 0) + weight
                return
            cards = [c.bit for c in cards_of(self.groups[group][0])]
            for parts in self._split(group, caps)[0]:
                rest = tuple(c - p for c, p in zip(caps, parts, strict=True))
                out = [parts[k] for k in range(len(parts)) if k not in playing]
                ways = _multinomial(sum(out), out)
                for chosen in _choose([parts[k] for k in playing], cards):
                    kept = [placed[k] for k in playing]
                    for k, mask in zip(playing, chosen, strict=True):
                        placed[k] |= mask
                    deal(group + 1, rest, weight * ways)
                    for k, mask in zip(playing, kept, strict=True):
                        placed[k] = mask

        deal(0, self.sizes, 1)
        out: list[tuple[dict[Seat, int], int]] = []
        for key, weight in found.items():
            full = [0] * len(self.places)
            for k, mask in zip(playing, key, strict=True):
                full[k] = mask
            out.append((self._hands(full), weight))
        return out

    def sample(self, rng: random.Random, n: int) -> list[dict[Seat, int]]:
        """``n`` layouts drawn uniformly (with replacement) with ``rng``, each as every
        playing seat's hand (masks by seat, the seat's own included)."""
        out: list[dict[Seat, int]] = []
        for _ in range(n):
            caps = self.sizes
            placed = [0] * len(self.places)
            for group, (cards, _) in enumerate(self.groups):
                spreads, weights = self._split(group, caps)
                pick = rng.randrange(sum(weights))
                k = 0
                while pick >= weights[k]:
                    pick -= weights[k]
                    k += 1
                parts = spreads[k]
                order = [c.bit for c in cards_of(cards)]
                rng.shuffle(order)
                at = 0
                for place, count in enumerate(parts):
                    for bit in order[at:at + count]:
                        placed[place] |= bit
                    at += count
                caps = tuple(c - p for c, p in zip(caps, parts, strict=True))
            out.append(self._hands(placed))
        return out

    def hidden(self) -> int:
        """Every card the seat cannot see (a mask)."""
        cards = 0
        for group, _ in self.groups:
            cards |= group
        return cards


def _choose(counts: Sequence[int], bits: list[int]) -> Iterator[list[int]]:
    """Every way to give each place ``counts[k]`` of the cards ``bits`` (disjoint), as a
    mask a place; the cards left over go nowhere."""

    def pick(k: int, start: list[int]) -> Iterator[list[int]]:
        if k == len(counts):
            yield []
            return
        for chosen in _subsets(start, counts[k]):
            left = [b for b in start if not b & chosen]
            for rest in pick(k + 1, left):
                yield [chosen, *rest]

    return pick(0, bits)


def _subsets(bits: Sequence[int], size: int) -> Iterator[int]:
    """Every ``size`` of ``bits``, as one mask."""
    if size == 0:
        yield 0
        return
    for k in range(len(bits) - size + 1):
        for rest in _subsets(bits[k + 1:], size - 1):
            yield bits[k] | rest

