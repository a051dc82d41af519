"""Train the dice network (vision/dicenet.py) and write it as vision/dicenet.onnx.

Run: .venv/bin/python -m training.train_dice [--rendered N] [--epochs E] [--seed S]
(after `scripts/setup.sh train`, which adds PyTorch and ONNX to the virtual environment; they
are needed only here, never to run or test the companion).

The windows come from training.crops: N rendered scenes (render seeds 0 to N-1 of this
script's own stream, a range no test or benchmark draws from) and the training part of the
real photos (training/validation-photos.txt lists the part kept out), or with `--photos fit`
only the part of them that leaves the tuning photos out, to measure a way of training on
photos it has not learned from (training.labelled). It trains twice: the second network also
learns from the places of the training photos where the first saw a die that is not there
(hard negatives: wood grain, prints, specks). Everything is drawn from `--seed`, so the same
command writes the same network on the same machine. No validation photo or validation
render is ever read here.
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from training.crops import background_patches, hard_negatives, photo_samples, rendered_sample
from training.labelled import labelled_photos
from vision.dicenet import CLASSES, MODEL, WINDOW

_CHUNK = 2000


def _rendered_chunk(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, count = args
    rng = np.random.default_rng(seed)
    patches = background_patches(200, seed=seed)
    windows, labels = [], []
    while len(windows) < count:
        sample = rendered_sample(rng, patches)
        if sample is not None:
            windows.append(sample.window)
            labels.append(sample.label)
    return np.stack(windows), np.array(labels, np.int64)


def _photo_chunk(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    labelled, seed = args
    samples = photo_samples(labelled, seed, per_die=32)
    return (np.array([s.window for s in samples], np.float16).reshape(-1, 3, WINDOW, WINDOW),
            np.array([s.label for s in samples], np.int64))


def windows(rendered: int, seed: int, workers: int, photos: str = "train"
            ) -> tuple[np.ndarray, np.ndarray]:
    """Every training window and its class: the rendered ones, then those of the real
    photos of part `photos`."""
    jobs = [(seed * 1_000_003 + k, min(_CHUNK, rendered - k * _CHUNK))
            for k in range(math.ceil(rendered / _CHUNK))]
    with Pool(workers) as pool:
        parts = pool.map(_rendered_chunk, jobs)
        parts += pool.map(_photo_chunk, [(labelled, seed)
                                         for labelled in labelled_photos(photos)])
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def network(width: int = 1):
    """The network: five valid 3x3 convolutions and two poolings see a WINDOW-wide window
    and answer once per STRIDE pixels; no dense layer, so it runs over a whole image. The
    second look's is `width` times as wide (it reads a few windows, not a whole region)."""
    from torch import nn

    def block(inputs: int, outputs: int) -> list:
        return [nn.Conv2d(inputs, outputs, 3), nn.BatchNorm2d(outputs), nn.ReLU()]

    a, b, c, d = (k * width for k in (16, 32, 48, 64))
    return nn.Sequential(*block(3, a), nn.MaxPool2d(2), *block(a, b), nn.MaxPool2d(2),
                         *block(b, c), *block(c, d), *block(d, d), nn.Conv2d(d, CLASSES, 1))


def train(x: np.ndarray, y: np.ndarray, *, epochs: int, seed: int, batch: int = 256,
          width: int = 1, device: str = "cpu"):
    import torch

    torch.manual_seed(seed)
    model = network(width).to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * math.ceil(len(x) / batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_of = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    order = np.random.default_rng(seed)
    # the windows stay where the network trains, and the tallies are read once an epoch, so
    # that a GPU does not wait each batch for a copy or for its loss to be read back
    every_window = torch.from_numpy(x).to(device)
    every_class = torch.from_numpy(y).to(device)
    for epoch in range(epochs):
        model.train()
        start = time.time()
        right, total_loss = torch.zeros((), device=device), torch.zeros((), device=device)
        permutation = torch.from_numpy(order.permutation(len(x))).to(device)
        for first in range(0, len(x), batch):
            pick = permutation[first:first + batch]
            inputs = every_window[pick].float()
            if order.random() < 0.5:   # the network must not care which way is up
                inputs = torch.flip(inputs, dims=(3,))
            inputs = torch.rot90(inputs, int(order.integers(4)), dims=(2, 3))
            targets = every_class[pick]
            logits = model(inputs)[:, :, 0, 0]
            loss = loss_of(logits, targets)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            right += (logits.argmax(1) == targets).sum()
            total_loss += loss.detach() * len(pick)
        print(f"epoch {epoch + 1}/{epochs}: loss {float(total_loss) / len(x):.4f}, training "
              f"windows right {float(right) / len(x):.2%}, {time.time() - start:.0f} s",
              flush=True)
    return model.cpu().eval()


def export(model, path: Path) -> None:
    import torch

    torch.onnx.export(model, torch.zeros(1, 3, WINDOW * 2, WINDOW * 2), str(path),
                      dynamo=False, opset_version=13, input_names=["image"],
                      output_names=["classes"],
                      dynamic_axes={"image": {2: "height", 3: "width"},
                                    "classes": {2: "rows", 3: "columns"}})


def mined(model: Path, seed: int, photos: str) -> tuple[np.ndarray, np.ndarray]:
    """The windows of the photos of part `photos` where `model` sees a die and there is
    none."""
    samples = list(hard_negatives(model, np.random.default_rng(seed), part=photos))
    return (np.stack([s.window for s in samples]),
            np.array([s.label for s in samples], np.int64))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rendered", type=int, default=200_000)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the windows here, and reuse them")
    parser.add_argument("--first", type=Path,
                        help="the first round's network, when it was trained already from "
                             "the same windows and seed: the second round starts from it")
    parser.add_argument("--width", type=int, default=1,
                        help="how many times wider than the first look's the network is "
                             "(2 for the second look's)")
    parser.add_argument("--device", default="cpu",
                        help="where PyTorch trains: cpu, or cuda where a GPU is lent (the "
                             "same windows and steps; the sums round a little differently)")
    parser.add_argument("--photos", choices=("train", "fit"), default="train",
                        help="the real photos trained on: all the training photos, or the "
                             "'fit' part alone, to measure this way of training on the "
                             "tuning photos (training.labelled)")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    start = time.time()
    if args.cache and args.cache.is_file():
        data = np.load(args.cache)
        x, y = data["x"], data["y"]
    else:
        x, y = windows(args.rendered, args.seed, args.workers, args.photos)
        if args.cache:
            np.savez(args.cache, x=x, y=y)
    print(f"{len(x)} windows in {time.time() - start:.0f} s; by class "
          f"{np.bincount(y, minlength=CLASSES).tolist()}", flush=True)
    import torch

    torch.set_num_threads(args.workers)
    first = args.first
    if first is None:
        first = args.out.with_suffix(".first.onnx")
        export(train(x, y, epochs=args.epochs, seed=args.seed, device=args.device), first)
    # the second round: the places the first network takes for dice in the training photos,
    # and there are none, join the windows as examples of no die
    hard_x, hard_y = mined(first, args.seed, args.photos)
    print(f"{len(hard_x)} windows where the first network saw a die that is not there",
          flush=True)
    model = train(np.concatenate([x, hard_x]), np.concatenate([y, hard_y]),
                  epochs=args.epochs, seed=args.seed, width=args.width, device=args.device)
    export(model, args.out)
    if args.first is None:
        first.unlink()
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB) after "
          f"{time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
