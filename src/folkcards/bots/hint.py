"""Hints: a bot's choice and its evaluation of every legal action, for one seat's view.

The base of hints in the terminal and the web table (and of ``folkcards hint``): the
caller passes the observation of the seat to act — never the state — so a hint reveals
nothing that seat could not know.
"""

from __future__ import annotations

import random
from typing import Any

from folkcards.bots.base import Bot, BotError
from folkcards.bots.registry import make_bot
from folkcards.engine.api import Observation


def hint(
    obs: Observation, bot: Bot | str = "search", rng: random.Random | None = None
) -> dict[str, Any]:
    """The bot's choice and a value per legal action it valued (best first) for ``obs``:
    every legal action, except where a batched search before card play values only the
    heuristic's best few (``wide``).

    ``obs`` must be the observation of the seat to act. The result is JSON-ready:
    ``{"game", "seat", "phase", "bot", "choice", "scale", "actions": [{"action",
    "value", …}], "unsearched"}``, ``unsearched`` counting the legal actions without a
    value (so that a reader is told the others were left out, not forgotten).
    """
    if obs.to_act != obs.seat or not obs.legal:
        raise BotError(f"seat {obs.seat} is not to act (to act: {obs.to_act})")
    if isinstance(bot, str):
        bot = make_bot(bot)
    ev = bot.evaluate(obs, rng if rng is not None else random.Random(0))
    out: dict[str, Any] = {"game": obs.game, "seat": obs.seat, "phase": obs.phase, "bot": bot.name}
    out.update(ev.to_dict())
    valued = {str(a["action"]) for a in out.get("actions", [])}
    out["unsearched"] = sum(str(a) not in valued for a in obs.legal)
    return out


# --- explaining a hint ----------------------------------------------------------------

SCALES = {"win": "win_chance", "heuristic": "rank", "margin": "rank", "uniform": "none"}
"""The bot's ``scale`` → the scale a reader is shown: ``win_chance`` (the seat's expected
deal value in [0, 1], shown as a percentage), ``rank`` (rule-of-thumb scores, shown as an
order, never as numbers) or ``none`` (no preference)."""

NOISE = 0.02
"""Differences of deal value below this (2 points of 100) are called 'within noise'
when the adviser reports no standard error of its own."""

TIE = 0.0005
"""A higher mean by less than this (half of the 0.1 point a reader is shown) reads as a
tie, "+0.0", and needs no reason why the choice stands."""

REASONS = ("noise_tried_play", "noise", "choice_rule")
"""Why the choice stands over an alternative with a higher mean: ``noise_tried_play``
(the choice is the tried play and the alternative's gain is not clear — ``gain`` and
``se`` say by how much when the adviser reports them), ``noise`` (the difference is below
:data:`NOISE`) or ``choice_rule`` (the adviser's choice rule kept its pick)."""


def explain_hint(h: dict[str, Any]) -> dict[str, Any]:
    """A hint (the result of :func:`hint`) as plain data a player can be shown.

    Returns ``{"choice", "scale", "bot_scale", "samples", "rows", "reason",
    "unsearched"}`` (``unsearched``: the legal actions the search left to the heuristic's
    ranking and did not value, as :func:`hint` counted them; 0 when it valued all): ``rows``
    puts the choice first, then the alternatives best first, each ``{"action", "value",
    "diff", "reason"}`` — on the ``win_chance`` scale ``value`` is the deal value in
    [0, 1] and ``diff`` its difference to the choice's (0 for the choice); on the other
    scales both are ``None``. A row's ``reason`` (one of :data:`REASONS`, with ``gain``
    and ``se`` when known) says why the choice stands over a higher mean; the top-level
    ``reason`` is the first such reason, or ``None``.
    """
    choice = str(h.get("choice"))
    bot_scale = str(h.get("scale", ""))
    scale = SCALES.get(bot_scale, "none")
    actions: list[dict[str, Any]] = list(h.get("actions", []))
    best = next((a for a in actions if str(a["action"]) == choice), None)
    ordered = ([best] if best is not None else []) + [
        a for a in actions if str(a["action"]) != choice
    ]
    samples = best.get("samples") if best is not None else None
    base = float(best["value"]) if best is not None else 0.0
    rows: list[dict[str, Any]] = []
    reason: str | None = None
    for a in ordered:
        row: dict[str, Any] = {"action": str(a["action"]), "value": None, "diff": None}
        row["reason"] = None
        if scale == "win_chance":
            v = float(a["value"])
            row["value"] = v
            row["diff"] = 0.0 if a is best else v - base
            if a is not best and v - base > TIE:
                row.update(_why_kept(a, best))
                reason = reason or row["reason"]
        rows.append(row)
    return {
        "choice": choice,
        "scale": scale,
        "bot_scale": bot_scale,
        "samples": samples if isinstance(samples, int) else None,
        "rows": rows,
        "reason": reason,
        "unsearched": int(h.get("unsearched") or 0),
    }


def _why_kept(alt: dict[str, Any], best: dict[str, Any] | None) -> dict[str, Any]:
    """Why the recommendation stands although ``alt`` has a higher mean."""
    se = alt.get("se") or alt.get("stderr")
    gain = alt.get("gain")
    if best is not None and best.get("heuristic"):
        if isinstance(se, (int, float)) and isinstance(gain, (int, float)):
            return {"reason": "noise_tried_play", "gain": float(gain), "se": float(se)}
        return {"reason": "noise_tried_play"}
    value = alt.get("value")
    if isinstance(value, (int, float)) and best is not None and value - best["value"] < NOISE:
        return {"reason": "noise"}
    return {"reason": "choice_rule"}
