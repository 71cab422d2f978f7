"""Three Thirteen: eleven rounds of rummy with a wild rank that climbs (RULES.md section 3)."""

from cardtable.threethirteen.game import ThreeThirteenGame, ThreeThirteenState
from cardtable.threethirteen.melds import arrange

GAME_CLASS = ThreeThirteenGame

__all__ = ["GAME_CLASS", "ThreeThirteenGame", "ThreeThirteenState", "arrange"]
