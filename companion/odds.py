"""Odds and advice: each camel's chances this leg and in the race, and what each action is worth.

Leg odds are exact: every way the dice left in the pyramid can come out (every order, every
face, the grey die's values in both numeral colours) is gone through, but tracks that have
become the same are merged after every roll (but one from a few dozen), so a full leg takes
thousands of array rows, not hundreds of thousands of walks. Race odds carry on from the
tracks the leg can end on: exact, leg after leg, for as long as a leg's rolls fit in
`MOST_ROWS` rows, and beyond simulated, seeded, thousands of races at once. Each game's rules
name the module of its odds (`GameRules.odds`); `ODDS` gives them by the game's name, so Camel
Up Cards brings its own.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.rules import GAMES
from companion.rules.camelup import (
    Edition,
    LegBet,
    Partnership,
    RaceBet,
    Roll,
    State,
    TilePlacement,
    legal_actions,
)
from companion.rules.players import Action
from companion.tracks import (
    Layout,
    crazy_camel_forced,
    crazy_camel_to_move,
    move,
    target,
    tile_at,
    tile_sides,
)

RACES = 10_000
"""Races simulated by default: the largest standard error of a probability is then 0.5%."""

SEED = 2014
"""The simulation's seed unless one is given, so the same position gives the same figures."""


@dataclass(frozen=True)
class LegOdds:
    """How the current leg can end, over every way the dice can still come out."""

    camels: tuple[str, ...]
    places: np.ndarray
    """places[i, k]: the chance that racing camel i ends the leg in place k (0: first)."""
    pairs: np.ndarray
    """pairs[i, j]: the chance that camel i leads the leg and camel j comes second."""
    race_over: float
    """The chance the race ends during this leg."""
    winner: np.ndarray
    """winner[i]: the chance the race ends this leg and camel i wins it."""
    loser: np.ndarray
    landings: dict[int, float]
    """Expected landings on the tile at each space: the coins its owner can expect."""
    ends: tuple[np.ndarray, np.ndarray] = field(repr=False, compare=False)
    """The tracks (cells) the leg can end on with the race going on, with their chances."""


@dataclass(frozen=True)
class RaceOdds:
    winner: np.ndarray
    loser: np.ndarray
    races: int
    """Races simulated: 0 when the odds are exact."""
    stderr: float
    """The largest standard error among the probabilities: 0 when exact."""


def leg_odds(state: State, tiles: dict[int, int] | None = None) -> LegOdds:
    """The exact odds of the leg under way; `tiles` replaces the state's tiles if given."""
    edition = state.edition
    layout = Layout.of(edition)
    codes = layout.tile_codes(tile_sides(state) if tiles is None else tiles)
    racing = layout.racing
    places = np.zeros((racing, racing))
    pairs = np.zeros((racing, racing))
    winner, loser = np.zeros(racing), np.zeros(racing)
    landings = np.zeros(len(codes))

    def settle(cells: np.ndarray, prob: np.ndarray, over: np.ndarray) -> None:
        """Each row's chance added to its places, to its first two camels and, where the race
        is over, to its winner and loser.

        Camel Up races five camels. The rows are counted once, by their first two and last
        two camels (the third is the one those four leave), and every place and pair is
        summed from those counts rather than counted row by row again."""
        order = layout.order(cells)
        first, last = order[0] * racing + order[1], order[3] * racing + order[4]
        counts = np.bincount(first * racing**2 + last, prob, racing**4)
        pairs[:] += counts.reshape(racing**2, -1).sum(axis=1).reshape(racing, racing)
        places[:] += np.bincount(_places_of(racing), counts.repeat(racing),
                                 racing * racing).reshape(racing, racing)
        if over.any():
            winner[:] += np.bincount(order[0][over], prob[over], racing)
            loser[:] += np.bincount(order[-1][over], prob[over], racing)

    cells = layout.cells(state)
    if state.finished:
        settle(cells, np.ones(1), np.ones(1, dtype=bool))
        ends = cells[:, :0], np.zeros(0)
    else:
        tiled = bool(codes.any())
        played = _play_leg(layout, state.dice_in_pyramid, cells, np.ones(1),
                           codes=codes if tiled else None,
                           rolls=edition.dice_per_leg - len(state.dice_out), settle=settle,
                           landings=landings if tiled else None)
        assert played is not None
        ends = played
    return LegOdds(
        camels=layout.camels[:racing],
        places=places,
        pairs=pairs,
        race_over=float(winner.sum()),
        winner=winner,
        loser=loser,
        landings={space: float(landings[space]) for space in range(1, edition.spaces + 1)
                  if landings[space]},
        ends=ends,
    )


@functools.cache
def _places_of(racing: int) -> np.ndarray:
    """For each first, second, fourth and last camel of five (those four camels' rows as the
    digits of a number in base `racing`), each camel's place in turn (as camel * racing +
    place), the third being the one the four leave. Where two of the four are the same no
    row is ever counted, so what stands there does not matter."""
    four = np.indices((racing,) * 4).reshape(4, -1)
    third = (racing * (racing - 1) // 2 - four.sum(axis=0)) % racing
    camel = np.stack([four[0], four[1], third, four[2], four[3]], axis=1)
    return (camel * racing + np.arange(racing)).ravel()


def _play_leg(layout: Layout, dice: tuple[str, ...], cells: np.ndarray, prob: np.ndarray, *,
              codes: np.ndarray | None, rolls: int, settle: Callable[..., None],
              landings: np.ndarray | None = None,
              most_rows: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Every way the rest of a leg can go from each row, all with the same `dice` left.

    `settle(cells, prob, over)` is handed the rows where the race ends before the last roll,
    all at once at the end (settling a few rows after each roll takes nearly as long as
    settling many), then every row after the last roll (`over` telling where the race is over
    too). Landings on tiles are added up in `landings`. Returns the tracks the leg ends on
    with the race going on and their chances, or None, having stopped, if a roll would need
    more than `most_rows`.
    """
    pyramid = _Dice.of(layout, dice)
    mask = np.full(len(prob), (1 << len(dice)) - 1, dtype=np.uint8)
    over = np.zeros(len(prob), dtype=bool)
    ended: list[tuple[np.ndarray, np.ndarray]] = []
    for step in range(rolls):
        if not len(prob):
            break
        if most_rows is not None and len(prob) * 3 * (len(dice) - step + pyramid.grey) > most_rows:
            return None
        parent, camel, prob, left = _outcomes(layout, pyramid, cells, mask=mask,
                                              prob=prob / (len(dice) - step))
        cells, landed, over = move(layout, cells.take(parent, axis=1), camel, _VALUES,
                                   codes=codes)
        prob, left = _each_value(prob), _each_value(left)
        if landed is not None and landings is not None:
            landings += np.bincount(landed, prob, len(landings))
        if step < rolls - 1:
            if over.any():
                ended.append((cells.compress(over, axis=1), prob[over]))
                cells, left, prob = cells.compress(~over, axis=1), left[~over], prob[~over]
            if len(prob) > _FEW_ROWS:
                cells, left, prob = _merge(cells, left, prob)
            mask, over = left, np.zeros(len(prob), dtype=bool)
    if ended:
        gone = np.concatenate([p for _, p in ended])
        settle(np.concatenate([c for c, _ in ended], axis=1), gone, np.ones(len(gone), dtype=bool))
    settle(cells, prob, over)
    return (cells.compress(~over, axis=1), prob[~over]) if over.any() else (cells, prob)


_FEW_ROWS = 32
"""Rows too few to merge after a roll: sorting them costs more than the rows it would save."""


@dataclass(frozen=True)
class _Dice:
    """The dice still in the pyramid, the grey die once for each numeral colour: a roll is
    one of them showing 1, 2 or 3."""

    bit: np.ndarray
    """The die's bit in a row's mask of the dice left."""
    camel: np.ndarray
    """The camel (index) it moves; -1 for the grey die, whose camel depends on the track."""
    numeral: np.ndarray
    """For the grey die, the crazy camel (index) its numeral shows."""
    chance: np.ndarray
    """The chance of each of its values once its die is drawn."""
    grey: bool

    @classmethod
    @functools.cache
    def of(cls, layout: Layout, dice: tuple[str, ...]) -> _Dice:
        each = []
        for index, die in enumerate(dice):
            if die in layout.camels:
                each.append((1 << index, layout.index(die), 0, 1 / 3))
            else:
                each += [(1 << index, -1, layout.racing + numeral, 1 / 6) for numeral in (0, 1)]
        bit, camel, numeral, chance = zip(*each, strict=True)
        return cls(np.array(bit, np.uint8), np.array(camel, np.int16),
                   np.array(numeral, np.int16), np.array(chance), min(camel) < 0)


_VALUES = np.array([[1], [2], [3]], dtype=np.int16)
"""The values a die shows, one a row: `move` moves each track by all three."""


def _outcomes(layout: Layout, dice: _Dice, cells: np.ndarray, *, mask: np.ndarray,
              prob: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every die each row can roll next: parent row, camel moved, chance of each of its
    values, dice left.

    The grey die's camel is chosen once for each die, not for each value."""
    found = np.flatnonzero((dice.bit[:, None] & mask) != 0)
    die, parent = found // len(mask), found % len(mask)
    camel = dice.camel[die]
    if dice.grey:
        grey = np.flatnonzero(camel < 0)
        forced = crazy_camel_forced(layout, cells)[parent[grey]]
        camel[grey] = np.where(forced < 0, dice.numeral[die[grey]], forced)
    return parent, camel, prob[parent] * dice.chance[die], mask[parent] & ~dice.bit[die]


def _each_value(rolled: np.ndarray) -> np.ndarray:
    """What `_outcomes` gives for each die, for each of its values in the order `move` gives
    the tracks moved by them."""
    return np.concatenate([rolled] * len(_VALUES))


def _merge(cells: np.ndarray, mask: np.ndarray, prob: np.ndarray,
           tiles: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Rows holding the same track and the same dice left become one, their chances added.

    With `tiles` (the candidate tiles each row stands for) those must be the same too. The
    rows come in runs already sorted (each face's rolls, row after row), which a stable sort
    takes in twice as quickly as the default one.
    """
    if not len(prob):
        return (cells, mask, prob) if tiles is None else (cells, mask, prob, tiles)
    packed = np.zeros((len(mask), 8), dtype=np.uint8)
    packed[:, : len(cells)] = cells.T
    packed[:, 7] = mask
    key = packed.view(np.int64).ravel()
    order = key.argsort(kind="stable") if tiles is None else np.lexsort((tiles, key))
    key = key[order]
    starts = np.empty(len(order), dtype=bool)
    starts[0] = True
    np.not_equal(key[1:], key[:-1], out=starts[1:])
    if tiles is not None:
        held = tiles[order]
        starts[1:] |= held[1:] != held[:-1]
    first = order[starts]
    merged = (cells.take(first, axis=1), mask[first],
              np.add.reduceat(prob[order], np.flatnonzero(starts)))
    return merged if tiles is None else (*merged, tiles[first])


def tile_landings(state: State, owner: str,
                  placements: list[tuple[int, int]]) -> dict[tuple[int, int], float]:
    """The landings expected this leg on `owner`'s tile at each placement (space, +1 or -1).

    Each placement is a leg of its own, with the owner's tile there and nowhere else. Rather
    than going through each apart, a row stands for the set of placements under which its
    track is the same, and splits only when a unit lands on one of their spaces.
    """
    edition = state.edition
    layout = Layout.of(edition)
    forward = edition.tile_sides[0]
    codes = layout.tile_codes({space: 1 if tile.side == forward else -1
                               for space, tile in state.tiles if tile.owner != owner})
    dice = state.dice_in_pyramid
    landings = np.zeros(2 * (edition.spaces + 2))
    cells = layout.cells(state)
    mask = np.array([(1 << len(dice)) - 1], dtype=np.uint8)
    prob = np.ones(1)
    tiles = np.array([sum(1 << (2 * space + (code < 0)) for space, code in placements)],
                     dtype=np.int64)
    rolls = edition.dice_per_leg - len(state.dice_out)
    pyramid = _Dice.of(layout, dice)
    for step in range(0 if state.finished else rolls):
        if not len(prob):
            break
        parent, camel, p, left = (_each_value(a) for a in _outcomes(
            layout, pyramid, cells, mask=mask, prob=prob / (len(dice) - step)))
        steps = _VALUES.repeat(len(parent) // len(_VALUES))
        held = tiles[parent]
        space = target(layout, cells, camel, steps, rows=parent)
        shift = 2 * np.clip(space, 0, edition.spaces + 1).astype(np.int64)
        landings += np.bincount(shift, p * ((held >> shift) & 1), len(landings))
        landings += np.bincount(shift + 1, p * ((held >> (shift + 1)) & 1), len(landings))
        if step == rolls - 1:
            break
        ahead, behind = held & (1 << shift), held & (2 << shift)
        rest = held & ~(ahead | behind)
        rows = [np.flatnonzero(rest), np.flatnonzero(ahead), np.flatnonzero(behind)]
        code = np.concatenate([tile_at(codes, space[rows[0]]),
                               np.ones(len(rows[1]), np.int16), -np.ones(len(rows[2]), np.int16)])
        tiles = np.concatenate([rest[rows[0]], ahead[rows[1]], behind[rows[2]]])
        every = np.concatenate(rows)
        cells, _, over = move(layout, cells.take(parent[every], axis=1), camel[every], steps[every],
                              codes=codes, code=code)
        going = ~over
        cells, mask, prob, tiles = _merge(cells.compress(going, axis=1),
                                          left[every][going], p[every][going],
                                          tiles[going])
    return {(space, code): float(landings[2 * space + (code < 0)])
            for space, code in placements}


def race_odds(state: State, leg: LegOdds, *, races: int = RACES, seed: int = SEED,
              most_rows: int | None = None) -> RaceOdds:
    """Each racing camel's chance to win and to lose the race.

    The current leg is exact (`leg`), and so is each leg after it for as long as every roll
    of it takes at most `most_rows` rows (`MOST_ROWS` unless given): when the race must end
    within those legs the odds are exact. The races still going on after them are played out
    from the tracks those legs can end on, each drawn as often as its chance says (one after
    another through the tracks in order, so that every part of them gets its share):
    `races` of them, or up to four times as many when only part of the chance is left.
    """
    if leg.race_over > 1 - 1e-9:
        return RaceOdds(leg.winner / leg.race_over, leg.loser / leg.race_over, 0, 0.0)
    edition = state.edition
    layout = Layout.of(edition)
    winner, loser = leg.winner.copy(), leg.loser.copy()
    cells, prob = leg.ends
    while prob.sum() > 1e-12:
        cells, _, prob = _merge(cells, np.zeros(len(prob), dtype=np.uint8), prob)
        won, lost = np.zeros(layout.racing), np.zeros(layout.racing)

        def settle(cells: np.ndarray, prob: np.ndarray, over: np.ndarray,
                   won: np.ndarray = won, lost: np.ndarray = lost) -> None:
            if over.any():
                order = layout.order(cells.compress(over, axis=1))
                won += np.bincount(order[0], prob[over], layout.racing)
                lost += np.bincount(order[-1], prob[over], layout.racing)

        ends = _play_leg(layout, edition.dice, cells, prob, codes=None,
                         rolls=edition.dice_per_leg, settle=settle,
                         most_rows=MOST_ROWS if most_rows is None else most_rows)
        if ends is None:
            break
        winner, loser = winner + won, loser + lost
        cells, prob = ends
    going_on = float(prob.sum())
    if going_on <= 1e-12:
        total = winner.sum()
        return RaceOdds(winner / total, loser / total, 0, 0.0)
    rng = np.random.default_rng(seed)
    races = int(races * min(4.0, 1 / going_on))
    drawn = np.searchsorted(np.cumsum(prob), (np.arange(races) + rng.random()) / races * going_on)
    cells = cells.take(np.minimum(drawn, len(prob) - 1), axis=1)
    won, lost = _simulate(layout, edition, cells, rng, dice=edition.dice,
                          rolls=edition.dice_per_leg, codes=None)
    spread = np.concatenate([won, lost]) / races
    return RaceOdds(winner + going_on * won / races, loser + going_on * lost / races, races,
                    going_on * float(np.sqrt(spread * (1 - spread) / races).max()))


MOST_ROWS = 150_000
"""The most rows a roll of an exact later leg may take; beyond, the rest is simulated."""


def simulate_race(state: State, *, races: int = RACES, seed: int = SEED) -> RaceOdds:
    """The whole race played out `races` times from `state`, the current leg included."""
    edition = state.edition
    layout = Layout.of(edition)
    cells = np.repeat(layout.cells(state), races, axis=1)
    codes = layout.tile_codes(tile_sides(state))
    won, lost = _simulate(layout, edition, cells, np.random.default_rng(seed),
                          dice=state.dice_in_pyramid, codes=codes if codes.any() else None,
                          rolls=edition.dice_per_leg - len(state.dice_out))
    spread = np.concatenate([won, lost]) / races
    return RaceOdds(won / races, lost / races, races,
                    float(np.sqrt(spread * (1 - spread) / races).max()))


def _simulate(layout: Layout, edition: Edition, cells: np.ndarray, rng: np.random.Generator, *,
              dice: tuple[str, ...], rolls: int,
              codes: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """The race played out once from each row, all at once, a leg at a time.

    The first leg has `dice` left in the pyramid, `rolls` of them to roll, and the tiles
    `codes`; every later leg all the dice and no tiles (tiles laid then cannot be known).
    Returns how many races each racing camel won and how many it lost.
    """
    index = {die: layout.index(die) if die in layout.camels else -1 for die in edition.dice}
    winner, loser = np.zeros(layout.racing), np.zeros(layout.racing)
    while cells.shape[1]:
        camels = np.array([index[die] for die in dice], dtype=np.int16)
        drawn = camels[np.argsort(rng.random((cells.shape[1], len(dice))), axis=1)[:, :rolls]]
        steps = rng.integers(1, 4, drawn.shape, dtype=np.int16)
        numeral = rng.integers(layout.racing, layout.racing + 2, drawn.shape, dtype=np.int16)
        for roll in range(rolls):
            camel = drawn[:, roll]
            grey = np.flatnonzero(camel < 0)
            if len(grey):
                camel = camel.copy()
                camel[grey] = crazy_camel_to_move(layout, cells.take(grey, axis=1),
                                                   numeral[grey, roll])
            cells, _, over = move(layout, cells, camel, steps[:, roll], codes=codes)
            if over.any():
                order = layout.order(cells.compress(over, axis=1))
                winner += np.bincount(order[0], minlength=layout.racing)
                loser += np.bincount(order[-1], minlength=layout.racing)
                going = ~over
                cells, drawn, steps, numeral = (cells.compress(going, axis=1), drawn[going],
                                                steps[going], numeral[going])
        dice, rolls, codes = edition.dice, edition.dice_per_leg, None
    return winner, loser


def action_values(state: State, leg: LegOdds, race: RaceOdds) -> list[tuple[Action, float]]:
    """Every action open to the player to act with the coins it is expected to bring, best first.

    A leg bet is worth its ticket's expectation; a roll its pyramid ticket (the roll itself
    changes no one's expectation); a tile the coins expected from units landing on it this
    leg; a finish card its payout if right, given that each card already in the pile and not
    the player's own is on that camel as often as the camel's chance says, less 1 if wrong;
    a partnership the partner's best ticket this leg, when it pays.
    """
    index = {camel: i for i, camel in enumerate(leg.camels)}
    first, second = leg.places[:, 0], leg.places[:, 1]
    me = state.player_to_act
    assert me is not None
    legal = legal_actions(state)
    forward = state.edition.tile_sides[0]

    def placement(tile: TilePlacement) -> tuple[int, int]:
        return tile.space, 1 if tile.side == forward else -1

    tiles = tile_landings(state, me, [placement(a) for a in legal
                                      if isinstance(a, TilePlacement)])
    values: list[tuple[Action, float]] = []
    for action in legal:
        if isinstance(action, LegBet):
            i, top = index[action.camel], state.leg_tickets_left(action.camel)[0]
            value = top * first[i] + second[i] - (1 - first[i] - second[i])
        elif isinstance(action, Roll):
            value = 1.0
        elif isinstance(action, TilePlacement):
            value = tiles[placement(action)]
        elif isinstance(action, RaceBet):
            odds = race.winner if action.pile == "winner" else race.loser
            cards = [c for c in state.pile(action.pile) if c.player != me]
            value = _finish_card_value(state, float(odds[index[action.camel]]), len(cards))
        else:
            assert isinstance(action, Partnership)
            value = _partner_value(state, leg, action.partner)
        values.append((action, float(value)))
    return sorted(values, key=lambda item: -item[1])


def _finish_card_value(state: State, chance: float, others: int) -> float:
    """Expected coins of a finish card on a camel with `chance` to be right, `others` before it."""
    pays = state.edition.finish_payouts
    right = sum(math.comb(others, k) * chance**k * (1 - chance) ** (others - k)
                * pays[min(k, len(pays) - 1)] for k in range(others + 1))
    return chance * right - (1 - chance)


def _partner_value(state: State, leg: LegOdds, partner: str) -> float:
    """The partner's best ticket this leg, over every (first, second) the leg can end with."""
    held = state.player(partner)
    index = {camel: i for i, camel in enumerate(leg.camels)}
    total = 0.0
    for (i, j), chance in np.ndenumerate(leg.pairs):
        if not chance:
            continue
        rewards = [t.value if index[t.camel] == i else 1 if index[t.camel] == j else -1
                   for t in held.leg_tickets] + [1] * held.pyramid_tickets
        total += chance * max([0, *rewards])
    return total


def odds_json(state: State, *, races: int = RACES, seed: int = SEED) -> dict[str, Any]:
    """The odds and advice as `camel-companion odds --json` prints them."""
    leg = leg_odds(state)
    race = race_odds(state, leg, races=races, seed=seed)
    actions = [] if state.finished else action_values(state, leg, race)
    return {
        "leg": {camel: leg.places[i].tolist() for i, camel in enumerate(leg.camels)},
        "race": {
            "winner": dict(zip(leg.camels, race.winner.tolist(), strict=True)),
            "loser": dict(zip(leg.camels, race.loser.tolist(), strict=True)),
            "races": race.races,
            "stderr": race.stderr,
        },
        "actions": [{"action": a.to_json(), "ev": round(v, 4)} for a, v in actions],
    }


class _Odds(Mapping[str, Callable[..., dict[str, Any]]]):
    """Each game's `odds_json` by the game's name, from the module its rules name
    (`GameRules.odds`), imported the first time it is asked for, so that the odds of one game
    do not wait for another's to load."""

    def __getitem__(self, game: str) -> Callable[..., dict[str, Any]]:
        module = GAMES[game].odds if game in GAMES else None
        if module is None:
            raise KeyError(game)
        odds: Callable[..., dict[str, Any]] = importlib.import_module(module).odds_json
        return odds

    def __iter__(self) -> Iterator[str]:
        return (game for game, rules in GAMES.items() if rules.odds is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


ODDS: Mapping[str, Callable[..., dict[str, Any]]] = _Odds()
"""Each game's odds by its name; a game without odds is not listed."""
