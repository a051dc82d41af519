"""Every error the project raises on purpose has one root, and is still the builtin it was."""

import importlib
import pkgutil

import pytest

import companion
import vision
import web
from companion.camera import UnencodableFrame
from companion.errors import BadConfig, CalibrationError, CompanionError
from vision.dicesets import UnknownSet, dice_set
from vision.offline import BadArgument, UnreadableImage
from vision.sources import SourceError


def errors_defined_in(*packages: object) -> dict[str, type[BaseException]]:
    """Every exception class a module of `packages` defines, by its full name."""
    found = {}
    for package in packages:
        for module_info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            module = importlib.import_module(module_info.name)
            for name, value in vars(module).items():
                if (isinstance(value, type) and issubclass(value, BaseException)
                        and value.__module__ == module.__name__):
                    found[f"{module.__name__}.{name}"] = value
    return found


def test_every_error_of_companion_vision_and_web_is_a_companion_error():
    errors = errors_defined_in(companion, vision, web)
    assert "vision.calibrate.MarkersNotSeen" in errors
    assert [name for name, error in errors.items() if not issubclass(error, CompanionError)] \
        == []


@pytest.mark.parametrize(("error", "builtin"), [
    (BadConfig, ValueError), (CalibrationError, ValueError), (SourceError, RuntimeError),
    (BadArgument, ValueError), (UnreadableImage, ValueError), (UnencodableFrame, RuntimeError),
    (UnknownSet, ValueError)])
def test_an_error_is_still_the_builtin_it_was(error, builtin):
    assert issubclass(error, builtin)


def test_the_dice_of_a_game_played_without_dice_are_refused_naming_the_games_with_dice():
    with pytest.raises(UnknownSet) as refusal:
        dice_set("camelup-cards")
    assert str(refusal.value) == ("no dice known for game 'camelup-cards'; known: "
                                  "camelup-2014, camelup-2018")
