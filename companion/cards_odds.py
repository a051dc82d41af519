"""Odds and advice for Camel Up Cards: each camel's chances this leg and in the race, and what
each action is worth to the player who takes it.

A leg's racing deck holds the intel cards everyone saw and the cards the players chose in
secret. The odds take the secret cards to be drawn at random from the 30 less the intel cards
and the hand cards played (which never went in), and the deck's order to be random. So the
next card is an unrevealed intel card or a secret card as often as their numbers say, and a
secret card is any card of that pool not out yet. A revealed card that matches an intel card
may have been that card or a secret one: both stories are kept, each weighed by how likely it
makes what was seen. Hand cards still held and figures not yet placed are left out: they are
the players' choices. Leg odds go through every way the rest of the deck can come out, tracks
that have become the same merged, while the rows stay few; past that they are simulated.
Race odds are simulated: the later legs' decks are drawn at random from all 30 cards, with
sandstorms and the track's extension as `companion.rules.cards` does them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.rules.cards import (
    CAMELS,
    CARDS_PER_COLOUR,
    FIGURES,
    MIDFIELD_PAY,
    FinalBet,
    LegBet,
    LegSetup,
    PlaceFigure,
    PlayHand,
    Reveal,
    State,
    apply,
    legal_actions,
)
from companion.rules.players import Action

RACES = 10_000
"""Races simulated by default: the largest standard error of a probability is then 0.5%."""

SEED = 2016
"""The simulations' seed unless one is given, so the same position gives the same figures."""

LEG_SAMPLES = 20_000
"""Legs simulated when the exact way is too large: standard error at most 0.35%."""

ADVICE_SAMPLES = 2_000
"""Legs simulated per position for the value of a race-track action, when not exact; the
positions share their card sequences, so the differences are steadier than that suggests."""

EXACT_CARDS = 8
"""The most cards left in the deck for which the leg odds are worked out exactly: rows grow
about fivefold a card, so with more they would run into the millions."""

EXACT_ROWS = 150_000
"""The most rows the exact leg odds may branch into at one card, all positions together."""

CARD_TYPES = tuple((camel, value) for camel in CAMELS for value in (1, 2))
"""A racing card's kind; a card is a column of a deck's counts. A draw is one of 20 options:
an intel card of kind k (k) or a secret card of kind k (10 + k)."""

ALL_CARDS = np.array([CARDS_PER_COLOUR[value] for _, value in CARD_TYPES], dtype=np.int64)
KIND_CAMEL = np.array([CAMELS.index(camel) for camel, _ in CARD_TYPES], dtype=np.int16)
KIND_VALUE = np.array([value for _, value in CARD_TYPES], dtype=np.int16)
RADIX = np.cumprod(np.concatenate([[1], ALL_CARDS[:-1] + 1]))
"""Mixed-radix weights that turn a deck's counts into one number."""

WINNER_CARD_PAY = (1, -1, -1, -1)
"""A leg Winner card's pay for second to fifth; first pays the card's value."""
FINAL_PAY = {"winner": (7, 3, -1, -1, -1), "loser": (-1, -1, -1, 3, 7)}
"""A final card's pay for each place, first to fifth."""


@dataclass(frozen=True)
class Rows:
    """Many tracks at once, a column per track, a row per camel (in `CAMELS` order).

    `pos` is the space (0 the Start card), `height` the level in its stack (0 at the bottom, and
    on the Start card), `figures` the fennec's and the palm's space (0 beside the track),
    `length` the spaces before the Finish card, `cards` the Race Track cards' sizes (2, 1 for a
    sandstorm, 0 past the last). A track is a column, not a row: what is worked out across a
    track's five camels (is one past the finish, which is first) is then one step over five
    rows of tracks, where across a row's five columns NumPy took 5 to 30 times as long.
    """

    pos: np.ndarray
    height: np.ndarray
    figures: np.ndarray
    length: np.ndarray
    cards: np.ndarray

    @classmethod
    def of(cls, state: State) -> Rows:
        pos = np.zeros((len(CAMELS), 1), dtype=np.int16)
        height = np.zeros((len(CAMELS), 1), dtype=np.int16)
        for space, stack in state.track.stacks:
            for level, camel in enumerate(stack):
                pos[CAMELS.index(camel), 0] = space
                height[CAMELS.index(camel), 0] = level
        figures = np.array([[state.figure_space(f) or 0] for f in FIGURES], dtype=np.int16)
        return cls(pos, height, figures, np.array([state.length], dtype=np.int16),
                   np.array(state.cards, dtype=np.int16)[:, None])

    def __len__(self) -> int:
        return len(self.length)

    def take(self, index: np.ndarray) -> Rows:
        return Rows(*(_columns(part, index) for part in
                      (self.pos, self.height, self.figures, self.length, self.cards)))

    @classmethod
    def join(cls, parts: Sequence[Rows]) -> Rows:
        width = max(len(p.cards) for p in parts)
        cards = [np.pad(p.cards, ((0, width - len(p.cards)), (0, 0))) for p in parts]
        pos, height, figures = (np.concatenate([getattr(p, name) for p in parts], axis=1)
                                for name in ("pos", "height", "figures"))
        return cls(pos, height, figures, np.concatenate([p.length for p in parts]),
                   np.concatenate(cards, axis=1))

    def crossed(self) -> np.ndarray:
        """Tracks where a camel has reached or passed the Finish card: the race is over."""
        return self.pos.max(axis=0) > self.length

    def places(self) -> np.ndarray:
        """Each camel's place (0: first), higher in a stack ahead; the Start card shares 4."""
        start = self.pos == 0
        key = (self.pos.astype(np.int32) * 8 + self.height) * ~start - start
        ahead = np.zeros(key.shape, dtype=np.int64)
        for other in key:
            ahead += other > key
        ahead[start] = len(CAMELS) - 1
        return ahead

    def key(self) -> np.ndarray:
        """One number per track for where the camels and figures stand (not the track's size)."""
        cells = (self.pos.astype(np.int64) | self.height.astype(np.int64) << 6)
        key = self.figures[0].astype(np.int64) | self.figures[1].astype(np.int64) << 6
        for camel, cell in enumerate(cells):
            key |= cell << (12 + 9 * camel)
        return key


def _running_totals(array: np.ndarray) -> np.ndarray:
    """np.cumsum(array, axis=0), summed one row after another: NumPy's own took 20 to 100
    times as long down the rows of these arrays."""
    totals = np.empty_like(array)
    totals[0] = array[0]
    for row in range(1, len(array)):
        np.add(totals[row - 1], array[row], out=totals[row])
    return totals


def _at_most(totals: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """In each column, how many of the whole numbers `totals` are at most `bound`."""
    whole = np.floor(bound).astype(totals.dtype)
    return (totals <= whole).sum(axis=0, dtype=totals.dtype)


def _columns(array: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The columns `index` (indices, or a mask) of `array`, laid out row by row: NumPy's
    `array[:, index]` lays them out column by column, and every step across a track's camels
    was then as slow as it is across a row's five columns."""
    if index.dtype == bool:
        return array.compress(index, axis=-1)
    return array.take(index, axis=-1)


def move(rows: Rows, camel: np.ndarray, steps: np.ndarray) -> Rows:
    """Move `camel[i]` forward `steps[i]` on track i as a racing card or a hand card does.

    The camel carries those above it (alone off the Start card); a figure landed on moves the
    unit once more (the palm 1 on, on top; the fennec 1 back, underneath) and goes back beside
    the track, and figures chain; back past space 1 the camel rejoins the Start card. Then a
    figure every camel has passed goes back too.
    """
    n = len(camel)
    pos, height = rows.pos, rows.height
    at = camel.astype(np.intp) * n + np.arange(n)
    start, level = pos.ravel().take(at), height.ravel().take(at)
    alone = np.arange(len(CAMELS))[:, None] == camel
    movers = (pos == start) & (height >= level) & (start > 0) | alone
    target = start + steps
    figures = rows.figures
    placed = figures.any()   # on no track, as in every later leg of a race simulated
    under = np.zeros(n, dtype=bool)
    if placed:
        figures = figures.copy()
        for _ in FIGURES:
            fennec = (figures[0] == target) & (target > 0)
            palm = (figures[1] == target) & (target > 0)
            figures[0, fennec] = 0
            figures[1, palm] = 0
            target = target + palm - fennec
            under = (under | fennec) & ~palm
    on_track = target > 0
    there = (pos == target) & ~movers & on_track
    # masks times numbers rather than np.where, which took ten times as long on these arrays
    below = there.sum(axis=0, dtype=np.int16) * ~under
    new_height = height + movers * (below - level)
    new_height += (there & under) * movers.sum(axis=0, dtype=np.int16)
    new_height *= ~(movers & ~on_track)
    new_pos = pos + movers * (np.maximum(target, 0) - start)
    if placed:
        figures *= figures >= new_pos.min(axis=0)
    return Rows(new_pos, new_height, figures, rows.length, rows.cards)


def set_up_leg(rows: Rows) -> Rows:
    """The table's setup before a leg on every track: figures back beside the track, empty
    two-space cards between the last camel and the leader turned to sandstorm, then the track
    extended to 3 spaces past the leader."""
    cards, pos = rows.cards, rows.pos
    starts = _running_totals(cards) - cards + 1
    last, leader = pos.min(axis=0), pos.max(axis=0)
    at = pos[None, :, :]
    occupied = ((at == starts[:, None, :]) | (at == starts[:, None, :] + 1)).any(axis=1)
    flip = (cards == 2) & (last < starts) & (starts + 1 < leader) & ~occupied
    shift = (flip[:, None, :] & (starts[:, None, :] < pos[None, :, :])).sum(axis=0)
    pos = (pos - shift * (pos > 0)).astype(np.int16)
    cards = cards - flip   # a 2 turned to a sandstorm's 1
    length = rows.length - flip.sum(axis=0)
    length = np.maximum(length, pos.max(axis=0) + 3).astype(np.int16)
    short = np.maximum(length - cards.sum(axis=0), 0)
    added = (short + 1) // 2
    used = (cards > 0).sum(axis=0)
    width = max(len(cards), int((used + added).max(initial=0)))
    cards = np.pad(cards, ((0, width - len(cards)), (0, 0)))
    card = np.arange(width)[:, None]
    cards = cards + 2 * ((card >= used) & (card < used + added))   # where none were
    return Rows(pos, rows.height, np.zeros_like(rows.figures), length, cards.astype(np.int16))


# --- what the racing deck may still hold ------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    """What may still come out of the racing deck, a column per story of what is in it (a
    row per card kind, as `Rows` has a column per track).

    `intel` counts the intel cards not yet revealed by kind, `pool` the cards the secret ones
    are drawn from, less those revealed; `left` is the cards left in the deck.
    """

    intel: np.ndarray
    pool: np.ndarray
    left: int

    def __len__(self) -> int:
        return self.pool.shape[1]

    def chances(self) -> np.ndarray:
        """chances[o, i]: the chance the next card is option o (see `CARD_TYPES`) in story i."""
        secret = (self.left - self.intel.sum(axis=0)) / self.left
        total = self.pool.sum(axis=0)
        each = np.divide(secret, total, out=np.zeros(len(self)), where=total > 0)
        return np.concatenate([self.intel / self.left, self.pool * each])

    def next_card(self, chance: np.ndarray) -> np.ndarray:
        """The option (see `CARD_TYPES`) each story's next card is, for one draw chance[i]
        from [0, 1) a story: where the draw falls among the options' chances laid end to end,
        intel cards first. Counted in cards, not in chances: no 40 chances a story made
        and summed (the most of a simulated leg's time)."""
        intel, pool = _running_totals(self.intel), _running_totals(self.pool)
        shown, secret = intel[-1], self.left - intel[-1]
        # in cards: the intel cards, then as many more as the secret ones (if any can be)
        cards = chance * (shown + secret * (pool[-1] > 0))
        from_intel = cards < shown
        # past the intel cards, the same share of the way through the pool's cards
        among = (cards - shown) * pool[-1] / np.maximum(secret, 1)
        option = np.where(from_intel, _at_most(intel, cards),
                          len(CARD_TYPES) + _at_most(pool, among))
        return option.clip(0, 2 * len(CARD_TYPES) - 1)

    def drawn(self, option: np.ndarray) -> Deck:
        """The deck after option[i] came out in story i."""
        kind = np.arange(len(CARD_TYPES))[:, None]
        return Deck(self.intel - (kind == option), self.pool - (kind + len(CARD_TYPES) == option),
                    self.left - 1)

    def take(self, index: np.ndarray) -> Deck:
        return Deck(_columns(self.intel, index), _columns(self.pool, index), self.left)

    def key(self) -> np.ndarray:
        return (RADIX @ self.intel) * int(RADIX[-1] * (ALL_CARDS[-1] + 1)) + RADIX @ self.pool


def _counts(cards: Iterable[tuple[str, int]]) -> np.ndarray:
    """How many of each card kind `cards` hold, as a column."""
    seen = Counter(cards)
    return np.array([[seen[kind]] for kind in CARD_TYPES], dtype=np.int16)


def deck_posterior(state: State, hands: Sequence[str] = ()) -> tuple[Deck, np.ndarray]:
    """Every story of what the deck holds now, with its chance given what the table saw.

    The hand cards played this leg (and `hands`, colours known to be in a hand) never went in:
    each is a +2 as often as the pool's +2 of its colour says. Between legs, the next deck is
    any cards of the 30.
    """
    every = ALL_CARDS[:, None].astype(np.int16)
    if state.due:
        return Deck(np.zeros_like(every), every, state.deck_size), np.ones(1)
    intel = _counts((camel, value) for _, camel, value in state.intel)
    deck = Deck(intel, every - intel, state.deck_size)
    weight = np.ones(1)
    played = [p.hand_played for p in state.players if p.hand_played]
    for camel in (*played, *hands):
        one, two = (CARD_TYPES.index((camel, v)) for v in (1, 2))
        share = deck.pool[[one, two]] / deck.pool[[one, two]].sum(axis=0)
        stories = []
        for kind in (one, two):
            pool = deck.pool.copy()
            pool[kind] -= 1
            stories.append(replace(deck, pool=pool))
        deck, weight = _merged_stories(stories, [weight * share[0], weight * share[1]])
    for card in state.revealed:
        kind = CARD_TYPES.index(card)
        chances = deck.chances()
        options = [np.full(len(deck), kind), np.full(len(deck), kind + len(CARD_TYPES))]
        deck, weight = _merged_stories([deck.drawn(o) for o in options],
                                       [weight * chances[o[0]] for o in options])
    return deck, weight / weight.sum()


def _merged_stories(decks: Sequence[Deck], weights: Sequence[np.ndarray]
                    ) -> tuple[Deck, np.ndarray]:
    """The stories side by side, those that cannot be dropped and equal ones made one."""
    deck = Deck(np.concatenate([d.intel for d in decks], axis=1),
                np.concatenate([d.pool for d in decks], axis=1), decks[0].left)
    weight = np.concatenate(weights)
    keep = (weight > 0) & (deck.pool >= 0).all(axis=0) & (deck.intel >= 0).all(axis=0)
    deck, weight = deck.take(keep), weight[keep]
    unique, first, inverse = np.unique(deck.key(), return_index=True, return_inverse=True)
    return deck.take(first), np.bincount(inverse, weight, len(unique))


# --- the leg ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LegOdds:
    """How the current leg can end, for the position or positions asked about."""

    places: np.ndarray
    """places[i, k]: the chance camel i (in `CAMELS` order) ends the leg in place k (0: first;
    every camel on the Start card is fifth, so a column may hold more or less than 1)."""
    race_places: np.ndarray
    """race_places[i, k]: the chance the race ends this leg with camel i in place k."""
    figures_on: np.ndarray
    """figures_on[f]: the chance the fennec (0) or palm (1) is still on the track at the end,
    its card still held."""
    samples: int
    """Legs simulated: 0 when the odds are exact."""
    stderr: float
    """The largest standard error among the probabilities: 0 when exact."""
    rows: int = 0
    """When exact, the most rows (tracks and decks, all the positions together) at one card."""

    @property
    def race_over(self) -> float:
        return float(self.race_places[:, 0].sum())


@dataclass(frozen=True)
class Start:
    """A position to work the leg out from: its tracks and the stories of its deck."""

    rows: Rows
    deck: Deck
    weight: np.ndarray


def start_of(state: State, hands: Sequence[str] = ()) -> Start:
    """The position as one track (set up first if a leg_setup is due) and its deck's stories."""
    rows = set_up_leg(Rows.of(state)) if state.due else Rows.of(state)
    deck, weight = deck_posterior(state, hands)
    return Start(rows, deck, weight)


class _Tally:
    """Chances added up per position as the legs end."""

    def __init__(self, positions: int) -> None:
        self.places = np.zeros((positions, len(CAMELS), len(CAMELS)))
        self.race = np.zeros_like(self.places)
        self.figures = np.zeros((positions, len(FIGURES)))

    def add(self, rows: Rows, prob: np.ndarray, group: np.ndarray, *, race_over: bool) -> None:
        size = self.places.size
        slots = (group * len(CAMELS) + np.arange(len(CAMELS))[:, None]) * len(CAMELS)
        slots = (slots + rows.places()).ravel()
        chances = np.bincount(slots, np.tile(prob, len(CAMELS)), size).reshape(
            self.places.shape)
        self.places += chances
        if race_over:
            self.race += chances
        for f, on in enumerate(rows.figures > 0):
            self.figures[:, f] += np.bincount(group[on], prob[on], len(self.figures))

    def odds(self, samples: int, rows: int = 0) -> list[LegOdds]:
        if samples:
            spread = self.places.clip(0, 1)
            err = np.sqrt(spread * (1 - spread) / samples).max(axis=(1, 2))
        else:
            err = np.zeros(len(self.places))
        return [LegOdds(self.places[g], self.race[g], self.figures[g], samples, float(err[g]),
                        rows) for g in range(len(self.places))]


def leg_odds(state: State, *, seed: int = SEED) -> LegOdds:
    """The odds of the leg under way (or of the next one while its leg_setup is due)."""
    if state.finished:
        rows = Rows.of(state)
        tally = _Tally(1)
        tally.add(rows, np.ones(1), np.zeros(1, dtype=np.int64), race_over=True)
        return tally.odds(0)[0]
    return legs([start_of(state)], samples=LEG_SAMPLES, seed=seed)[0]


def legs(starts: Sequence[Start], *, samples: int, seed: int, exact: bool = True
         ) -> list[LegOdds]:
    """The leg odds of each start: exact with up to `EXACT_CARDS` cards left while the rows stay
    under `EXACT_ROWS` (unless `exact` is False), else simulated (`samples` legs each, every
    start drawing the same cards where its deck allows)."""
    worked = _exact_legs(starts) if exact and starts[0].deck.left <= EXACT_CARDS else None
    return worked if worked is not None else _simulated_legs(starts, samples, seed)


def _exact_legs(starts: Sequence[Start]) -> list[LegOdds] | None:
    """Every way the rest of each deck can come out, merged; None once the rows pass the cap."""
    group = np.concatenate([np.full(len(s.deck), g) for g, s in enumerate(starts)])
    rows = Rows.join([s.rows.take(np.zeros(len(s.deck), dtype=np.int64)) for s in starts])
    deck = Deck(np.concatenate([s.deck.intel for s in starts], axis=1),
                np.concatenate([s.deck.pool for s in starts], axis=1), starts[0].deck.left)
    prob = np.concatenate([s.weight for s in starts])
    tally = _Tally(len(starts))
    over = rows.crossed()
    tally.add(rows.take(over), prob[over], group[over], race_over=True)
    rows, deck, prob, group = rows.take(~over), deck.take(~over), prob[~over], group[~over]
    most = len(rows)
    while len(rows) and deck.left:
        chances = deck.chances()
        option, parent = np.nonzero(chances)
        if len(parent) > EXACT_ROWS:
            return None
        most = max(most, len(parent))
        rows = move(rows.take(parent), KIND_CAMEL[option % len(CARD_TYPES)],
                    KIND_VALUE[option % len(CARD_TYPES)])
        deck, prob = deck.take(parent).drawn(option), prob[parent] * chances[option, parent]
        group = group[parent]
        over = rows.crossed()
        if over.any():
            tally.add(rows.take(over), prob[over], group[over], race_over=True)
            rows, deck, prob, group = (rows.take(~over), deck.take(~over), prob[~over],
                                       group[~over])
        if deck.left:   # after the last card the tracks are only counted: none to merge
            rows, deck, prob, group = _merge(rows, deck, prob, group)
    tally.add(rows, prob, group, race_over=False)
    return tally.odds(0, most)


_MIXED = 0x9E3779B97F4A7C15 - 2**64
"""An odd number near 2**64 / golden ratio: multiplied by a track's number, it spreads tracks
that differ a little far apart before a deck's number is added."""


def _merge(rows: Rows, deck: Deck, prob: np.ndarray, group: np.ndarray
           ) -> tuple[Rows, Deck, np.ndarray, np.ndarray]:
    """Rows of one position with the same track and the same deck become one, chances added.

    The rows are sorted by one number made of both (a third of the time of sorting by the
    two): equal rows get equal numbers, so they end up side by side; two unequal rows that
    happen to get the same number (it wraps round) are told apart and merely not merged."""
    track, held = rows.key(), deck.key() * 64 + group
    order = np.argsort(track * _MIXED + held)
    track, held = track[order], held[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (track[1:] != track[:-1]) | (held[1:] != held[:-1])
    first = order[starts]
    return (rows.take(first), deck.take(first), np.bincount(np.cumsum(starts) - 1, prob[order]),
            group[first])


def card_sequences(deck: Deck, weight: np.ndarray, count: int,
                   rng: np.random.Generator) -> np.ndarray:
    """`count` ways the rest of the deck comes out, drawn at random: kinds[k, i] is the kind of
    the k-th card in way i."""
    stories = rng.choice(len(deck), size=count, p=weight)
    deck = deck.take(stories)
    kinds = np.empty((deck.left, count), dtype=np.int64)
    for step in range(deck.left):
        option = deck.next_card(rng.random(count))
        kinds[step] = option % len(CARD_TYPES)
        deck = deck.drawn(option)
    return kinds


def _play(rows: Rows, kinds: np.ndarray, group: np.ndarray, tally: _Tally, prob: float,
          *, race_over_at_end: bool = False) -> tuple[Rows, np.ndarray]:
    """Each track plays its cards in turn (kinds[k, i]: track i's k-th); returns the tracks still
    racing and their indices."""
    index = np.arange(len(rows))
    for each in kinds:
        kind = each[index]
        rows = move(rows, KIND_CAMEL[kind], KIND_VALUE[kind])
        over = rows.crossed()
        if over.any():   # most cards end no race: nothing to set apart
            tally.add(rows.take(over), np.full(over.sum(), prob), group[index[over]],
                      race_over=True)
            rows, index = rows.take(~over), index[~over]
    if not race_over_at_end:
        tally.add(rows, np.full(len(rows), prob), group[index], race_over=False)
    return rows, index


def _simulated_legs(starts: Sequence[Start], samples: int, seed: int) -> list[LegOdds]:
    """`samples` legs from each start, played all at once; starts whose decks tell the same
    stories draw the very same cards."""
    drawn: dict[tuple[bytes, bytes], np.ndarray] = {}
    for start in starts:
        story = (start.deck.key().tobytes(), start.weight.tobytes())
        if story not in drawn:
            drawn[story] = card_sequences(start.deck, start.weight, samples,
                                          np.random.default_rng(seed))
    kinds = np.concatenate([drawn[s.deck.key().tobytes(), s.weight.tobytes()] for s in starts],
                           axis=1)
    rows = Rows.join([s.rows.take(np.zeros(samples, dtype=np.int64)) for s in starts])
    group = np.repeat(np.arange(len(starts)), samples)
    tally = _Tally(len(starts))
    over = rows.crossed()
    tally.add(rows.take(over), np.full(over.sum(), 1 / samples), group[over], race_over=True)
    _play(rows.take(~over), kinds[:, ~over], group[~over], tally, 1 / samples)
    return tally.odds(samples)


# --- the race ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceOdds:
    places: np.ndarray
    """places[i, k]: the chance camel i ends the race in place k (fifth: on the Start card too)."""
    races: int
    """Races simulated: 0 when the odds are exact."""
    stderr: float

    @property
    def winner(self) -> np.ndarray:
        return self.places[:, 0]

    @property
    def loser(self) -> np.ndarray:
        return self.places[:, -1]


def race_odds(state: State, leg: LegOdds, *, races: int = RACES, seed: int = SEED) -> RaceOdds:
    """Each camel's chance of each place at the end of the race; exact if it ends this leg."""
    if leg.race_over > 1 - 1e-9 and not leg.samples:
        return RaceOdds(leg.race_places / leg.race_over, 0, 0.0)
    return simulate_race(state, races=races, seed=seed)


def simulate_race(state: State, *, races: int = RACES, seed: int = SEED) -> RaceOdds:
    """The race played out `races` times at once: this leg's deck as the odds take it, every
    later leg's a random draw of the deck's size from the 30, each leg set up as the rules say."""
    rng = np.random.default_rng(seed)
    start = start_of(state)
    tally = _Tally(1)
    group = np.zeros(races, dtype=np.int64)
    rows = start.rows.take(np.zeros(races, dtype=np.int64))
    kinds = card_sequences(start.deck, start.weight, races, rng)
    every = np.repeat(np.arange(len(CARD_TYPES)), ALL_CARDS)
    while len(rows):
        rows, index = _play(rows, kinds, group, tally, 1 / races, race_over_at_end=True)
        rows, group = set_up_leg(rows), group[index]
        order = rng.random((len(rows), len(every))).argsort(axis=1)[:, : state.deck_size]
        kinds = every[order.T]
    spread = tally.race[0].clip(0, 1)
    return RaceOdds(tally.race[0], races, float(np.sqrt(spread * (1 - spread) / races).max()))


# --- what each action is worth ----------------------------------------------------------------


def leg_card_pay(kind: str, value: int) -> np.ndarray:
    """A leg betting card's pay for each place, first to fifth."""
    if kind == "winner":
        return np.array((value, *WINNER_CARD_PAY), dtype=float)
    return np.array([MIDFIELD_PAY[place] for place in range(1, len(CAMELS) + 1)], dtype=float)


def leg_expectation(state: State, player: str, leg: LegOdds) -> float:
    """The coins `player`'s leg cards (betting cards and figure cards) are expected to bring."""
    me = state.player(player)
    bets = sum(leg_card_pay(b.kind, b.value) @ leg.places[CAMELS.index(b.camel)]
               for b in me.leg_bets)
    return float(bets - sum(leg.figures_on[f] for f, figure in enumerate(FIGURES)
                            if state.holder(figure) == player))


def final_card_value(state: State, action: FinalBet, race: RaceOdds) -> float:
    """A final card's expected pay, less that of the player's own card it sends back."""
    pay = np.array(FINAL_PAY[action.pile], dtype=float)
    held = state.final_card(action.pile, action.player)
    value = pay @ race.places[CAMELS.index(action.camel)]
    return float(value - (0 if held is None else pay @ race.places[CAMELS.index(held)]))


def action_values(state: State, leg: LegOdds, race: RaceOdds, *, seed: int = SEED
                  ) -> list[tuple[Action, float]]:
    """Every action open to the player to act with the coins it is expected to bring, best first.

    A bet is worth its card's expected pay (a final card less the one it sends back). A
    race-track action is worth what it changes in the expected leg pay of the cards its player
    holds, the figure's own card included: a reveal changes nothing (the card comes as the odds
    already say), a hand card is valued as if it is of the colour played and a figure for where
    it is placed, each against the same deck and the same cards drawn.
    """
    legal = [a for a in legal_actions(state)
             if not isinstance(a, LegSetup) and a.player == state.player_to_act]
    moves = [a for a in legal if isinstance(a, (PlayHand, PlaceFigure))]
    before = start_of(state)
    starts, pairs = [before], []
    for play in moves:
        hands = (play.camel,) if isinstance(play, PlayHand) else ()
        after = apply(state, play)
        if hands:
            starts.append(start_of(state, hands))
        pairs.append((after, len(starts) - 1 if hands else 0, len(starts)))
        starts.append(start_of(after))
    # each start's exact odds take about as many rows as the position's own, for each story of
    # its deck: where all of them together would pass the cap, they are simulated at once, not
    # first worked out card by card until the rows pass it (with 8 cards left, two thirds of
    # the advice's time)
    stories = sum(len(start.deck) for start in starts)
    exact = not leg.samples and leg.rows * stories <= EXACT_ROWS * len(before.deck)
    odds = legs(starts, samples=ADVICE_SAMPLES, seed=seed, exact=exact)
    moved: dict[Action, float] = {}
    for play, (after, baseline, outcome) in zip(moves, pairs, strict=True):
        moved[play] = (leg_expectation(after, play.player, odds[outcome])
                       - leg_expectation(state, play.player, odds[baseline]))
    values: list[tuple[Action, float]] = []
    for action in legal:
        if isinstance(action, LegBet):
            top = dict(state.winner_stacks)[action.camel][0] if action.kind == "winner" else 0
            value = float(leg_card_pay(action.kind, top) @ leg.places[CAMELS.index(action.camel)])
        elif isinstance(action, FinalBet):
            value = final_card_value(state, action, race)
        elif isinstance(action, Reveal):
            value = 0.0
        else:
            value = moved[action]
        values.append((action, value))
    return sorted(values, key=lambda item: -item[1])


def assumes(leg: LegOdds, race: RaceOdds) -> str:
    """The one sentence the dashboard shows under the odds."""
    how = ("exact" if not leg.samples else
           f"from {leg.samples:,} simulated legs (standard error {leg.stderr:.1%})")
    races = ("exact" if not race.races else
             f"from {race.races:,} simulated races (standard error {race.stderr:.1%})")
    return ("Cards not seen are taken as drawn at random from the 30 less the intel and hand "
            "cards shown, in random order, with no more hand cards played nor figures placed; "
            f"leg odds {how}, race odds {races}, later legs' decks random.")


def odds_json(state: State, *, races: int = RACES, seed: int = SEED) -> dict[str, Any]:
    """The odds and advice as `camel-companion odds --json` prints them, with `assumes` and
    the figures it is written from (`leg_samples`, `leg_stderr`; `race`'s own), so a page
    writes the sentence in its language."""
    leg = leg_odds(state, seed=seed)
    race = race_odds(state, leg, races=races, seed=seed)
    actions = [] if state.finished or state.due else action_values(state, leg, race, seed=seed)
    return {
        "leg": {camel: leg.places[i].tolist() for i, camel in enumerate(CAMELS)},
        "race": {
            "winner": dict(zip(CAMELS, race.winner.tolist(), strict=True)),
            "loser": dict(zip(CAMELS, race.loser.tolist(), strict=True)),
            "races": race.races,
            "stderr": race.stderr,
        },
        "actions": [{"action": a.to_json(), "ev": round(v, 4)} for a, v in actions],
        "assumes": assumes(leg, race),
        "leg_samples": leg.samples,
        "leg_stderr": leg.stderr,
    }
