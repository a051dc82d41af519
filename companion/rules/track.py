"""The track and its camel stacks: the mechanics every game of the Camel Up family shares.

A camel always stands in a stack (bottom to top) on a numbered space. Moving a camel carries
every camel above it; the moved unit lands on top of a stack, or underneath it when it was
pushed backwards. Spaces past either end of the track are ordinary numbers here: whether a
space beyond the last one means "crossed the finish line" is the game's business.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Stack = tuple[str, ...]
"""Camels on one space, bottom to top."""


@dataclass(frozen=True)
class Track:
    """Where every camel stands: each occupied space with its stack, in space order."""

    stacks: tuple[tuple[int, Stack], ...] = ()

    @classmethod
    def from_stacks(cls, stacks: Mapping[int, Iterable[str]]) -> Track:
        """Build a track from `{space: camels bottom to top}`, leaving out empty spaces."""
        return cls(tuple(sorted((space, tuple(s)) for space, s in stacks.items() if tuple(s))))

    def as_dict(self) -> dict[int, Stack]:
        return dict(self.stacks)

    @property
    def camels(self) -> tuple[str, ...]:
        """Every camel on the track, from the lowest space up and bottom to top."""
        return tuple(camel for _, stack in self.stacks for camel in stack)

    def stack_at(self, space: int) -> Stack:
        for at, stack in self.stacks:
            if at == space:
                return stack
        return ()

    def is_empty_at(self, space: int) -> bool:
        return not self.stack_at(space)

    def space_of(self, camel: str) -> int:
        for space, stack in self.stacks:
            if camel in stack:
                return space
        raise KeyError(camel)

    def lift(self, camel: str) -> tuple[Track, Stack, int]:
        """Pick up `camel` with every camel above it: the track left, the unit and its space."""
        space = self.space_of(camel)
        stack = self.stack_at(space)
        height = stack.index(camel)
        rest = self.as_dict()
        rest[space] = stack[:height]
        return Track.from_stacks(rest), stack[height:], space

    def drop(self, unit: Stack, space: int, *, under: bool = False) -> Track:
        """Put a unit on `space`: on top of what stands there, or underneath it if `under`."""
        stacks = self.as_dict()
        there = stacks.get(space, ())
        stacks[space] = unit + there if under else there + unit
        return Track.from_stacks(stacks)

    def above(self, camel: str) -> Stack:
        """The camels a move of `camel` would carry along."""
        stack = self.stack_at(self.space_of(camel))
        return stack[stack.index(camel) + 1 :]

    def order(self, camels: Iterable[str]) -> list[str]:
        """The given camels from the one farthest along to the one farthest behind.

        On one space the camel higher in the stack is ahead of those below it.
        """
        wanted = set(camels)
        ahead_first = [c for _, stack in reversed(self.stacks) for c in reversed(stack)]
        return [c for c in ahead_first if c in wanted]
