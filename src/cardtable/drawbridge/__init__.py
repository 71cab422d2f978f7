"""Draw Bridge: two-player bridge whose hands are built in a draw phase (RULES.md section 1)."""

from cardtable.drawbridge.game import (
    Contract,
    DealRecord,
    DrawBridge,
    DrawBridgeGame,
    DrawBridgeState,
)
from cardtable.drawbridge.pbn import to_pbn
from cardtable.drawbridge.scoring import STRAINS, score_deal

GAME_CLASS = DrawBridgeGame

__all__ = ["GAME_CLASS", "STRAINS", "Contract", "DealRecord", "DrawBridge", "DrawBridgeGame",
           "DrawBridgeState",
           "score_deal", "to_pbn"]
