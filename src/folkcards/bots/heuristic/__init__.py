"""The per-game tactics of the ``heuristic`` bot, encoding the tactics of the rules files
and their seeds (each game's module in this package says which).

A game's module ``folkcards.bots.heuristic.<game>`` exports ``evaluate(obs) -> {action:
score}``: a score for every legal action (higher is better), whose best is played. It
may also export what the search bots use: ``playout_evaluate(obs)``, a cheaper scorer
for their playouts (Sasku's leaves out its endgame solver there), ``rollout(legal,
rng)`` (a fast playout policy), ``leaf(state)`` (an exact endgame value that ends a
playout), ``models(obs)`` (where the playout scorer is what the heuristic plays, for
inference from play), ``SEARCH_TUNING`` (the game's own ``search`` options) and
``BATCH_TUNING`` (its own ``bsearch`` options). :mod:`folkcards.bots.kits` gathers them
into the game's :class:`~folkcards.bots.kits.BotKit`, which is how every bot reads them;
the modules here know only their game's rules and the shared trick tactics of
:mod:`~folkcards.bots.heuristic.common`.
"""
