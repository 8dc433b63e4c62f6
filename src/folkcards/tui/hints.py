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
from folkcards.tui import i18n

__all__ = ["NOISE", "lines", "reason_text", "scale_label"]

SCALE_KEYS = {
    "win": "hint_panel.scale_win_chance",
    "heuristic": "hint_panel.scale_rank",
    "uniform": "hint_panel.scale_none",
}
"""The catalogs' label of each of the adviser's scales (the web table's hint panel says the same)."""


def scale_label(scale: str) -> str:
    """The scale in words, as the web table's hint panel says it."""
    key = SCALE_KEYS.get(scale)
    return i18n.t(key) if key is not None else scale


def _pct(value: float) -> str:
    return i18n.t("hint_panel.pct", v=i18n.num(f"{100 * value:.1f}"))


def lines(h: dict[str, Any], limit: int = 5) -> list[str]:
    """The hint as short lines: recommendation, then up to ``limit`` alternatives."""
    e = explain_hint(h)
    choice = e["choice"]
    rows: list[dict[str, Any]] = e["rows"]
    game = str(h.get("game", ""))

    def said(action: str) -> str:
        return i18n.action_words(action, game)

    out = [i18n.t("hint_panel.title", action=said(choice))]
    if e["scale"] == "win_chance":
        samples = e["samples"]
        how = (
            i18n.t("hint_panel.search_n", n=samples)
            if samples is not None
            else i18n.t("hint_panel.search")
        )
        out.append(f"  {scale_label('win')} ({how})")
        has_best = bool(rows) and rows[0]["action"] == choice
        shown = rows[: limit if has_best else limit - 1]
        width = max((i18n.width(said(r["action"])) for r in shown), default=0)
        width = max(22, width)
        for r in shown:
            best = r["action"] == choice
            mark = ("←" if i18n.rtl() else "→") if best else " "
            name = said(r["action"])
            pad = " " * (width - i18n.width(name))
            text = f"  {mark} {name}{pad} {_pct(r['value']):>6}"
            if not best:
                diff = f"{100 * r['diff']:+5.1f}"
                text += f"  {i18n.num(diff)}"
                if r["reason"] is not None:
                    text += "  " + reason_text(r)
            else:
                text += f"  ({i18n.t('hint_panel.recommended')})"
            out.append(text)
        if e["unsearched"]:
            out.append("  " + i18n.t("hint_panel.unsearched", n=i18n.num(str(e["unsearched"]))))
    elif e["scale"] == "rank":
        out.append(f"  {scale_label('heuristic')}")
        ranked = [choice] + [r["action"] for r in rows if r["action"] != choice]
        sep = " > "  # mirrored (and so still read "better than") in right-to-left text
        text = sep.join(said(a) for a in ranked[:limit])
        out.append("  " + text + (sep + "…" if len(ranked) > limit else ""))
    else:
        key = e["bot_scale"]
        out.append(f"  {scale_label(key) if key in SCALE_KEYS else key}")
    return out


def reason_text(row: dict[str, Any]) -> str:
    """Why the recommendation stands over ``row`` (a row of :func:`explain_hint`), in words."""
    reason = row.get("reason")
    if reason == "noise_tried_play":
        gain, se = row.get("gain"), row.get("se")
        if gain is not None and se is not None:
            return i18n.t(
                "hint_panel.noise_tried_play_gain",
                g=i18n.num(f"{100 * gain:+.1f}"),
                se=i18n.num(f"{100 * se:.1f}"),
            )
        return i18n.t("hint_panel.noise_tried_play")
    if reason == "noise":
        return i18n.t("hint_panel.noise")
    return i18n.t("hint_panel.choice_rule")
