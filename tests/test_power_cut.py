"""Cut the power, not only the process: every change the store acknowledged survives a crash
that loses whatever the disk had not been told to keep.

SIGKILL (tests/test_crash.py) leaves the operating system's cache, so every write the process
made reaches the disk in the end. A power cut keeps only what was synced. This test runs the
writer with a small library preloaded that, each time SQLite syncs a file (fsync, fdatasync),
first keeps a copy of that file as it then stands: the file as the disk is sure to hold it.
After the kill, the store is rebuilt as a power cut may leave it: each page of each file
either as of its last sync or as last written, at random (unsynced writes may or may not have
reached the disk), the shared-memory index gone, a file never synced gone. LazyFS does this
with FUSE; this needs only a C compiler.
"""

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.store import Store
from tests.play import HEADERS, random_game
from tests.writer import kill_after, start_writer

PAGE = 4096

KEEP_SYNCED = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Before a file under $KEEP_SYNCED_DIR is synced, copy it whole to FILE.synced (through a
   temporary file and a rename, so a kill mid-copy leaves the copy of the sync before). */
static void keep(int fd) {
    const char *dir = getenv("KEEP_SYNCED_DIR");
    char link[64], path[PATH_MAX], tmp[PATH_MAX + 16], kept[PATH_MAX + 16];
    struct stat st;
    if (!dir || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = 0;
    if (strncmp(path, dir, strlen(dir)) != 0 || strstr(path, ".synced")) return;
    snprintf(tmp, sizeof tmp, "%s.synced-tmp", path);
    snprintf(kept, sizeof kept, "%s.synced", path);
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) return;
    char buf[65536];
    off_t at = 0;
    ssize_t got;
    while ((got = pread(fd, buf, sizeof buf, at)) > 0) {
        if (write(out, buf, got) != got) break;
        at += got;
    }
    close(out);
    rename(tmp, kept);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    keep(fd);
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    keep(fd);
    return real(fd);
}
"""

WRITER = """
import random, sys
from companion.store import Store
from tests.play import HEADERS, random_game

path, edition, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
planned = random_game(HEADERS[edition], seed).actions
rng = random.Random(seed)
with Store(path) as store:
    stored = store.open_game() if store.games() else store.new_game(HEADERS[edition])
    print("ready", len(stored.records()), flush=True)
    for action in planned[len(stored.game):]:
        if stored.game.actions and rng.random() < 0.15:
            last = stored.undo()
            print("ack", len(stored.records()), flush=True)
            stored.push(last)
            print("ack", len(stored.records()), flush=True)
        stored.push(action)
        print("ack", len(stored.records()), flush=True)
        if rng.random() < 0.1:
            stored.replace(len(stored.game) - 1, action)
            print("ack", len(stored.records()), flush=True)
print("done", flush=True)
"""
"""Pushes a random game with undos and corrections, printing the records stored after each."""


@pytest.fixture(scope="module")
def keep_synced(tmp_path_factory):
    """The preload library, compiled here."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the power-cut library")
    folder = tmp_path_factory.mktemp("keep-synced")
    (folder / "keep_synced.c").write_text(KEEP_SYNCED)
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(folder / "keep_synced.so"),
                    str(folder / "keep_synced.c"), "-ldl"], check=True, capture_output=True)
    return folder / "keep_synced.so"


def power_cut(folder, rng):
    """The folder as the disk may hold it after the power went: each page of each file as of
    its last sync or as last written, at random; the shared-memory index and files never
    synced gone."""
    for path in list(folder.iterdir()):
        if path.name.endswith((".synced", ".synced-tmp")) or path.name.endswith("-shm"):
            continue
        synced = Path(f"{path}.synced")
        kept = synced.read_bytes() if synced.exists() else None
        written = path.read_bytes()
        if kept is None:
            path.unlink()
            continue
        length = rng.choice([len(kept), len(written)])
        pages = []
        for at in range(0, length, PAGE):
            choices = [c[at:at + PAGE] for c in (kept, written) if len(c) > at]
            size = min(PAGE, length - at)
            page = rng.choice(choices)[:size]
            pages.append(page + bytes(size - len(page)))
        path.write_bytes(b"".join(pages))
        synced.write_bytes(b"".join(pages))  # what the disk holds now, synced or not
    for path in list(folder.iterdir()):
        if path.name.endswith((".synced-tmp", "-shm")) or (
                path.name.endswith(".synced") and not Path(str(path)[:-7]).exists()):
            path.unlink()


def run_until_cut(library, folder, edition, seed, rng):
    """Start the writer under the library, let it acknowledge a few changes, kill it, cut
    the power; the number of records acknowledged."""
    env = {**os.environ, "LD_PRELOAD": str(library), "KEEP_SYNCED_DIR": str(folder)}
    writer = start_writer(WRITER, folder / "game.sqlite3", edition, seed, env)
    acked = kill_after(writer, rng.randint(1, 15), rng.uniform(0, 0.004), timeout=30)
    power_cut(folder, rng)
    return acked


def expected_records(edition, seed, start=0):
    """What the writer stores, record by record, when nothing stops it, from the action
    numbered `start` on (where a run after a cut carries on)."""
    planned = random_game(HEADERS[edition], seed).actions
    rng = random.Random(seed)
    records = []
    for number, action in enumerate(planned[start:], start=start):
        if number and rng.random() < 0.15:
            records += [("undo", None), ("push", planned[number - 1].to_json())]
        records.append(("push", action.to_json()))
        if rng.random() < 0.1:
            records.append(("replace", action.to_json()))
    return records


def stored_records(path, look):
    """The records of the store's game and its number of actions; none if it has no game.

    It is read from a copy in the folder `look`: opening the store itself would write to it
    (a checkpoint) without the library to keep what it synced.
    """
    if not path.exists():
        return [], 0
    shutil.rmtree(look, ignore_errors=True)
    look.mkdir()
    for file in path.parent.glob(path.name + "*"):
        if not file.name.endswith(".synced"):
            shutil.copyfile(file, look / file.name)
    with Store(look / path.name) as store:
        if not store.games():
            return [], 0
        stored = store.open_game()
        return [(r.kind, r.action) for r in stored.records()], len(stored.game)


@pytest.mark.slow
def test_every_acknowledged_change_survives_a_power_cut(keep_synced, tmp_path):
    cuts, acknowledged, lost = 0, 0, 0
    for seed in range(6):
        edition = ("camelup-2014", "camelup-2018")[seed % 2]
        folder = tmp_path / f"store-{seed}"
        folder.mkdir()
        rng = random.Random(seed)
        before, played = [], 0
        for _ in range(3):
            acked = run_until_cut(keep_synced, folder, edition, seed, rng)
            cuts += 1
            kept, now_played = stored_records(folder / "game.sqlite3", tmp_path / "look")
            lost += max(0, acked - len(kept))
            acknowledged += max(0, acked - len(before))
            assert len(kept) >= acked, (seed, len(kept), acked)
            assert kept[:len(before)] == before, seed
            assert kept[len(before):] == expected_records(edition, seed, played)[
                :len(kept) - len(before)], seed
            before, played = kept, now_played
    print(f"\npower cuts: {cuts}, changes acknowledged before them: {acknowledged}, "
          f"lost: {lost}")
    assert lost == 0
