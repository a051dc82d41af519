"""The split of the labelled photos: the validation photos are never among those trained on,
and the tuning photos, on which ways of training are compared, are never among those the
networks compared are fitted to."""

import pytest

from tests.vision.conftest import photo_set
from training.labelled import PARTS, SETS, split


def _names(name: str, part: str) -> list[str]:
    return [path.name for path, _ in split(name, part)]


@pytest.mark.parametrize("name", SETS)
def test_each_photo_is_in_one_part_and_the_training_photos_are_fit_and_tuning(name):
    photo_set(name)
    fit, tuning, validation = (set(_names(name, part)) for part in ("fit", "tuning",
                                                                   "validation"))
    assert not fit & tuning and not (fit | tuning) & validation
    assert fit | tuning == set(_names(name, "train"))
    assert fit | tuning | validation == set(_names(name, "all"))


@pytest.mark.parametrize("name", SETS)
def test_every_third_training_photo_in_name_order_is_kept_for_tuning(name):
    photo_set(name)
    training = _names(name, "train")
    assert _names(name, "tuning") == training[2::3]


def test_an_unknown_part_is_refused_naming_the_parts():
    with pytest.raises(ValueError, match=", ".join(PARTS)):
        next(split(SETS[0], "test"))
