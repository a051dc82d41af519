"""The camera view: off when the table has none; its frames as MJPEG or a still when it has one."""

import threading

from tests.web.conftest import PIN
from web import create_app

JPEG = b"\xff\xd8fake\xff\xd9"


class Camera:
    """Two frames, then nothing: as a camera that was unplugged."""

    is_on = True

    def __init__(self):
        self.frames = [(1, JPEG), (2, JPEG + b"2")]
        self.lock = threading.Lock()

    def wait_for_frame(self, after, timeout):
        with self.lock:
            return next((f for f in self.frames if f[0] > after), None)


def test_without_a_camera_the_page_says_it_is_off(client):
    assert client.get("/api/camera").json == {"on": False}
    for path in ("/camera.mjpg", "/camera.jpg"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert answer.json == {"error": "the camera is off: log rolls by hand on the page"}


def test_a_camera_streams_its_frames_until_it_has_none(table):
    table.camera = Camera()
    client = create_app(table, {"PIN": PIN}).test_client()
    assert client.get("/api/camera").json == {"on": True}
    still = client.get("/camera.jpg")
    assert still.mimetype == "image/jpeg" and still.data == JPEG
    motion = client.get("/camera.mjpg")
    assert motion.mimetype == "multipart/x-mixed-replace"
    assert motion.data.count(b"--frame\r\nContent-Type: image/jpeg\r\n") == 2
    assert JPEG + b"2\r\n" in motion.data


def test_a_camera_without_a_picture_yet_answers_404(table):
    table.camera = Camera()
    table.camera.frames = []
    client = create_app(table, {"PIN": PIN}).test_client()
    assert client.get("/camera.jpg").status_code == 404
