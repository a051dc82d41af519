"""`camel-companion`: replay a game log, ask what is legal, and move games in and out of a store.

Bad input of any kind (an unreadable file, a bad line, an illegal action, a missing game)
exits with status 2 and one line on stderr that says what is wrong, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import BadLogLine, CompanionError
from companion.gamelog import dump_line, load_game
from companion.rules.words import counted
from companion.standings import odds_text, standings_text

if TYPE_CHECKING:
    from companion.game import Game
    from companion.store import Store

ELSEWHERE = {
    "serve": ("companion.serve", "add_command"),
    "demo": ("companion.demo", "add_command"),
    "run": ("companion.run", "add_command"),
    "calibrate": ("companion.run", "add_command"),
    "backup": ("companion.backup", "add_command"),
    "hotspot": ("companion.hotspot", "add_command"),
    "read-dice": ("vision.commands", "add_commands"),
    "read-board": ("vision.commands", "add_commands"),
    "check-board": ("companion.check_board", "add_command"),
    "read-cards": ("vision.commands", "add_commands"),
    "markers": ("vision.commands", "add_commands"),
}
"""Commands added by the module that runs them, imported only when one of them is asked for
(or for the list of every command), so that `replay`, `actions` and `odds` start at once."""


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except BadLogLine as e:
        print(e, file=sys.stderr)
        return 2
    except CompanionError as e:
        print(f"camel-companion: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line, with every command, or with only those that run in this process
    when `command` is known: the server, the demo and the camera are imported only for theirs.
    """
    parser = argparse.ArgumentParser(prog="camel-companion", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    replay = commands.add_parser("replay", help="replay a game log and show the state")
    replay.add_argument("log", type=Path, metavar="GAME.jsonl")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--upto", type=int, metavar="N",
                        help="the state after the first N actions (0: the start)")
    replay.set_defaults(run=_replay)

    odds = commands.add_parser("odds", help="the leg and race odds and what each action is worth")
    odds.add_argument("log", type=Path, metavar="GAME.jsonl")
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.add_argument("--upto", type=int, metavar="N",
                      help="the odds after the first N actions (0: the start)")
    odds.add_argument("--seed", type=int, help="the race simulation's seed (default: fixed)")
    odds.set_defaults(run=_odds)

    actions = commands.add_parser("actions", help="list the actions open to the player to act")
    actions.add_argument("log", type=Path, metavar="GAME.jsonl")
    actions.add_argument("--upto", type=int, metavar="N",
                         help="what was open after the first N actions (0: the start)")
    actions.set_defaults(run=_actions)

    imp = commands.add_parser("import", help="copy a game log into a store")
    imp.add_argument("log", type=Path, metavar="GAME.jsonl")
    imp.add_argument("--db", type=Path, required=True, help="the store's SQLite file")
    imp.set_defaults(run=_import)

    exp = commands.add_parser("export", help="print a stored game as a game log")
    exp.add_argument("--db", type=Path, required=True, help="the store's SQLite file")
    exp.add_argument("--game", type=int, help="the game's number (default: the latest)")
    exp.set_defaults(run=_export)

    games = commands.add_parser("games", help="list the games in a store")
    games.add_argument("--db", type=Path, required=True, help="the store's SQLite file")
    games.set_defaults(run=_games)

    recover = commands.add_parser("recover", help="copy every intact record of a damaged "
                                                  "store into a new store")
    recover.add_argument("damaged", type=Path, metavar="DAMAGED.sqlite3")
    recover.add_argument("--db", type=Path, required=True, help="the new store's SQLite file")
    recover.set_defaults(run=_recover)
    if command in commands.choices:
        return parser
    wanted = [ELSEWHERE[command]] if command in ELSEWHERE else list(dict.fromkeys(
        ELSEWHERE.values()))
    for module, adder in wanted:
        getattr(importlib.import_module(module), adder)(commands)
    return parser


def _state(game: Game, upto: int | None) -> Any:
    """The game's state now, or after its first `upto` actions when the command asks."""
    return game.state if upto is None else game.state_after(upto)


def _replay(args: argparse.Namespace) -> None:
    game = load_game(args.log)
    state = _state(game, args.upto)
    view = game.rules.state_json(state)
    print(json.dumps(view) if args.json else standings_text(view))


def _odds(args: argparse.Namespace) -> None:
    from companion.odds import ODDS, SEED  # NumPy is loaded for the commands that need it

    game = load_game(args.log)
    state = _state(game, args.upto)
    if game.rules.game not in ODDS:
        raise CompanionError(f"there are no odds for {game.rules.game} yet")
    odds = ODDS[game.rules.game](state, seed=SEED if args.seed is None else args.seed)
    print(json.dumps(odds) if args.json else odds_text(odds, state.player_to_act))


def _actions(args: argparse.Namespace) -> None:
    game = load_game(args.log)
    state = _state(game, args.upto)
    actions = game.rules.legal_actions(state)
    for action in actions:
        print(dump_line(action.to_json()))
    if not actions:
        print(_over(game.rules.state_json(state), len(game) if args.upto is None else args.upto))


def _over(view: dict[str, Any], played: int) -> str:
    """The one line `actions` prints when nothing more can be played."""
    won = f", won by {' and '.join(view['winners'])}" if view.get("winners") else ""
    return f"the game is over after {counted(played, 'action')}{won}: nothing more can be played"


def _import(args: argparse.Namespace) -> None:
    from companion.store import Store

    game = load_game(args.log)
    with Store(args.db) as store:
        stored = store.import_game(game)
        print(f"stored as game {stored.id} in {args.db}")


def _export(args: argparse.Namespace) -> None:
    with _existing(args.db) as store:
        sys.stdout.write(store.open_game(args.game).export())


def _games(args: argparse.Namespace) -> None:
    with _existing(args.db) as store:
        rows = [(str(g.id), g.game, ", ".join(g.players),
                 g.created[:16].replace("T", " ") + " UTC", str(g.records))
                for g in store.games()]
    if not rows:
        print(f"{args.db} holds no game yet")
        return
    rows.insert(0, ("game", "rules", "players", "started", "records"))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join((cell.rjust if i in (0, 4) else cell.ljust)(widths[i])
                        for i, cell in enumerate(row)).rstrip())


def _existing(path: Path) -> Store:
    if not path.is_file():
        raise CompanionError(f"no store at {path}")
    from companion.store import Store

    return Store(path, read_only=True)


def _recover(args: argparse.Namespace) -> None:
    from companion.store import recover

    for line in recover(args.damaged, args.db):
        print(line)
    print(f"camel-companion: the intact records are in {args.db}; the damaged store was left "
          "as it was")


if __name__ == "__main__":
    sys.exit(main())
