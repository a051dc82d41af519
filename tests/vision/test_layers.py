"""Vision stands apart from the game: it imports nothing of companion, nor web, nor picamera2."""

import json
import subprocess
import sys


def test_vision_imports_nothing_of_the_game_the_web_or_the_pi():
    code = ("import sys, json; import vision.commands, vision.settle, vision.sources, "
            "vision.synth, vision.labelled; print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert not loaded & {"companion", "web", "flask", "picamera2"}
