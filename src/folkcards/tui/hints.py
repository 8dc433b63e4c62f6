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

from folkcards.bots.hint import NOISE, explain_hint

__all__ = ["NOISE", "SCALE_LABEL", "lines", "reason_text"]

SCALE_LABEL = {
    "win": "deal value in %: your side's chance to win this deal, counting the margin",
    "heuristic": "rules of thumb (no search in this phase): ranked best first",
    "uniform": "no preference: every choice is as good as any other",
}


def lines(h: dict[str, Any], limit: int = 5) -> list[str]:
    """The hint as short lines: recommendation, then up to ``limit`` alternatives."""
    e = explain_hint(h)
    choice = e["choice"]
    rows: list[dict[str, Any]] = e["rows"]
    out = [f"Hint: {choice}"]
    if e["scale"] == "win_chance":
        samples = e["samples"]
        head = f"  {SCALE_LABEL['win']}"
        head += f" (search, {samples} sampled deals)" if samples is not None else " (search)"
        out.append(head)
        has_best = bool(rows) and rows[0]["action"] == choice
        shown = rows[: limit if has_best else limit - 1]
        for r in shown:
            mark = "→" if r["action"] == choice else " "
            text = f"  {mark} {r['action']:<22} {100 * r['value']:5.1f}%"
            if r["action"] != choice:
                text += f"  {100 * r['diff']:+5.1f}"
                if r["reason"] is not None:
                    text += "  " + reason_text(r)
            else:
                text += "  (recommended)"
            out.append(text)
    elif e["scale"] == "rank":
        out.append(f"  {SCALE_LABEL['heuristic']}")
        ranked = [choice] + [r["action"] for r in rows if r["action"] != choice]
        out.append("  " + " > ".join(ranked[:limit]) + (" > …" if len(ranked) > limit else ""))
    else:
        out.append(f"  {SCALE_LABEL.get(e['bot_scale'], e['bot_scale'])}")
    return out


def reason_text(row: dict[str, Any]) -> str:
    """Why the recommendation stands over ``row`` (a row of :func:`explain_hint`), in words."""
    reason = row.get("reason")
    if reason == "noise_tried_play":
        gain, se = row.get("gain"), row.get("se")
        if gain is not None and se is not None:
            return (
                f"within noise of the best (gain {100 * gain:+.1f} ± {100 * se:.1f}); "
                "the tried play stands"
            )
        return "within noise of the best: not a clear gain over the tried play"
    if reason == "noise":
        return "within noise of the best"
    return "higher mean, but the adviser's choice rule kept its pick"
