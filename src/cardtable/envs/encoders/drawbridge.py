"""Moved to ``cardtable.encoders.drawbridge``; kept so that the old path imports."""

from cardtable.encoders.drawbridge import *  # noqa: F403
