"""Vision stands apart from the game: it imports nothing of companion but the errors' root
(companion.errors, the ground floor every package stands on), nor web, nor picamera2; and its
readers, what the Pi runs, import neither the renderer nor the training tools."""

import json
import subprocess
import sys


def loaded_by(modules: str) -> set[str]:
    code = f"import sys, json; import {modules}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return set(json.loads(out.stdout))


def test_vision_imports_nothing_of_the_game_the_web_or_the_pi():
    loaded = loaded_by("vision.commands, vision.settle, vision.sources, vision.synth")
    assert not {name.split(".")[0] for name in loaded} & {"web", "flask", "picamera2"}
    assert {name for name in loaded if name.split(".")[0] == "companion"} <= {
        "companion", "companion.errors"}


def test_the_readers_need_neither_the_renderer_nor_the_training_tools():
    loaded = loaded_by("vision.dice, vision.calibrate, vision.settle, vision.colour_dice, "
                       "vision.cards, vision.sources, vision.config")
    assert not {name.split(".")[0] for name in loaded} & {"training", "torch", "onnx"}
    assert not {name for name in loaded if name.startswith(("vision.synth", "vision.stage",
                                                            "vision.rendered_set"))}
