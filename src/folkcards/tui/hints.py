"""A hint a player can read: the recommendation first, then the alternatives on one
labelled scale, and — when the adviser keeps its choice over a higher raw mean — why.

The adviser (``folkcards.bots.hint``) returns its choice and a value per action on a
``scale``: ``win`` (search: the seat's expected deal value in [0, 1], mostly the chance
of winning the deal), ``heuristic`` (rule-of-thumb scores with no unit) or ``uniform``.
Only the first is a quantity a person can compare, so it is shown as a percentage;
heuristic scores are shown as a ranking, never as numbers on an unnamed scale.
"""

from __future__ import annotations

from typing import Any

SCALE_LABEL = {
    "win": "deal value in %: your side's chance to win this deal, counting the margin",
    "heuristic": "rules of thumb (no search in this phase): ranked best first",
    "uniform": "no preference: every choice is as good as any other",
}

NOISE = 0.02
"""Differences of deal value below this (2 points of 100) are called 'within noise'
when the adviser reports no standard error of its own."""


def lines(h: dict[str, Any], limit: int = 5) -> list[str]:
    """The hint as short lines: recommendation, then up to ``limit`` alternatives."""
    choice = str(h.get("choice"))
    scale = str(h.get("scale", ""))
    actions: list[dict[str, Any]] = list(h.get("actions", []))
    by_text = {str(a["action"]): a for a in actions}
    out = [f"Hint: {choice}"]
    if scale == "win":
        best = by_text.get(choice)
        samples = best.get("samples") if best else None
        head = f"  {SCALE_LABEL['win']}"
        head += f" (search, {samples} sampled deals)" if isinstance(samples, int) else " (search)"
        out.append(head)
        base = float(best["value"]) if best else 0.0
        rows = [best] if best else []
        rows += [a for a in actions if a["action"] != choice][: limit - 1]
        for a in rows:
            v = float(a["value"])
            mark = "→" if a["action"] == choice else " "
            text = f"  {mark} {a['action']:<22} {100 * v:5.1f}%"
            if a["action"] != choice:
                diff = v - base
                text += f"  {100 * diff:+5.1f}"
                if diff > 0:
                    text += "  " + _why_kept(a, best)
            else:
                text += "  (recommended)"
            out.append(text)
    elif scale == "heuristic":
        out.append(f"  {SCALE_LABEL['heuristic']}")
        ranked = [choice] + [str(a["action"]) for a in actions if a["action"] != choice]
        out.append("  " + " > ".join(ranked[:limit]) + (" > …" if len(ranked) > limit else ""))
    else:
        out.append(f"  {SCALE_LABEL.get(scale, scale)}")
    return out


def _why_kept(alt: dict[str, Any], best: dict[str, Any] | None) -> str:
    """Why the recommendation stands although ``alt`` has a higher mean."""
    se = alt.get("se") or alt.get("stderr")
    gain = alt.get("gain")
    if best is not None and best.get("heuristic"):
        if isinstance(se, (int, float)) and isinstance(gain, (int, float)):
            return f"within noise of the best (gain {100 * gain:+.1f} ± {100 * se:.1f}); the tried play stands"
        return "within noise of the best: not a clear gain over the tried play"
    value = alt.get("value")
    if isinstance(value, (int, float)) and best is not None and value - best["value"] < NOISE:
        return "within noise of the best"
    return "higher mean, but the adviser's choice rule kept its pick"
