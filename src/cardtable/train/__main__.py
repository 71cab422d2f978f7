"""``python -m cardtable.train GAME --out RUN``: train a game's agent from scratch
(``cardtable.train.dmc``; docs/training.md)."""

from cardtable.train.dmc import main

main()
