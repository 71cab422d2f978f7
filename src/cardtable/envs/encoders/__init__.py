"""The observation encoders' old home: they are ``cardtable.encoders`` now (the bots read
them too, and the bots sit below the environments). Kept so that
``cardtable.envs.encoders`` and its game modules import as before."""

from cardtable.encoders import *  # noqa: F403
from cardtable.encoders import Encoder, Section, encoder_for, relative

__all__ = ["Encoder", "Section", "encoder_for", "relative"]
