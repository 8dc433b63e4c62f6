"""The few facts of a deal a player needs at a glance, per game, in the game's words.

The engine's ``info`` holds every public fact; the table shows the ones that matter for
the decision at hand in two or three short lines ("Trump hearts ♥ · declarer Seat 1,
bid 6 · card points us 34 · them 20 (61 wins)"). A game not described here gets its
``info`` as ``key value`` pairs, flowed into as few lines as fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from folkcards.engine.api import Observation
from folkcards.tui import present

if TYPE_CHECKING:
    from folkcards.tui.view import TableFacts


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ints(value: Any) -> list[int] | None:
    if isinstance(value, list) and value and all(_int(v) is not None for v in value):
        return list(value)
    return None


def _seat(names: Sequence[str], value: Any) -> str:
    s = _int(value)
    return names[s] if s is not None and 0 <= s < len(names) else "—"


def _teams(values: list[int], obs: Observation, facts: TableFacts) -> str:
    """'us 34 · them 20' (partnerships) or 'You 3 · Seat 1 0 · …' (per seat)."""
    if facts.partnership and len(values) == 2 and obs.seat >= 0:
        mine = obs.seat % 2
        return f"us {values[mine]} · them {values[1 - mine]}"
    labels = (
        facts.seat_names
        if len(values) == len(facts.seat_names)
        else [f"team {i}" for i in range(len(values))]
    )
    return " · ".join(f"{lab} {v}" for lab, v in zip(labels, values, strict=False))


def _join(parts: list[str]) -> Text:
    return Text(" · ".join(p for p in parts if p))


def lines(obs: Observation, facts: TableFacts) -> list[Text]:
    """The fact lines of ``obs`` for its game."""
    make = {
        "sasku": _sasku,
        "scopone": _scopone,
        "sheepshead": _sheepshead,
        "satat": _satat,
        "huutopussi": _huutopussi,
    }.get(obs.game)
    if make is None:
        return _generic(obs, facts)
    return [line for line in make(obs, facts) if line.plain]


def _trump(obs: Observation) -> str:
    t = present.trump_suit(obs)
    return f"trump {present.suit_words(obs.game, t)}" if t else ""


def _sasku(obs: Observation, f: TableFacts) -> list[Text]:
    from folkcards.tui.view import CARD_INDEX

    i, n = obs.info, f.seat_names
    out = []
    if obs.phase in ("cut", "exchange", "auction"):
        parts = []
        if _int(i.get("bid")):
            parts.append(f"high bid {i['bid']} by {_seat(n, i.get('bidder'))}")
        elif obs.phase == "auction":
            parts.append("no bid yet")
        if i.get("passed"):
            parts.append("passed: " + ", ".join(_seat(n, s) for s in i["passed"]))
        for e in i.get("exchanges") or []:
            if isinstance(e, dict) and e.get("picture"):
                back = f", got {e['returned']} back" if e.get("returned") in CARD_INDEX else ""
                parts.append(
                    f"{_seat(n, e.get('giver'))} gave {e['picture']} to {_seat(n, e.get('returner'))}{back}"
                )
        out.append(_join(parts))
    else:
        parts = [_trump(obs)]
        if i.get("passed_deal"):
            parts.append("passed deal: more than 60 points scores 1")
        elif _int(i.get("declarer")) is not None:
            bid = f", bid {i['bid']}" if _int(i.get("bid")) else ""
            parts.append(f"declarer {_seat(n, i['declarer'])}{bid}")
        out.append(_join(parts))
        pts, tr = _ints(i.get("points")), _ints(i.get("tricks"))
        if pts and tr and obs.phase == "play":
            out.append(
                Text(f"card points {_teams(pts, obs, f)} (61 wins) · tricks {_teams(tr, obs, f)}")
            )
    face = _face_up(obs, f)
    if face is not None:
        out.append(face)
    return out


def _face_up(obs: Observation, f: TableFacts) -> Text | None:
    """Sasku 'deal to X': the cards dealt face up that other seats still hold."""
    from folkcards.tui.view import CARD_INDEX, plays, styled_card

    pairs = obs.info.get("face_up")
    if not isinstance(pairs, list) or not pairs:
        return None
    gone = {c for _, c in plays(obs)}
    groups: dict[int, list[int]] = {}
    for item in pairs:
        if isinstance(item, list) and len(item) == 2 and item[0] in CARD_INDEX:
            c, s = CARD_INDEX[item[0]], item[1]
            if s != obs.seat and c not in gone:
                groups.setdefault(s, []).append(c)
    if not groups:
        return None
    out = Text("face up: ", style="dim")
    for k, (s, cards) in enumerate(sorted(groups.items())):
        if k:
            out.append(" · ")
        out.append(f"{f.seat_names[s]} ")
        order = present.hand_order(
            obs.game, sum(1 << c for c in cards), present.trump_suit(obs), obs.variant
        )
        for j, c in enumerate(order):
            if j:
                out.append(" ")
            out.append_text(styled_card(c))
    out.truncate(2 * 76, overflow="ellipsis")
    return out


def _scopone(obs: Observation, f: TableFacts) -> list[Text]:
    from folkcards.tui.view import CARD_INDEX, styled_card

    i = obs.info
    table = Text("Table: ", style="bold")
    cards = [c for c in i.get("table") or [] if c in CARD_INDEX]
    if not cards:
        table.append("empty", style="dim")
    for k, c in enumerate(cards):
        if k:
            table.append("  ")
        table.append_text(styled_card(CARD_INDEX[c]))
    piles = i.get("piles")
    parts = []
    if isinstance(piles, list) and len(piles) == 2 and obs.seat >= 0:
        mine = obs.seat % 2
        for label, pile in (("us", piles[mine]), ("them", piles[1 - mine])):
            coins = sum(1 for c in pile if c.endswith("D"))
            sette = " + 7D" if "7D" in pile else ""
            parts.append(
                f"{label} {len(pile)} cards, {coins} coin{'s' if coins != 1 else ''}{sette}"
            )
    sw = _ints(i.get("sweeps"))
    if sw and any(sw):
        parts.append(f"scopas {_teams(sw, obs, f)}")
    return [table, Text("captured: " + " · ".join(parts)) if parts else Text("")]


def _sheepshead(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    out = []
    mode = i.get("mode")
    parts = []
    if _int(i.get("picker")) is not None:
        parts.append(f"picker {_seat(n, i['picker'])}")
        if isinstance(i.get("called"), str):
            partner = _int(i.get("partner"))
            who = _seat(n, partner) if partner is not None else "unknown"
            parts.append(f"called {i['called']} (partner: {who})")
        elif mode == "alone":
            parts.append("alone")
    elif mode == "leaster":
        parts.append("leaster: fewest points (with a trick) wins")
    elif obs.phase == "pick":
        passed = [s for t, s in zip(obs.history, obs.actors, strict=False) if t == "pass"]
        parts.append("passed: " + (", ".join(n[s] for s in passed) if passed else "nobody yet"))
    stake = _int(i.get("stake"))
    if stake and stake > 1:
        parts.append(f"stake ×{stake}")
    out.append(_join(parts))
    extra = []
    if isinstance(i.get("blind"), list) and i["blind"] and obs.phase in ("bury", "call"):
        extra.append("blind " + " ".join(i["blind"]))
    if isinstance(i.get("bury"), list) and i["bury"]:
        extra.append("your bury " + " ".join(i["bury"]) + " (counts for you)")
    if extra:
        out.append(_join(extra))
    taken = _ints(i.get("taken"))
    if taken and obs.phase == "play" and any(taken):
        out.append(Text("points taken: " + _teams(taken, obs, f)))
    return out


def _satat(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    parts = []
    if present.trump_suit(obs):
        parts.append(_trump(obs))
    elif i.get("trump_known") is False and obs.phase != "trump":
        cands = i.get("trump_candidates") or []
        parts.append("trump hidden (could be " + " ".join(cands) + ")")
    parts.append(f"trump maker {_seat(n, i.get('trump_maker'))}")
    if _int(i.get("blind")):
        turned = f": {i['turned']}" if isinstance(i.get("turned"), str) else ""
        parts.append(f"blind {i['blind']}{turned}")
    out = [_join(parts)]
    tr = _ints(i.get("tricks"))
    more = []
    if tr and obs.phase in ("play", "lese", "continue"):
        more.append(f"tricks {_teams(tr, obs, f)} (7 wins the deal)")
    if _int(i.get("announced")) is not None:
        more.append(f"{_seat(n, i['announced'])} announced the 2H")
    if i.get("gave"):
        more.append("you gave " + " ".join(i["gave"]))
    if more:
        out.append(_join(more))
    return out


def _huutopussi(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    out = []
    parts = []
    if obs.phase == "bidding":
        if _int(i.get("high_bid")):
            parts.append(f"high bid {i['high_bid']} by {_seat(n, i.get('high_bidder'))}")
        else:
            parts.append("no bid yet")
        if i.get("passed"):
            parts.append("passed: " + ", ".join(_seat(n, s) for s in i["passed"]))
        if i.get("banned"):
            parts.append("may not bid (≤ −500): " + ", ".join(_seat(n, s) for s in i["banned"]))
    else:
        if _int(i.get("declarer")) is not None:
            parts.append(f"declarer {_seat(n, i['declarer'])}, bid {i.get('bid')}")
        if _int(i.get("contract")):
            parts.append(f"contract {i['contract']}")
        parts.append(_trump(obs) or ("no trump yet" if obs.phase == "play" else ""))
    out.append(_join(parts))
    more = []
    if isinstance(i.get("widow"), list) and i["widow"]:
        more.append("widow " + " ".join(i["widow"]))
    pts, tr, mar = _ints(i.get("points")), _ints(i.get("tricks")), _ints(i.get("marriages"))
    if pts and obs.phase in ("play", "answer"):
        more.append(f"points {_teams(pts, obs, f)}")
        if mar and any(mar):
            more.append(f"marriages {_teams(mar, obs, f)}")
        if tr:
            more.append(f"tricks {_teams(tr, obs, f)}")
    if more:
        out.append(_join(more))
    return out


def _generic(obs: Observation, f: TableFacts) -> list[Text]:
    """Any other game: its ``info`` as 'key value' pairs, flowed into a few lines."""
    from folkcards.tui.view import TRICKLESS, info_value

    out: list[Text] = []
    line = Text()
    skip = present.hidden_info(obs.game)
    for key, value in obs.info.items():
        if key in skip or (key in ("trick", "current_trick") and obs.game not in TRICKLESS):
            continue
        if value is None or value is False or (isinstance(value, (list, dict)) and not value):
            continue
        cell = Text(key.replace("_", " ") + " ", style="cyan")
        cell.append_text(info_value(key, value, f.seat_names, f.num_teams))
        if line.plain and len(line.plain) + len(cell.plain) + 3 > 76:
            out.append(line)
            line = Text()
        if line.plain:
            line.append(" · ")
        line.append_text(cell)
    if line.plain:
        out.append(line)
    return out[:4]
