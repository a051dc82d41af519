"""Every error the project raises on purpose has one root, and is still the builtin it was."""

import importlib
import pkgutil

import pytest

import companion
import vision
import web
from companion.camera import UnencodableFrame
from companion.errors import BadConfig, CalibrationError, CompanionError
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
    (BadArgument, ValueError), (UnreadableImage, ValueError), (UnencodableFrame, RuntimeError)])
def test_an_error_is_still_the_builtin_it_was(error, builtin):
    assert issubclass(error, builtin)
