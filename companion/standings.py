"""The state of a game as a person reads it in a terminal: board, ranking, money, tickets.

It works from the same JSON object `replay --json` prints, so every game that gives that
object is shown without this module knowing its rules.
"""

from __future__ import annotations

from typing import Any


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
        lines.append(f"  {p['name']:<{width}}  {p['money']:>3} coins{_holdings(p)}")
    if view.get("payouts"):
        lines += ["", "Paid by the last action:"]
        lines += [f"  {p['player']}: {p['amount']:+d}  {p['reason']}" for p in view["payouts"]]
    return "\n".join(lines)


def _headline(view: dict[str, Any]) -> str:
    if view["finished"]:
        return (f"{view['game']}: the race ended in leg {view['leg']}; "
                f"won by {' and '.join(view['winners'])}")
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
