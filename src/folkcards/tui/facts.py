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
from folkcards.tui import i18n, present

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
        return i18n.t("terminal.table.us_them", us=values[mine], them=values[1 - mine])
    labels = (
        facts.seat_names
        if len(values) == len(facts.seat_names)
        else [i18n.t("terminal.names.team", n=i) for i in range(len(values))]
    )
    return " · ".join(f"{lab} {i18n.num(v)}" for lab, v in zip(labels, values, strict=False))


def _seats(names: Sequence[str], seats: Any) -> str:
    return i18n.t("ui.sep").join(_seat(names, s) for s in seats)


def _cards(cards: Any) -> str:
    return i18n.ltr(" ".join(str(c) for c in cards))


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
    return i18n.t("terminal.facts.trump", suit=present.suit_words(obs.game, t)) if t else ""


def _sasku(obs: Observation, f: TableFacts) -> list[Text]:
    from folkcards.tui.view import CARD_INDEX

    i, n = obs.info, f.seat_names
    out = []
    if obs.phase in ("cut", "exchange", "auction"):
        parts = []
        if _int(i.get("bid")):
            parts.append(
                i18n.t("terminal.facts.high_bid", bid=i["bid"], name=_seat(n, i.get("bidder")))
            )
        elif obs.phase == "auction":
            parts.append(i18n.t("terminal.facts.no_bid"))
        if i.get("passed"):
            parts.append(i18n.t("terminal.facts.passed", names=_seats(n, i["passed"])))
        for e in i.get("exchanges") or []:
            if isinstance(e, dict) and e.get("picture"):
                text = i18n.t(
                    "terminal.facts.gave",
                    giver=_seat(n, e.get("giver")),
                    card=i18n.ltr(e["picture"]),
                    to=_seat(n, e.get("returner")),
                )
                if e.get("returned") in CARD_INDEX:
                    text += i18n.t("terminal.facts.got_back", card=i18n.ltr(e["returned"]))
                parts.append(text)
        out.append(_join(parts))
    else:
        parts = [_trump(obs)]
        if i.get("passed_deal"):
            parts.append(i18n.t("terminal.facts.passed_deal"))
        elif _int(i.get("declarer")) is not None:
            key = "terminal.facts.declarer_bid" if _int(i.get("bid")) else "terminal.facts.declarer"
            parts.append(i18n.t(key, name=_seat(n, i["declarer"]), bid=i.get("bid")))
        out.append(_join(parts))
        pts, tr = _ints(i.get("points")), _ints(i.get("tricks"))
        if pts and tr and obs.phase == "play":
            out.append(
                Text(
                    i18n.t(
                        "terminal.facts.sasku_points",
                        points=_teams(pts, obs, f),
                        tricks=_teams(tr, obs, f),
                    )
                )
            )
    face = _face_up(obs, f)
    if face is not None:
        out.append(face)
    return out


def _face_up(obs: Observation, f: TableFacts) -> Text | None:
    """Sasku 'deal to X': the cards dealt face up that other seats still hold."""
    from folkcards.tui.view import CARD_INDEX, plays, styled_cards

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
    out = Text(i18n.t("terminal.facts.face_up") + " ", style="dim")
    for k, (s, cards) in enumerate(sorted(groups.items())):
        if k:
            out.append(" · ")
        out.append(f"{f.seat_names[s]} ")
        order = present.hand_order(
            obs.game, sum(1 << c for c in cards), present.trump_suit(obs), obs.variant
        )
        out.append_text(styled_cards(order))
    out.truncate(2 * 76, overflow="ellipsis")
    return out


def _scopone(obs: Observation, f: TableFacts) -> list[Text]:
    from folkcards.tui.view import CARD_INDEX, styled_cards

    i = obs.info
    table = Text(i18n.t("terminal.facts.table") + " ", style="bold")
    cards = [c for c in i.get("table") or [] if c in CARD_INDEX]
    if not cards:
        table.append(i18n.t("terminal.facts.empty"), style="dim")
    if cards:
        table.append_text(styled_cards([CARD_INDEX[c] for c in cards], sep="  "))
    piles = i.get("piles")
    parts = []
    if isinstance(piles, list) and len(piles) == 2 and obs.seat >= 0:
        mine = obs.seat % 2
        for label, pile in (("us", piles[mine]), ("them", piles[1 - mine])):
            coins = sum(1 for c in pile if c.endswith("D"))
            text = i18n.plural(
                "terminal.facts.pile",
                coins,
                side=i18n.t(f"terminal.names.{label}"),
                n=len(pile),
            )
            if "7D" in pile:
                text += " + " + i18n.ltr("7D")
            parts.append(text)
    sw = _ints(i.get("sweeps"))
    if sw and any(sw):
        parts.append(i18n.t("terminal.facts.scopas", sides=_teams(sw, obs, f)))
    captured = i18n.t("terminal.facts.captured", piles=" · ".join(parts)) if parts else ""
    return [table, Text(captured)]


def _sheepshead(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    out = []
    mode = i.get("mode")
    parts = []
    if _int(i.get("picker")) is not None:
        parts.append(i18n.t("terminal.facts.picker", name=_seat(n, i["picker"])))
        if isinstance(i.get("called"), str):
            partner = _int(i.get("partner"))
            who = _seat(n, partner) if partner is not None else i18n.t("terminal.facts.unknown")
            parts.append(i18n.t("terminal.facts.called", card=i18n.ltr(i["called"]), name=who))
        elif mode == "alone":
            parts.append(i18n.t("terminal.facts.alone"))
    elif mode == "leaster":
        parts.append(i18n.t("terminal.facts.leaster"))
    elif obs.phase == "pick":
        passed = [s for t, s in zip(obs.history, obs.actors, strict=False) if t.kind == "pass"]
        names = _seats(n, passed) if passed else i18n.t("terminal.facts.nobody_yet")
        parts.append(i18n.t("terminal.facts.passed", names=names))
    stake = _int(i.get("stake"))
    if stake and stake > 1:
        parts.append(i18n.t("terminal.facts.stake", n=stake))
    out.append(_join(parts))
    extra = []
    if isinstance(i.get("blind"), list) and i["blind"] and obs.phase in ("bury", "call"):
        extra.append(i18n.t("terminal.facts.blind_cards", cards=_cards(i["blind"])))
    if isinstance(i.get("bury"), list) and i["bury"]:
        extra.append(i18n.t("terminal.facts.your_bury", cards=_cards(i["bury"])))
    if extra:
        out.append(_join(extra))
    taken = _ints(i.get("taken"))
    if taken and obs.phase == "play" and any(taken):
        out.append(Text(i18n.t("terminal.facts.taken", sides=_teams(taken, obs, f))))
    return out


def _satat(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    parts = []
    if present.trump_suit(obs):
        parts.append(_trump(obs))
    elif i.get("trump_known") is False and obs.phase != "trump":
        cands = i.get("trump_candidates") or []
        parts.append(
            i18n.t(
                "terminal.facts.trump_hidden",
                suits=" ".join(present.suit_words(obs.game, c) for c in cands),
            )
        )
    parts.append(i18n.t("terminal.facts.trump_maker", name=_seat(n, i.get("trump_maker"))))
    if _int(i.get("blind")):
        text = i18n.t("terminal.facts.blind", n=i["blind"])
        if isinstance(i.get("turned"), str):
            text += f": {i18n.ltr(i['turned'])}"
        parts.append(text)
    out = [_join(parts)]
    tr = _ints(i.get("tricks"))
    more = []
    if tr and obs.phase in ("play", "lese", "continue"):
        more.append(i18n.t("terminal.facts.satat_tricks", sides=_teams(tr, obs, f)))
    if _int(i.get("announced")) is not None:
        more.append(i18n.t("terminal.facts.announced", name=_seat(n, i["announced"])))
    if i.get("gave"):
        more.append(i18n.t("terminal.facts.you_gave", cards=_cards(i["gave"])))
    if more:
        out.append(_join(more))
    return out


def _huutopussi(obs: Observation, f: TableFacts) -> list[Text]:
    i, n = obs.info, f.seat_names
    out = []
    parts = []
    if obs.phase == "bidding":
        if _int(i.get("high_bid")):
            parts.append(
                i18n.t(
                    "terminal.facts.high_bid",
                    bid=i["high_bid"],
                    name=_seat(n, i.get("high_bidder")),
                )
            )
        else:
            parts.append(i18n.t("terminal.facts.no_bid"))
        if i.get("passed"):
            parts.append(i18n.t("terminal.facts.passed", names=_seats(n, i["passed"])))
        if i.get("banned"):
            parts.append(i18n.t("terminal.facts.banned", names=_seats(n, i["banned"])))
    else:
        if _int(i.get("declarer")) is not None:
            parts.append(
                i18n.t(
                    "terminal.facts.declarer_bid", name=_seat(n, i["declarer"]), bid=i.get("bid")
                )
            )
        if _int(i.get("contract")):
            parts.append(i18n.t("terminal.facts.contract", n=i["contract"]))
        no_trump = i18n.t("terminal.facts.no_trump_yet") if obs.phase == "play" else ""
        parts.append(_trump(obs) or no_trump)
    out.append(_join(parts))
    more = []
    if isinstance(i.get("widow"), list) and i["widow"]:
        more.append(i18n.t("terminal.facts.widow", cards=_cards(i["widow"])))
    pts, tr, mar = _ints(i.get("points")), _ints(i.get("tricks")), _ints(i.get("marriages"))
    if pts and obs.phase in ("play", "answer"):
        more.append(i18n.t("terminal.facts.points", sides=_teams(pts, obs, f)))
        if mar and any(mar):
            more.append(i18n.t("terminal.facts.marriages", sides=_teams(mar, obs, f)))
        if tr:
            more.append(i18n.t("terminal.facts.tricks", sides=_teams(tr, obs, f)))
    if more:
        out.append(_join(more))
    return out


def _generic(obs: Observation, f: TableFacts) -> list[Text]:
    """Any other game: its ``info`` as 'key value' pairs, flowed into a few lines."""
    from folkcards.tui.view import info_value

    out: list[Text] = []
    line = Text()
    skip = present.hidden_keys(obs)
    tricks = present.takes_tricks(obs.game, obs.variant)
    for key, value in obs.info.items():
        if key in skip or (key in ("trick", "current_trick") and tricks):
            continue
        if value is None or value is False or (isinstance(value, (list, dict)) and not value):
            continue
        cell = Text(i18n.result_label(obs.game, key) + " ", style="cyan")
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
