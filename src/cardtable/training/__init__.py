"""Training: the code that makes the learned bots' weights (the bots themselves, and the
weights they ship with, are in ``cardtable.bots``).

- ``cardtable.training.sequence``: the evolution strategy behind the learned Sequence
  bot's ``bots/data/sequence_weights.json`` (``python -m cardtable.training.sequence``).
"""
