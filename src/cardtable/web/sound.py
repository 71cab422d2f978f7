"""The page's "your turn" sound, generated here (no recording, no licence but the project's).

A two-note chime (E6 then A6, each a sine with a fast attack and an exponential decay),
0.35 s of 8-bit mono at 16 kHz, about 5.6 kB. ``static/sounds/turn.wav`` is this function's
output; after changing it::

    python -m cardtable.web.sound   # writes static/sounds/turn.wav
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
    frames = bytearray()
    for n in range(int(RATE * LENGTH)):
        t = n / RATE
        level = 0.0
        for freq, start in NOTES:
            if t >= start:
                age = t - start
                attack = min(1.0, age / 0.005)
                level += 0.45 * attack * math.exp(-age * 14) * math.sin(2 * math.pi * freq * age)
        frames.append(max(0, min(255, round(128 + 127 * level))))
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
