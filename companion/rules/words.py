"""How the rules write a number in words a player reads: places as ordinals, counts with the
thing counted."""


def ordinal(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `12th`, `13th`, ..., `21st`, `22nd`."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counted(n: int, thing: str) -> str:
    """`1 action`, `2 actions`, `0 actions`: a count and the thing counted, plural but for one
    (the words counted here all take an s)."""
    return f"{n} {thing}{'' if n == 1 else 's'}"
