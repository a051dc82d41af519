"""The floors of ARCHITECTURE.md hold: the rules stand on the standard library alone."""

import json
import subprocess
import sys


def modules_loaded_by(module: str) -> set[str]:
    """Top-level modules that importing `module` adds to what the interpreter starts with."""
    code = ("import sys, json; before = set(sys.modules); import {}; "
            "print(json.dumps(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-c", code.format(module)],
                         capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in json.loads(out.stdout)}


def test_the_rules_import_nothing_outside_the_standard_library():
    outside = modules_loaded_by("companion.rules") - set(sys.stdlib_module_names) - {"companion"}
    assert outside == set()


def test_the_rules_know_nothing_of_files_threads_or_databases():
    loaded = modules_loaded_by("companion.rules")
    assert not loaded & {"sqlite3", "threading", "socket", "flask", "cv2", "gpiozero"}


def test_the_command_starts_without_numpy_or_opencv():
    """Only the commands that compute odds or read images load them, in their own time."""
    assert not modules_loaded_by("companion.cli") & {"numpy", "cv2"}
