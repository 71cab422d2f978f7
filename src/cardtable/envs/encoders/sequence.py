"""Moved to ``cardtable.encoders.sequence``; kept so that the old path imports."""

from cardtable.encoders.sequence import *  # noqa: F403
