"""Playing in the terminal: the UI behind the ``play``, ``replay`` and ``rules`` commands.

The UI holds no rule: it shows ``state.view(seat)``, offers ``state.legal_actions()``
and lets ``state.apply`` explain a refused move.
"""
