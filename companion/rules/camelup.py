"""The Camel Up board games, 2014 and 2018: their actions, their state and the rules they share.

The two editions differ in a handful of facts (the camels, the dice, the tiles' names and
sides, the ticket values, partnerships) and in one rule: which camel a die moves. An `Edition`
holds those; everything else here serves both. `apply` is pure: it returns a new state or
raises `IllegalAction` naming the rule, and never touches the state it was given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

from companion.errors import BadHeader, IllegalAction
from companion.rules import Rules
from companion.rules.fields import (
    as_choice,
    as_int,
    as_list,
    as_name,
    as_object,
    as_space_key,
    require,
)
from companion.rules.players import Action, Payout, Seats, check_form, pay, payouts_json, set_player
from companion.rules.track import Track
from companion.rules.words import ordinal

PILES = ("winner", "loser")


# --- actions: one frozen value per game-log line -------------------------------------------


@dataclass(frozen=True)
class LegBet(Action):
    """Take the top leg betting tile (2018: betting ticket) of a racing camel."""

    camel: str
    action: ClassVar[str] = "leg_bet"


@dataclass(frozen=True)
class Roll(Action):
    """Take a pyramid ticket and reveal a die; die and value are None until it is seen."""

    die: str | None = None
    value: int | None = None
    numeral: str | None = None
    action: ClassVar[str] = "roll"


@dataclass(frozen=True)
class TilePlacement(Action):
    """Place one's tile, or move it, on a space with the chosen side up."""

    space: int
    side: str


@dataclass(frozen=True)
class DesertTile(TilePlacement):
    action: ClassVar[str] = "desert_tile"


@dataclass(frozen=True)
class SpectatorTile(TilePlacement):
    action: ClassVar[str] = "spectator_tile"


@dataclass(frozen=True)
class RaceBet(Action):
    """Lay one's card of a camel on the overall winner or loser pile."""

    pile: str
    camel: str
    action: ClassVar[str] = "race_bet"


@dataclass(frozen=True)
class Partnership(Action):
    """Become betting partners with another player for the rest of the leg (2018, 6+ players)."""

    partner: str = field(metadata={"key": "with"})
    action: ClassVar[str] = "partnership"


# --- what lies on the table -----------------------------------------------------------------


@dataclass(frozen=True)
class LegTicket:
    camel: str
    value: int


@dataclass(frozen=True)
class RaceCard:
    player: str
    camel: str


@dataclass(frozen=True)
class Tile:
    owner: str
    side: str


@dataclass(frozen=True)
class PlayerState:
    name: str
    money: int
    leg_tickets: tuple[LegTicket, ...] = ()
    pyramid_tickets: int = 0
    partner: str | None = None


@dataclass(frozen=True)
class Edition:
    """The facts that set one edition apart; the rules below read them, never the edition name."""

    game: str
    racing_camels: tuple[str, ...]
    crazy_camels: tuple[str, ...]
    dice: tuple[str, ...]
    dice_per_leg: int
    leg_ticket_values: tuple[int, ...]
    tile: type[TilePlacement]
    tile_sides: tuple[str, str]
    player_counts: range
    partnerships_from: int | None
    camel_for_roll: Callable[[Track, Roll], str]
    words: Mapping[str, str]
    spaces: int = 16
    finish_payouts: tuple[int, ...] = (8, 5, 3, 2, 1)
    starting_money: int = 3

    @property
    def camels(self) -> tuple[str, ...]:
        return self.racing_camels + self.crazy_camels

    def direction(self, camel: str) -> int:
        """+1 for racing camels (clockwise), -1 for crazy camels."""
        return -1 if camel in self.crazy_camels else 1

    def on_track(self, space: int) -> bool:
        return 1 <= space <= self.spaces


@dataclass(frozen=True)
class State(Seats):
    """Everything on the table between two actions."""

    edition: Edition
    players: tuple[PlayerState, ...]
    track: Track
    leg_ticket_stacks: tuple[tuple[str, tuple[int, ...]], ...]
    tiles: tuple[tuple[int, Tile], ...] = ()
    leg: int = 1
    dice_out: tuple[str, ...] = ()
    winner_pile: tuple[RaceCard, ...] = ()
    loser_pile: tuple[RaceCard, ...] = ()
    turn: int | None = 0
    payouts: tuple[Payout, ...] = ()
    """What the action that led here paid: tile coins, or the leg and end-of-race scoring."""

    @property
    def finished(self) -> bool:
        return self.turn is None

    def tile_at(self, space: int) -> Tile | None:
        return dict(self.tiles).get(space)

    def tile_space_of(self, owner: str) -> int | None:
        return next((space for space, tile in self.tiles if tile.owner == owner), None)

    def leg_tickets_left(self, camel: str) -> tuple[int, ...]:
        return dict(self.leg_ticket_stacks)[camel]

    @property
    def dice_in_pyramid(self) -> tuple[str, ...]:
        return tuple(d for d in self.edition.dice if d not in self.dice_out)

    @property
    def ranking(self) -> list[str]:
        """Racing camels, leader first; crazy camels are disqualified and never ranked."""
        return self.track.order(self.edition.racing_camels)

    def pile(self, name: str) -> tuple[RaceCard, ...]:
        return self.winner_pile if name == "winner" else self.loser_pile

    @property
    def crossed(self) -> bool:
        """A unit has crossed the finish line, in either direction: the race is over."""
        return any(not self.edition.on_track(space) for space, _ in self.track.stacks)

    @property
    def winners(self) -> tuple[str, ...]:
        """The richest players once the race is over, in seating order; ties share."""
        if not self.finished:
            return ()
        best = max(p.money for p in self.players)
        return tuple(p.name for p in self.players if p.money == best)


# --- reading the game log --------------------------------------------------------------------


def parse_action(edition: Edition, line: Mapping[str, Any]) -> Action:
    """Read one game-log action line; a missing or badly formed field is refused."""
    err = IllegalAction
    player = as_name(require(line, "player", err), "player", err)
    name = require(line, "action", err)
    known = {a.action: a for a in _actions_of(edition)}
    if not isinstance(name, str) or name not in known:
        raise err(f'{edition.game} has no action {name!r}: it knows {", ".join(known)}')
    kind = known[name]
    if kind is LegBet:
        return LegBet(player, _camel(edition, line, "camel"))
    if kind is Roll:
        return _parse_roll(edition, player, line)
    if issubclass(kind, TilePlacement):
        space = as_int(require(line, "space", err), "space", err, low=1, high=edition.spaces)
        side = as_choice(require(line, "side", err), "side", edition.tile_sides, err)
        return kind(player, space, side)
    if kind is RaceBet:
        pile = as_choice(require(line, "pile", err), "pile", PILES, err)
        return RaceBet(player, pile, _camel(edition, line, "camel"))
    return Partnership(player, as_name(require(line, "with", err), "with", err))


def _actions_of(edition: Edition) -> list[type[Action]]:
    tiles = [edition.tile]
    partnership = [Partnership] if edition.partnerships_from else []
    return [LegBet, Roll, *tiles, RaceBet, *partnership]


def _camel(edition: Edition, line: Mapping[str, Any], key: str) -> str:
    return as_choice(require(line, key, IllegalAction), key, edition.camels, IllegalAction)


def _parse_roll(edition: Edition, player: str, line: Mapping[str, Any]) -> Roll:
    err = IllegalAction
    die = as_choice(require(line, "die", err), "die", edition.dice, err)
    value = as_int(require(line, "value", err), "value", err, low=1, high=3)
    if not edition.crazy_camels:
        return Roll(player, die, value)
    if die in edition.racing_camels:
        if line.get("numeral") is not None:
            raise err(f'"numeral" belongs to the grey die only, not the {die} die')
        return Roll(player, die, value)
    numeral = as_choice(require(line, "numeral", err), "numeral", edition.crazy_camels, err)
    return Roll(player, die, value, numeral)


def initial_state(edition: Edition, header: Mapping[str, Any]) -> State:
    """The table as the header sets it: a fresh start or a game brought in part-way."""
    err = BadHeader
    names = as_list(require(header, "players", err), "players", err)
    names = [as_name(n, "players", err) for n in names]
    counts = edition.player_counts
    if not counts.start <= len(names) < counts.stop:
        raise err(f"{edition.game} is played by {counts.start} to {counts.stop - 1} players, "
                  f"not {len(names)}")
    if len(set(names)) != len(names):
        raise err('"players" names someone twice: each player needs a name of their own')
    track = _parse_start(edition, require(header, "start", err))
    leg = as_int(header.get("leg", 1), "leg", err, low=1, high=999)
    money = _parse_money(names, header.get("money", {}))
    dice_out = _parse_dice_out(edition, header.get("dice_out", []))
    turn = names.index(as_choice(header.get("turn", names[0]), "turn", names, err))
    state = State(
        edition=edition,
        players=tuple(PlayerState(n, money.get(n, edition.starting_money)) for n in names),
        track=track,
        leg_ticket_stacks=_full_ticket_stacks(edition),
        leg=leg,
        dice_out=dice_out,
        turn=turn,
    )
    return _parse_part_way(state, header)


def _parse_start(edition: Edition, start: Any) -> Track:
    err = BadHeader
    start = as_object(start, "start", err)
    stacks: dict[int, tuple[str, ...]] = {}
    for key, stack in start.items():
        space = as_space_key(key, '"start"', err, low=1, high=edition.spaces)
        camels = as_list(stack, f"start {key!r}", err)
        for camel in camels:
            as_choice(camel, f"start {key!r}", edition.camels, err)
        stacks[space] = tuple(camels)
    placed = [c for stack in stacks.values() for c in stack]
    twice = sorted({c for c in placed if placed.count(c) > 1})
    if twice:
        raise err(f'"start" places {", ".join(twice)} more than once')
    missing = [c for c in edition.camels if c not in placed]
    if missing:
        raise err(f'"start" leaves out {", ".join(missing)}: every camel stands on the track')
    return Track.from_stacks(stacks)


def _parse_money(names: list[str], money: Any) -> dict[str, int]:
    given = as_object(money, "money", BadHeader)
    for name, coins in given.items():
        if name not in names:
            raise BadHeader(f'"money" names {name!r}, who is not among the players')
        as_int(coins, f"money {name!r}", BadHeader, low=0, high=9999)
    return given


def _parse_dice_out(edition: Edition, dice: Any) -> tuple[str, ...]:
    dice = as_list(dice, "dice_out", BadHeader)
    for die in dice:
        as_choice(die, "dice_out", edition.dice, BadHeader)
    if len(set(dice)) != len(dice):
        raise BadHeader('"dice_out" names a die twice')
    if len(dice) >= edition.dice_per_leg:
        raise BadHeader(f'"dice_out" lists {len(dice)} dice, but a leg ends when '
                        f"{edition.dice_per_leg} are out: start the next leg instead")
    return tuple(dice)


def _parse_part_way(state: State, header: Mapping[str, Any]) -> State:
    """Tiles, tickets, cards and partnerships already on the table when a game is brought in.

    Each is checked by the same rules as the action that would have put it there, so a
    header can only describe a table that real play could have reached.
    """
    err = BadHeader
    edition = state.edition
    for key, tile_spec in as_object(header.get("tiles", {}), "tiles", err).items():
        spec = as_object(tile_spec, f"tiles {key!r}", err)
        space = as_space_key(key, '"tiles"', err, low=1, high=edition.spaces)
        owner = as_name(require(spec, "owner", err), "owner", err)
        side = as_choice(require(spec, "side", err), "side", edition.tile_sides, err)
        state = _header_step(state, edition.tile(owner, space, side), f"tiles {key!r}")
    for i, item in enumerate(as_list(header.get("leg_bets", []), "leg_bets", err)):
        bet = as_object(item, "leg_bets", err)
        player = as_name(require(bet, "player", err), "player", err)
        camel = as_choice(require(bet, "camel", err), "camel", edition.racing_camels, err)
        state = _header_step(state, LegBet(player, camel), f"leg_bets item {i + 1}")
    tickets = as_object(header.get("pyramid_tickets", {}), "pyramid_tickets", err)
    for name, count in tickets.items():
        as_int(count, f"pyramid_tickets {name!r}", err, low=0, high=edition.dice_per_leg)
        _known_player(state, name, "pyramid_tickets")
        state = set_player(state, replace(state.player(name), pyramid_tickets=count))
    if sum(p.pyramid_tickets for p in state.players) > len(state.dice_out):
        raise err('"pyramid_tickets" hold more tickets than there are dice in "dice_out"')
    race_bets = as_object(header.get("race_bets", {}), "race_bets", err)
    for pile in race_bets:
        as_choice(pile, "race_bets", PILES, err)
    for pile in PILES:
        for item in as_list(race_bets.get(pile, []), f"race_bets {pile}", err):
            card = as_object(item, f"race_bets {pile}", err)
            player = as_name(require(card, "player", err), "player", err)
            camel = as_choice(require(card, "camel", err), "camel", edition.camels, err)
            state = _header_step(state, RaceBet(player, pile, camel), f"race_bets {pile}")
    for item in as_list(header.get("partnerships", []), "partnerships", err):
        pair = [as_name(n, "partnerships", err) for n in as_list(item, "partnerships", err)]
        if len(pair) != 2:
            raise err('"partnerships" holds pairs of two players')
        state = _header_step(state, Partnership(*pair), "partnerships")
    return state


def _header_step(state: State, action: Action, where: str) -> State:
    """Apply one part of a part-way header as if it had been played, out of turn."""
    _known_player(state, action.player, where)
    try:
        after = _apply_unchecked(state, action)
    except IllegalAction as e:
        raise BadHeader(f"{where}: {e}") from None
    return replace(after, turn=state.turn, payouts=())


def _known_player(state: State, name: str, where: str) -> None:
    if name not in state.names:
        raise BadHeader(f"{where}: {name!r} is not among the players")


def _full_ticket_stacks(edition: Edition) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((camel, edition.leg_ticket_values) for camel in edition.racing_camels)


# --- the rules -------------------------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """The state after `action`, or `IllegalAction` naming the rule it breaks."""
    if state.finished:
        raise IllegalAction("the race is over: nothing can be played after a camel has "
                            "crossed the finish line")
    if action.player not in state.names:
        raise IllegalAction(f"unknown player {action.player!r}: the players are "
                            f"{', '.join(state.names)}")
    if action.player != state.player_to_act:
        raise IllegalAction(f"it is {state.player_to_act}'s turn, not {action.player}'s")
    if isinstance(action, Roll) and (action.die is None or action.value is None):
        raise IllegalAction("a roll needs the die that came out of the pyramid and its value")
    check_form(action, state.edition.game, partial(parse_action, state.edition))
    after = _apply_unchecked(state, action)
    if after.finished:
        return after
    return replace(after, turn=(state.turn + 1) % len(state.players))  # type: ignore[operator]


def _apply_unchecked(state: State, action: Action) -> State:
    """The action's effect, trusting that it is the player's turn; the turn is not passed."""
    state = replace(state, payouts=())
    if isinstance(action, LegBet):
        return _leg_bet(state, action)
    if isinstance(action, Roll):
        return _roll(state, action)
    if isinstance(action, state.edition.tile):
        return _place_tile(state, action)
    if isinstance(action, RaceBet):
        return _race_bet(state, action)
    if isinstance(action, Partnership) and state.edition.partnerships_from:
        return _partnership(state, action)
    raise IllegalAction(f"{state.edition.game} has no {action.action} action")


def _racing(state: State, camel: str, what: str) -> None:
    if camel in state.edition.crazy_camels:
        raise IllegalAction(f"{camel} is a crazy camel: {what} go on racing camels only")


def _leg_bet(state: State, action: LegBet) -> State:
    words = state.edition.words["leg_ticket"]
    _racing(state, action.camel, f"{words}s")
    left = state.leg_tickets_left(action.camel)
    if not left:
        raise IllegalAction(f"no {action.camel} {words} is left this leg")
    stacks = tuple((c, v[1:] if c == action.camel else v) for c, v in state.leg_ticket_stacks)
    p = state.player(action.player)
    p = replace(p, leg_tickets=(*p.leg_tickets, LegTicket(action.camel, left[0])))
    return replace(set_player(state, p), leg_ticket_stacks=stacks)


def _place_tile(state: State, action: TilePlacement) -> State:
    words = state.edition.words["tile"]
    space, owner = action.space, action.player
    own = state.tile_space_of(owner)
    if space == 1:
        raise IllegalAction(f"a {words} may never go on space 1")
    if own == space:
        raise IllegalAction(f"{owner}'s {words} already lies on {space}: moving it means "
                            "moving it to a different space")
    if not state.track.is_empty_at(space):
        raise IllegalAction(f"space {space} has camels on it: a {words} goes on an empty space")
    others = {s: t for s, t in state.tiles if t.owner != owner}
    if space in others:
        raise IllegalAction(f"space {space} already holds {others[space].owner}'s {words}")
    for beside in (space - 1, space + 1):
        if beside in others:
            raise IllegalAction(f"a {words} may not lie next to another one: "
                                f"{others[beside].owner}'s is on {beside}")
    tiles = {**others, space: Tile(owner, action.side)}
    return replace(state, tiles=tuple(sorted(tiles.items())))


def _race_bet(state: State, action: RaceBet) -> State:
    words = state.edition.words["finish_card"]
    _racing(state, action.camel, f"{words}s")
    played = [c for pile in PILES for c in state.pile(pile) if c.player == action.player]
    if any(c.camel == action.camel for c in played):
        raise IllegalAction(f"{action.player} has already played their one {action.camel} "
                            f"{words}")
    card = RaceCard(action.player, action.camel)
    if action.pile == "winner":
        return replace(state, winner_pile=(*state.winner_pile, card))
    return replace(state, loser_pile=(*state.loser_pile, card))


def _partnership(state: State, action: Partnership) -> State:
    edition = state.edition
    if len(state.players) < (edition.partnerships_from or 0):
        raise IllegalAction(f"betting partnerships are played only with "
                            f"{edition.partnerships_from} or more players")
    me, partner = action.player, action.partner
    if partner not in state.names:
        raise IllegalAction(f"unknown player {partner!r}: the players are "
                            f"{', '.join(state.names)}")
    if partner == me:
        raise IllegalAction(f"{me} cannot be their own betting partner")
    for name in (me, partner):
        if state.player(name).partner is not None:
            raise IllegalAction(f"{name}'s partnership card is not available: they are "
                                f"already partners with {state.player(name).partner} this leg")
    state = set_player(state, replace(state.player(me), partner=partner))
    return set_player(state, replace(state.player(partner), partner=me))


def _roll(state: State, action: Roll) -> State:
    edition = state.edition
    assert action.die is not None and action.value is not None
    if action.die in state.dice_out:
        raise IllegalAction(f"the {action.die} die is already out of the pyramid this leg")
    camel = edition.camel_for_roll(state.track, action)
    state = _move(state, camel, action.value)
    p = state.player(action.player)
    state = set_player(state, replace(p, pyramid_tickets=p.pyramid_tickets + 1))
    state = replace(state, dice_out=(*state.dice_out, action.die))
    if state.crossed:
        return _end_race(state)
    if len(state.dice_out) == edition.dice_per_leg:
        return _next_leg(_score_leg(state))
    return state


def _move(state: State, camel: str, steps: int) -> State:
    """Move `camel` and all above it; a tile it lands on pays its owner and moves it once more."""
    edition = state.edition
    ahead = edition.direction(camel)
    track, unit, space = state.track.lift(camel)
    target = space + ahead * steps
    tile = state.tile_at(target)
    if tile is None:
        return replace(state, track=track.drop(unit, target))
    state = pay(state, Payout(tile.owner, 1, f"{camel} landed on {tile.owner}'s "
                                             f"{edition.words['tile']} on {target}"))
    forward = tile.side == edition.tile_sides[0]
    target += ahead if forward else -ahead
    return replace(state, track=track.drop(unit, target, under=not forward))


def _score_leg(state: State) -> State:
    """Pay every player's leg: the net of their tickets at once, never below 0."""
    edition = state.edition
    first, second = state.ranking[:2]

    def reward(ticket: LegTicket) -> int:
        if ticket.camel == first:
            return ticket.value
        return 1 if ticket.camel == second else -1

    def why(ticket: LegTicket) -> str:
        place = {first: "led the leg", second: "came second"}.get(ticket.camel, "did not place")
        return f"{edition.words['leg_ticket']} {ticket.camel} {ticket.value}: {place}"

    def rewards(p: PlayerState) -> list[int]:
        return [reward(t) for t in p.leg_tickets] + [1] * p.pyramid_tickets

    for p in state.players:
        lines = [Payout(p.name, reward(t), why(t)) for t in p.leg_tickets]
        if p.pyramid_tickets:
            lines.append(Payout(p.name, p.pyramid_tickets,
                                f"{edition.words['pyramid_ticket']}s x{p.pyramid_tickets}"))
        if p.partner is not None:
            best = max(rewards(state.player(p.partner)), default=0)
            if best > 0:
                lines.append(Payout(p.name, best, f"partnership: the best of {p.partner}'s "
                                                  "tickets"))
        net = sum(line.amount for line in lines)
        if p.money + net < 0:
            lines.append(Payout(p.name, -(p.money + net), "spared: money never drops below 0"))
        for line in lines:
            state = pay(state, line)
    return state


def _next_leg(state: State) -> State:
    """Tickets, tiles, partnerships and dice go back; play goes on with the next player."""
    return replace(
        state,
        players=tuple(PlayerState(p.name, p.money) for p in state.players),
        leg_ticket_stacks=_full_ticket_stacks(state.edition),
        tiles=(),
        dice_out=(),
        leg=state.leg + 1,
    )


def _end_race(state: State) -> State:
    """The last leg scoring, then the winner pile and the loser pile card by card."""
    state = _score_leg(state)
    ranking = state.ranking
    words = state.edition.words["finish_card"]
    for pile, camel in (("winner", ranking[0]), ("loser", ranking[-1])):
        right = 0
        for card in state.pile(pile):
            if card.camel == camel:
                amount = state.edition.finish_payouts[min(right, len(state.edition.finish_payouts)
                                                          - 1)]
                right += 1
                state = pay(state, Payout(card.player, amount,
                                          f"{ordinal(right)} right {words} on the overall "
                                          f"{pile}, {camel}"))
            elif state.player(card.player).money > 0:
                state = pay(state, Payout(card.player, -1, f"wrong {words} on the overall "
                                                           f"{pile}: {card.camel}"))
            else:
                state = pay(state, Payout(card.player, 0, f"wrong {words} on the overall "
                                                          f"{pile}: {card.camel}, spared at 0"))
    return replace(state, turn=None)


# --- what can be played now ------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """Every action open to the player to act; a roll is listed once, its die not yet known."""
    if state.finished:
        return []
    edition, me = state.edition, state.player_to_act
    assert me is not None
    actions: list[Action] = [LegBet(me, c) for c in edition.racing_camels
                             if state.leg_tickets_left(c)]
    actions.append(Roll(me))
    for space in range(1, edition.spaces + 1):
        for side in edition.tile_sides:
            actions.append(edition.tile(me, space, side))
    played = {c.camel for pile in PILES for c in state.pile(pile) if c.player == me}
    actions += [RaceBet(me, pile, c) for pile in PILES for c in edition.racing_camels
                if c not in played]
    if edition.partnerships_from:
        actions += [Partnership(me, other) for other in state.names]
    return [a for a in actions if _is_legal(state, a)]


def _is_legal(state: State, action: Action) -> bool:
    if isinstance(action, Roll):
        return bool(state.dice_in_pyramid)
    try:
        _apply_unchecked(state, action)
    except IllegalAction:
        return False
    return True


# --- the state as the replay JSON object -----------------------------------------------------


def state_json(state: State) -> dict[str, Any]:
    """The state as `replay --json` prints it; every field a person or a page needs."""
    edition = state.edition
    on_board = [(s, stack) for s, stack in state.track.stacks if edition.on_track(s)]
    beyond = [c for s, stack in state.track.stacks if not edition.on_track(s) for c in stack]
    return {
        "game": edition.game,
        "leg": state.leg,
        "finished": state.finished,
        "turn": state.player_to_act,
        "track": {str(s): list(stack) for s, stack in on_board},
        "crossed": beyond,
        "ranking": state.ranking,
        "players": [
            {
                "name": p.name,
                "money": p.money,
                "leg_bets": [{"camel": t.camel, "value": t.value} for t in p.leg_tickets],
                "pyramid_tickets": p.pyramid_tickets,
                **({"partner": p.partner} if edition.partnerships_from else {}),
            }
            for p in state.players
        ],
        "winners": list(state.winners),
        "tiles": {str(s): {"owner": t.owner, "side": t.side} for s, t in state.tiles},
        "dice_out": list(state.dice_out),
        "dice_in_pyramid": list(state.dice_in_pyramid),
        "leg_bets_left": {c: list(v) for c, v in state.leg_ticket_stacks},
        "race_bets": {pile: [{"player": c.player, "camel": c.camel} for c in state.pile(pile)]
                      for pile in PILES},
        "payouts": payouts_json(state.payouts),
    }



def leg_scoring_now(state: State) -> list[dict[str, Any]]:
    """What the leg scoring would pay, line by line, if the leg ended this moment.

    The dashboard's "if the leg ended now": the rule that scores a leg, run on the table as it
    stands, changing nothing. A finished race has no leg left to score.
    """
    if state.finished:
        return []
    return payouts_json(_score_leg(replace(state, payouts=())).payouts)


def header_for(view: Mapping[str, Any]) -> dict[str, Any]:
    """The header of a game brought in at the position a `state_json` object shows.

    Leg tickets go in the order their values say they were taken; `payouts` are not part
    of the position. A finished race has no position to go on from.
    """
    if view.get("finished"):
        raise BadHeader("the race is over: a finished game cannot be carried on")
    players = view["players"]
    return {
        "game": view["game"],
        "players": [p["name"] for p in players],
        "turn": view["turn"],
        "start": view["track"],
        "leg": view["leg"],
        "money": {p["name"]: p["money"] for p in players},
        "dice_out": view["dice_out"],
        "tiles": view["tiles"],
        "leg_bets": _taking_order(players),
        "pyramid_tickets": {p["name"]: p["pyramid_tickets"] for p in players},
        "race_bets": view["race_bets"],
        "partnerships": [[p["name"], p["partner"]] for p in players
                         if p.get("partner") and p["name"] < p["partner"]],
    }


def _taking_order(players: list[dict[str, Any]]) -> list[dict[str, str]]:
    """An order in which the held leg tickets could have been taken, top of each stack first.

    It keeps each player's own order too: repeatedly, some player's next ticket is the highest
    value still held of its camel, since real play took them so.
    """
    queues = {p["name"]: list(p["leg_bets"]) for p in players}
    order: list[dict[str, str]] = []
    while any(queues.values()):
        held = [b for q in queues.values() for b in q]
        for name, queue in queues.items():
            if queue and queue[0]["value"] == max(b["value"] for b in held
                                                  if b["camel"] == queue[0]["camel"]):
                order.append({"player": name, "camel": queue.pop(0)["camel"]})
                break
        else:
            raise BadHeader("the leg bets held cannot have come from the ticket stacks")
    return order


def state_from_json(edition: Edition, view: Mapping[str, Any]) -> State:
    """The state a `state_json` object shows, checked as a part-way header is."""
    return initial_state(edition, header_for(view))


def pieces(edition: Edition, state: State, header: Mapping[str, Any]) -> dict[str, Any]:
    """The edition's camels, dice, spaces and desert tile, and whether partners may be
    named (with as many players as that takes)."""
    return {
        "camels": list(edition.racing_camels),
        "crazy_camels": list(edition.crazy_camels),
        "dice": list(edition.dice),
        "spaces": edition.spaces,
        "tile": edition.tile.action,
        "tile_sides": list(edition.tile_sides),
        "partnerships": bool(edition.partnerships_from
                             and len(header["players"]) >= edition.partnerships_from),
    }


def new_header(edition: Edition, players: Sequence[str], rng: random.Random) -> dict[str, Any]:
    """A new game's first line, its start rolled as at a real table: each racing camel goes on
    the space its die shows, the later ones on top; in the second edition the grey die puts
    each crazy camel on space 16, 15 or 14 for a 1, 2 or 3."""
    start: dict[str, list[str]] = {}
    for camel in rng.sample(list(edition.racing_camels), len(edition.racing_camels)):
        start.setdefault(str(rng.randint(1, 3)), []).append(camel)
    for camel in rng.sample(list(edition.crazy_camels), len(edition.crazy_camels)):
        start.setdefault(str(edition.spaces + 1 - rng.randint(1, 3)), []).append(camel)
    return {"game": edition.game, "players": list(players), "start": start}


def start_pieces(edition: Edition) -> dict[str, Any]:
    """What the New game page needs to take a start as the players placed it: the camels,
    crazy ones apart, the spaces, and how many may play."""
    return {"camels": list(edition.racing_camels), "crazy_camels": list(edition.crazy_camels),
            "spaces": edition.spaces,
            "players": [edition.player_counts.start, edition.player_counts.stop - 1]}


def edition_rules(edition: Edition) -> Rules[State, Action]:
    """One edition's rules behind the interface every game offers the rest of the companion."""
    return Rules(edition.game, initial_state=partial(initial_state, edition),
                 parse_action=partial(parse_action, edition), apply=apply,
                 legal_actions=legal_actions, state_json=state_json,
                 state_from_json=partial(state_from_json, edition),
                 leg_scoring_now=leg_scoring_now, pieces=partial(pieces, edition),
                 new_header=partial(new_header, edition), odds="companion.odds",
                 start_pieces=partial(start_pieces, edition))
