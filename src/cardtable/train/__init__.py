"""Training: the code that makes agents and the learned bots' weights (the bots themselves,
and the weights they ship with, are in ``cardtable.bots``). It sits above the bots, the
environments and the batched engines, and nothing below imports it.

- ``cardtable.train.evolve``: the evolution strategy behind the learned Sequence bot's
  ``bots/data/sequence_weights.json`` (``python -m cardtable.train.evolve``).
- ``cardtable.train.actor_critic``: a small Sequence policy trained on the batched engine
  (``python -m cardtable.train.actor_critic``; docs/training.md).
- ``cardtable.train.dmc``: deep Monte-Carlo self-play on the batched engines, behind the
  "trained" bot's weights (``python -m cardtable.train GAME --out RUN``; PyTorch).
- ``cardtable.train.value``: Sequence's afterstate value network, behind its "trained"
  bot and its review (``python -m cardtable.train sequence --method value``);
  ``cardtable.train.value_check`` checks the review's verdicts against paired playouts.
"""
