"""The state of a game as a person reads it in a terminal: board, ranking, money, tickets.

It works from the same JSON object `replay --json` prints, so every game that gives that
object is shown without this module knowing its rules.
"""

from __future__ import annotations

from typing import Any

from companion.rules.words import ordinal


def standings_text(view: dict[str, Any]) -> str:
    """A few lines a person can take in at a glance."""
    lines = [_headline(view), "", "Track (bottom to top):"]
    tiles = view.get("tiles", {})
    spaces = sorted({int(s) for s in view["track"]} | {int(s) for s in tiles})
    for space in spaces:
        stack = ", ".join(view["track"].get(str(space), []))
        tile = tiles.get(str(space))
        mark = f"  [{tile['owner']}'s {tile['side']}]" if tile else ""
        lines.append(f"  {space:>2}  {stack}{mark}".rstrip())
    if view.get("crossed"):
        lines.append(f"  past the finish line: {', '.join(view['crossed'])}")
    lines.append(f"Ranking: {', '.join(view['ranking'])}")
    if "dice_out" in view:
        lines.append(f"Dice out this leg: {', '.join(view['dice_out']) or 'none'}")
    lines += ["", "Players:"]
    width = max(len(p["name"]) for p in view["players"])
    for p in view["players"]:
        if "money" in p:
            lines.append(f"  {p['name']:<{width}}  {p['money']:>3} coins{_holdings(p)}")
        else:
            lines.append(f"  {p['name']:<{width}}  card: {p.get('camel') or 'not shown'}")
    if view.get("payouts"):
        lines += ["", "Paid by the last action:"]
        lines += [f"  {p['player']}: {p['amount']:+d}  {p['reason']}" for p in view["payouts"]]
    return "\n".join(lines)


def _headline(view: dict[str, Any]) -> str:
    if view["finished"]:
        ended = f"{view['game']}: the race ended in leg {view['leg']}"
        if view["winners"]:
            return f"{ended}; won by {' and '.join(view['winners'])}"
        if any(p.get("camel", "") is None for p in view["players"]):
            return f"{ended}; the owner cards are still to be shown"
        return f"{ended}; nobody won"
    return f"{view['game']}: leg {view['leg']}, {view['turn']} to act"


def _holdings(player: dict[str, Any]) -> str:
    parts = []
    if player.get("leg_bets"):
        parts.append("leg bets " + " ".join(f"{b['camel']} {b['value']}"
                                            for b in player["leg_bets"]))
    if player.get("pyramid_tickets"):
        parts.append(f"pyramid tickets {player['pyramid_tickets']}")
    if player.get("partner"):
        parts.append(f"partner {player['partner']}")
    return "  (" + "; ".join(parts) + ")" if parts else ""


def odds_text(odds: dict[str, Any], player: str | None) -> str:
    """The `odds --json` object as three short tables: the leg, the race, the best actions."""
    camels = list(odds["leg"])
    width = max(len(c) for c in camels)
    places = len(next(iter(odds["leg"].values())))
    title = "Leg" if "assumes" in odds else "Leg (exact)"
    lines = [title.ljust(width + 2) + "".join(f"{ordinal(k + 1):>7}" for k in range(places))]
    for camel, chances in odds["leg"].items():
        lines.append(f"  {camel:<{width}}" + "".join(f"{p:>7.1%}" for p in chances))
    race = odds["race"]
    how = ("exact" if not race["races"] else
           f"{race['races']:,} races, standard error {race['stderr']:.1%}")
    lines += ["", f"Race ({how})".ljust(width + 2) + f"{'win':>7}{'lose':>7}"]
    for camel in camels:
        lines.append(f"  {camel:<{width}}{race['winner'][camel]:>7.1%}"
                     f"{race['loser'][camel]:>7.1%}")
    if odds["actions"]:
        lines += ["", f"What each action is worth to {player}, in coins:"]
        lines += [f"  {a['ev']:+6.2f}  {_action_words(a['action'])}" for a in odds["actions"]]
    if "assumes" in odds:
        lines += ["", f"These odds assume: {odds['assumes']}"]
    return "\n".join(lines)


def _action_words(action: dict[str, Any]) -> str:
    """An action as a player would say it, for any game with odds."""
    kind = action["action"]
    if kind == "leg_bet":
        card = f" {action['kind']} card" if "kind" in action else ""
        return f"leg bet{card} on {action['camel']}"
    if kind in ("race_bet", "final_bet"):
        return f"{action['pile']} card on {action['camel']}"
    if kind == "partnership":
        return f"partnership with {action['with']}"
    if kind == "place_figure":
        return f"{action['figure']} on {action['space']}"
    if kind == "play_hand":
        return f"hand card on {action['camel']}"
    if "space" in action:
        return f"{kind.replace('_', ' ')} on {action['space']}, {action['side']}"
    return {"roll": "roll (take a pyramid ticket)",
            "reveal": "reveal the top racing card"}.get(kind, kind.replace("_", " "))
