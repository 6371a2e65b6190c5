#!/usr/bin/env python3
"""Writes the page's sound files (sow.wav, capture.wav, end.wav) next to this script.

Run once after changing a sound: `python3 web/sounds/make.py`. Only the standard library is used,
and the output is the same on every run (the noise comes from a fixed-seed generator), so the
committed files can be checked against this script.
"""
import math
import struct
import wave
from pathlib import Path

RATE = 22050  # samples a second: plenty for short clicks and chimes, and small files


def noise(seed=1):
    """A fixed pseudo-random sequence in [-1, 1] (a 32-bit linear congruential generator)."""
    x = seed
    while True:
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        yield x / 0x3FFFFFFF - 1.0


def tone(ms, freq, slide=1.0, decay=30.0, shape="sine", click=0.0, seed=1):
    """A tone of `ms` milliseconds gliding from `freq` to `freq * slide`, dying away
    exponentially (`decay`: how fast), with a short burst of noise at the start (`click`)."""
    n = int(RATE * ms / 1000)
    out = []
    phase = 0.0
    rnd = noise(seed)
    for i in range(n):
        t = i / n
        f = freq * slide**t
        phase += 2 * math.pi * f / RATE
        if shape == "triangle":
            v = 2 / math.pi * math.asin(math.sin(phase))
        else:
            v = math.sin(phase)
        env = math.exp(-decay * t) * min(1.0, i / (RATE * 0.002))  # 2 ms attack: no pop
        burst = click * next(rnd) * math.exp(-t * 60)
        out.append((v + burst) * env)
    return out


def mix(*parts):
    """Sums (offset in ms, samples, gain) parts into one track."""
    n = max(int(RATE * at / 1000) + len(s) for at, s, _ in parts)
    out = [0.0] * n
    for at, s, g in parts:
        o = int(RATE * at / 1000)
        for i, v in enumerate(s):
            out[o + i] += v * g
    return out


def write(name, samples, peak=0.6):
    top = max(abs(v) for v in samples) or 1.0
    frames = b"".join(struct.pack("<h", int(v / top * peak * 32767)) for v in samples)
    with wave.open(str(Path(__file__).with_name(name)), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


# A stone dropped into a hole: a short, high wooden tick.
write("sow.wav", tone(55, 1100, slide=0.65, decay=9, shape="triangle", click=0.5), peak=0.45)
# Stones taken: a lower knock and a second, softer one as they land in the store.
write(
    "capture.wav",
    mix(
        (0, tone(160, 300, slide=0.55, decay=7, shape="triangle", click=0.6, seed=2), 1.0),
        (90, tone(140, 220, slide=0.6, decay=8, shape="triangle", click=0.4, seed=3), 0.6),
    ),
    peak=0.6,
)
# The game is over: two bell-like notes, a fifth apart.
write(
    "end.wav",
    mix(
        (0, mix((0, tone(500, 523.25, decay=5), 1.0), (0, tone(500, 1046.5, decay=7), 0.3)), 1.0),
        (180, mix((0, tone(650, 783.99, decay=4.5), 1.0), (0, tone(650, 1567.98, decay=7), 0.3)), 1.0),
    ),
    peak=0.55,
)
