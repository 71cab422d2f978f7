"""Bots named by spec: a built-in kind with settings, or a bot from outside the package.

A spec is ``[LABEL=]BOT[:KEY=VALUE]...`` where BOT is a built-in kind (``random``,
``heuristic``, ``heuristic-v1``, ``ismcts``) or an import path ``module:callable``
to a function that returns a Bot::

    heuristic
    ismcts:iterations=1000
    deep=ismcts:iterations=5000:rollout=random
    mypkg.bots:make:depth=3

An outside callable is called as ``make(seed=SEED, **settings)`` in every process
that plays (so its module must be importable there), and must return an object
with ``choose(state)``. The label names the bot in the standings; it defaults to
the spec as written.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cardtable.bots import KINDS, YARDSTICKS, Bot, bot_kind, make
from cardtable.core import OptionsError

BUILT_IN = (*KINDS, *YARDSTICKS)
_LABEL = re.compile(r"[A-Za-z0-9_.+-]+")
_PATH = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*")


@dataclass(frozen=True)
class BotSpec:
    """A bot to build in any process: a built-in ``kind`` or an import ``path``."""

    label: str
    kind: str | None = None
    path: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()

    def make(self, seed: int | None, defaults: dict[str, Any] | None = None) -> Bot:
        """The bot, seeded; ``defaults`` are ISMCTS settings the spec's own settings override."""
        settings = dict(self.settings)
        if self.kind is not None:
            if bot_kind(self.kind).takes_budget:
                settings = {**(defaults or {}), **settings}
            return make(self.kind, seed=seed, **settings)
        assert self.path is not None
        bot = load(self.path)(seed=seed, **settings)
        if not callable(getattr(bot, "choose", None)):
            raise OptionsError(f"bot {self.label!r}: {self.path} returned {type(bot).__name__}, "
                               "not a bot (it has no choose(state) method)")
        return bot

    @property
    def searches(self) -> bool:
        """Whether a game of this bot may take long (a search, or an unknown outside bot)."""
        return self.kind is None or bot_kind(self.kind).searches


def load(path: str) -> Callable[..., Any]:
    """The callable at ``module:name``, or an OptionsError saying what is wrong."""
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise OptionsError(f"bot {path!r}: cannot import {module_name} ({exc})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise OptionsError(f"bot {path!r}: {module_name} has no {attr}") from None
        obj = getattr(obj, part)
    if not callable(obj):
        raise OptionsError(f"bot {path!r}: {attr} is not callable")
    return obj


def parse_value(text: str) -> Any:
    """A setting's value: an int, a float, true/false, none, or else the text."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse(text: str) -> BotSpec:
    """One spec (see the module docstring); a mistake raises a one-line OptionsError."""
    spec = text.strip()
    if not spec:
        raise OptionsError("empty bot spec; write e.g. heuristic or ismcts:iterations=1000")
    label = None
    colon = spec.find(":")
    equals = spec.find("=")
    if equals != -1 and (colon == -1 or equals < colon):
        label, spec = spec[:equals].strip(), spec[equals + 1:].strip()
        if not _LABEL.fullmatch(label):
            raise OptionsError(f"bot label {label!r} in {text!r}: use letters, digits and _.+-")
    parts = spec.split(":")
    if parts[0] in BUILT_IN:
        kind, path, rest = parts[0], None, parts[1:]
    elif len(parts) >= 2 and "=" not in parts[1] and _PATH.fullmatch(f"{parts[0]}:{parts[1]}"):
        kind, path, rest = None, f"{parts[0]}:{parts[1]}", parts[2:]
    else:
        raise OptionsError(f"unknown bot {parts[0]!r} in {text!r}; the bots are "
                           f"{', '.join(BUILT_IN)}, or an import path module:callable")
    settings: list[tuple[str, Any]] = []
    for item in rest:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key.isidentifier() or not value.strip():
            raise OptionsError(f"bot setting {item!r} in {text!r}: write key=value, "
                               "e.g. ismcts:iterations=1000")
        if key in dict(settings):
            raise OptionsError(f"bot setting {key} is given twice in {text!r}")
        settings.append((key, parse_value(value)))
    result = BotSpec(label or spec, kind, path, tuple(settings))
    check(result)
    return result


def check(spec: BotSpec, defaults: dict[str, Any] | None = None) -> None:
    """Build the bot once here, so that a bad setting fails before any game is played."""
    try:
        spec.make(0, defaults)
    except OptionsError as exc:
        message = str(exc)
        raise OptionsError(message if spec.label in message
                           else f"bot {spec.label!r}: {message}") from None
    except TypeError as exc:  # an outside bot's factory refusing the settings
        raise OptionsError(f"bot {spec.label!r}: {exc}") from None


def parse_list(specs: str | Iterable[str | BotSpec]) -> list[BotSpec]:
    """Comma-separated specs (or a list of specs), each label once, at least two bots."""
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    result = [s if isinstance(s, BotSpec) else parse(s) for s in items
              if isinstance(s, BotSpec) or s.strip()]
    if len(result) < 2:
        raise OptionsError("an arena needs at least two bots, e.g. --bots heuristic,random")
    labels = [s.label for s in result]
    twice = next((label for label in labels if labels.count(label) > 1), None)
    if twice is not None:
        raise OptionsError(f"bot {twice!r} is named twice in --bots; give one a label, "
                           f"e.g. other={twice}")
    return result
