"""The terminal table: ``folkcards play`` (people against bots, or hot-seat) and ``folkcards demo``.

:mod:`~folkcards.tui.session` runs a match and gives each seat only its observation;
:mod:`~folkcards.tui.view` draws a seat's view with ``rich``; :mod:`~folkcards.tui.inputs`
reads what a person types; :mod:`~folkcards.tui.present` holds per-game presentation
(rank orders, phase names); :mod:`~folkcards.tui.players` connects the bots and hints;
:mod:`~folkcards.tui.demo` prints a bots-only match trick by trick.
"""
