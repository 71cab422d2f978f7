"""Moved to ``cardtable.encoders.threethirteen``; kept so that the old path imports."""

from cardtable.encoders.threethirteen import *  # noqa: F403
