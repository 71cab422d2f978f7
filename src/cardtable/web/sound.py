"""The page's sounds, generated here (no recording, no licence but the project's): the
"your turn" chime, and the card sounds (play, draw, shuffle) and the low-time tick of
the settings (docs/web.md: Settings).

A two-note chime (E6 then A6, each a sine with a fast attack and an exponential decay),
0.35 s of 8-bit mono at 16 kHz, about 5.6 kB. ``static/sounds/turn.wav`` is this function's
output; after changing it::

    python -m cardtable.web.sound   # writes static/sounds/turn.wav and the others

The card sounds are shaped noise from a fixed linear congruential sequence, so the same
bytes come out everywhere: a card put down (a short knock), a card drawn (a soft swish),
a shuffle (a riffle of small clicks), the low-time tick (a short high blip).
"""

from __future__ import annotations

import io
import math
import wave
from pathlib import Path

RATE = 16_000
NOTES = ((1318.5, 0.0), (1760.0, 0.12))   # (frequency in Hz, start in s)
LENGTH = 0.35
PATH = Path(__file__).resolve().parent / "static" / "sounds" / "turn.wav"


def turn_sound() -> bytes:
    """The chime as the bytes of a WAV file (the same bytes on every platform)."""
    levels = []
    for n in range(int(RATE * LENGTH)):
        t = n / RATE
        level = 0.0
        for freq, start in NOTES:
            if t >= start:
                age = t - start
                attack = min(1.0, age / 0.005)
                level += 0.45 * attack * math.exp(-age * 14) * math.sin(2 * math.pi * freq * age)
        levels.append(level)
    return wav_bytes(levels)


def _noise(count: int, seed: int) -> list[float]:
    """``count`` values in [-1, 1) from a fixed LCG (the same on every platform)."""
    out = []
    x = seed
    for _ in range(count):
        x = (1103515245 * x + 12345) % 2**31
        out.append(x / 2**30 - 1.0)
    return out


def _smooth(values: list[float], keep: float) -> list[float]:
    """A one-pole low-pass: ``keep`` near 1 is duller."""
    out, last = [], 0.0
    for v in values:
        last = keep * last + (1 - keep) * v
        out.append(last)
    return out


def card_sound(kind: str) -> bytes:
    """A card sound ("play", "draw", "shuffle") or the low-time tick ("low"), as WAV."""
    if kind == "play":      # a knock: dull noise and a low thump, 80 ms
        n = int(RATE * 0.08)
        noise = _smooth(_noise(n, 7), 0.6)
        levels = [(1.6 * noise[i] + 0.5 * math.sin(2 * math.pi * 180 * i / RATE))
                  * math.exp(-i / RATE * 60) for i in range(n)]
    elif kind == "draw":    # a swish: noise swelling then fading, 180 ms
        n = int(RATE * 0.18)
        noise = _smooth(_noise(n, 11), 0.3)
        levels = [0.9 * noise[i] * math.sin(math.pi * i / n) ** 2 for i in range(n)]
    elif kind == "shuffle":     # a riffle: 24 small clicks over 450 ms
        n = int(RATE * 0.45)
        noise = _smooth(_noise(n, 5), 0.4)
        levels = [0.0] * n
        for k in range(24):
            start = int(n * (k / 24) ** 0.9)
            for i in range(start, min(n, start + int(RATE * 0.012))):
                levels[i] += 1.4 * noise[i] * math.exp(-(i - start) / RATE * 300)
    elif kind == "low":     # a blip, 90 ms
        n = int(RATE * 0.09)
        levels = [0.5 * min(1.0, i / 40) * math.exp(-i / RATE * 30)
                  * math.sin(2 * math.pi * 2093 * i / RATE) for i in range(n)]
    else:
        raise ValueError(f"no sound {kind!r}")
    return wav_bytes(levels)


#: the sounds besides the chime, each ``static/sounds/NAME.wav``
CARD_SOUNDS = ("play", "draw", "shuffle", "low")


def wav_bytes(levels: list[float]) -> bytes:
    """8-bit mono WAV at ``RATE`` of levels in [-1, 1] (clipped)."""
    frames = bytearray(max(0, min(255, round(128 + 127 * v))) for v in levels)
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(RATE)
        wav.writeframes(bytes(frames))
    return out.getvalue()


if __name__ == "__main__":
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_bytes(turn_sound())
    print(f"wrote {PATH} ({PATH.stat().st_size} bytes)")
    for name in CARD_SOUNDS:
        path = PATH.parent / f"{name}.wav"
        path.write_bytes(card_sound(name))
        print(f"wrote {path} ({path.stat().st_size} bytes)")
