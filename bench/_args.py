"""Command-line helpers shared by the benchmark scripts."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1, refused with a message otherwise."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
