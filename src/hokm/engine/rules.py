"""Rule options (RULES.md §9): a frozen, validated :class:`RuleSet` and the named presets.

>>> RuleSet.from_dict({"preset": "classic"}).bam
True
>>> RuleSet(target_points=5).to_dict()["target_points"]
5
>>> RuleSet(target_points=0)
Traceback (most recent call last):
...
hokm.engine.errors.InvalidRulesError: target_points must be an integer ≥ 1, not 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from hokm.engine.errors import InvalidRulesError

__all__ = ["PRESETS", "RuleSet"]

FailedBam = Literal["minus3", "kot"]
FirstHakem = Literal["ace_draw", "random", "manual"]
NextGameHakem = Literal["keep", "ace_draw", "random", "manual"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "failed_bam": ("minus3", "kot"),
    "first_hakem": ("ace_draw", "random", "manual"),
    "next_game_hakem": ("keep", "ace_draw", "random", "manual"),
}
_BOOLS = ("bam", "hakem_may_redeal_weak_five", "redeal_if_player_has_no_trump")
_SECONDS = ("trump_seconds", "turn_seconds", "grace_seconds")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every house-rule option of RULES.md §9, with its default (= preset ``platform-a``)."""

    target_points: int = 7  # a game ends when a team reaches this many points
    kot_points: int = 2  # 7–0 when the losers are not the hakem's team
    hakem_kot_points: int = 3  # 7–0 when the losers are the hakem's team
    bam: bool = False  # a team at 7–0 may go on for all 13 tricks
    failed_bam: FailedBam = "minus3"  # minus3 (004) or kot (000)
    first_hakem: FirstHakem = "ace_draw"
    next_game_hakem: NextGameHakem = "keep"
    hakem_may_redeal_weak_five: bool = False  # no card of rank ≥ 10 in the first five
    redeal_if_player_has_no_trump: bool = False
    trump_seconds: float = 20
    turn_seconds: float = 15
    grace_seconds: float = 300

    def __post_init__(self) -> None:
        if not _is_int(self.target_points) or self.target_points < 1:
            raise InvalidRulesError(
                f"target_points must be an integer ≥ 1, not {self.target_points!r}"
            )
        for name in ("kot_points", "hakem_kot_points"):
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise InvalidRulesError(f"{name} must be an integer ≥ 1, not {value!r}")
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(
                    f"{name} must be true or false, not {getattr(self, name)!r}"
                )
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise InvalidRulesError(
                    f"{name} must be one of {', '.join(choices)}, not {getattr(self, name)!r}"
                )
        for name in _SECONDS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidRulesError(f"{name} must be a number of seconds > 0, not {value!r}")
            if value > 86400:
                raise InvalidRulesError(f"{name} must be at most 86400 seconds, not {value!r}")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSet:
        """A named preset (``classic``, ``simulator``, ``platform-a``, ``platform-b``)."""
        if name not in PRESETS:
            raise InvalidRulesError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}")
        return cls.from_dict({**PRESETS[name], **overrides})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build from any subset of the options, optionally starting from ``preset``."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be an object, not {type(data).__name__}")
        values = dict(data)
        preset = values.pop("preset", None)
        base: dict[str, Any] = {}
        if preset is not None:
            if not isinstance(preset, str) or preset not in PRESETS:
                raise InvalidRulesError(
                    f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}"
                )
            base = dict(PRESETS[preset])
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InvalidRulesError(f"unknown rule option {unknown[0]!r}")
        return cls(**{**base, **values})

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def replace(self, **changes: Any) -> RuleSet:
        return RuleSet.from_dict({**self.to_dict(), **changes})

    def preset_name(self) -> str | None:
        """The name of the preset equal to these rules, if any."""
        for name in PRESETS:
            if RuleSet.preset(name) == self:
                return name
        return None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PRESETS: dict[str, dict[str, Any]] = {
    "platform-a": {},
    "classic": {
        "bam": True,
        "failed_bam": "kot",
        "hakem_may_redeal_weak_five": True,
        "redeal_if_player_has_no_trump": True,
        "turn_seconds": 30,
    },
    "simulator": {"turn_seconds": 30},
    "platform-b": {"bam": True, "failed_bam": "minus3", "turn_seconds": 30},
}
