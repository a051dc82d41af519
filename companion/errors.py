"""The errors a person at the table can meet: few classes, one root, each also a builtin.

Every message is one line that says what was wrong and, where it helps, what to do instead,
so the CLI, the API and the dashboard can show it as it is.

This module is the ground floor: it imports nothing, and every package may import it (vision
too, which imports nothing else of companion), so every error the project raises on purpose,
in the game, the table, vision or the web, is a `CompanionError` one `except` can catch. Each
is also the builtin it always was (`ValueError`, `OSError`, ...), so an `except ValueError`
still holds. The errors of one module stay beside it (`vision.calibrate.CalibrationError`,
`vision.sources.SourceError`, `companion.store.StoreError`); those shared by several are here.
"""


class CompanionError(Exception):
    """The root of every error the companion raises on purpose."""


class IllegalAction(CompanionError, ValueError):
    """An action the rules refuse; the game is left exactly as it was."""


class BadHeader(CompanionError, ValueError):
    """A game header that names no known game or holds a bad setting."""


class BadLogLine(CompanionError, ValueError):
    """A game-log line that cannot be read: not JSON, a bad field, or an illegal action.

    It reads `FILE:LINE: reason` when the file is known, as compilers say it, else
    `line LINE: reason`.
    """

    def __init__(self, line_number: int, reason: str, path: object = None) -> None:
        where = f"line {line_number}" if path is None else f"{path}:{line_number}"
        super().__init__(f"{where}: {reason}")
        self.line_number = line_number
        self.reason = reason
        self.path = path


class CalibrationError(CompanionError, ValueError):
    """A calibration step that could not be done (the markers not seen, a colour not found,
    points that make no table): what to do about it, in one line."""


class BadConfig(CompanionError, ValueError):
    """The configuration file cannot be used: one line naming the file and, where it is one,
    the table and key (`[table]`, `[speech]`, `[backup]`, `[vision.*]`)."""


class UnreadableFile(CompanionError, OSError):
    """A file that cannot be opened or is not UTF-8 text."""


class NothingToUndo(CompanionError, IndexError):
    """Undo, replace or delete asked of an action the game does not have."""


class NoPlaceToInsert(CompanionError, IndexError):
    """An insert asked before an action past the game's end: a forgotten action goes before
    one the game has, or at its end."""


class NotStored(CompanionError, OSError):
    """A change the store could not write (a full disk, a failing card): it was not taken,
    and the game is as it was."""
