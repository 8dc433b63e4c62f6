"""The running commentary of a deal: who did what, who took each trick and for how much,
sweeps, trump changes, contracts — and at the end the score in words and numbers with
every hand shown open.

It reads only what the viewer may see: the engine's structured events for the viewer
(``events_for(viewer)``, :func:`from_events`), or — for a game that does not narrate its
deals — the viewer's observation before and after each action (:func:`events`); once the
deal is over, the deal's record, when every card may be shown. Every line is a template of
the catalogs (``terminal.narrate.*``, ``terminal.breakdown.*``), with a form for the reader
as its subject (``…_you``: "You win the trick", «شما … می‌برید») where the language needs one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from folkcards.cards import CARD_NAMES
from folkcards.engine.actions import Step
from folkcards.engine.api import DealState, Observation
from folkcards.tui import i18n, present
from folkcards.tui.view import arrow, plays, styled_card, styled_cards, styled_text

N = "terminal.narrate."
B = "terminal.breakdown."


def _is_you(who: str | None) -> bool:
    return who is not None and who == i18n.t("terminal.names.you")


def said(key: str, who: str | None, /, **params: Any) -> str:
    """The narration template ``key`` about ``who``: its ``_you`` form when ``who`` is the
    reader and the catalogs have one."""
    if _is_you(who) and i18n.maybe(f"{key}_you") is not None:
        key = f"{key}_you"
    return i18n.t(key, who=who, **params)


def team_words(seat: int, viewer: int | None, partnership: bool, names: Sequence[str]) -> str:
    """'us' / 'them' for a team as the viewer sees it, else the team's seats."""
    if partnership and viewer is not None:
        return i18n.t("terminal.names.us" if seat % 2 == viewer % 2 else "terminal.names.them")
    if partnership and len(names) == 4:
        return i18n.t("terminal.names.pair", a=names[seat % 2], b=names[seat % 2 + 2])
    return names[seat]


def _pair(values: Any) -> list[int] | None:
    if isinstance(values, list) and all(isinstance(v, int) for v in values):
        return list(values)
    return None


def _cards(cards: Sequence[Any]) -> str:
    return i18n.ltr(" ".join(str(c) for c in cards))


def action_line(actor: int, text: str, names: Sequence[str], game: str = "") -> Text:
    """``Seat 1: bid 70`` with the cards coloured (the action in the table's language)."""
    line = Text(f"  {names[actor]}: ")
    line.append_text(styled_text(text, game))
    return line


def events(
    before: Observation,
    after: Observation,
    actor: int,
    step: Step | None,
    names: Sequence[str],
    partnership: bool,
) -> list[Text]:
    """What the action changed that a person should be told, one line each (for a game
    whose engine does not narrate: read from the viewer's observations); ``step`` is the
    action as the viewer saw it (the last entry of its history, None if it has none)."""
    out: list[Text] = []
    g = after.game
    viewer = after.seat if after.seat >= 0 else None
    b, a = before.info, after.info
    verb = step.kind if step is not None else ""
    who = names[actor]
    # trump named or changed
    tb, ta = present.trump_suit(before), present.trump_suit(after)
    if ta is not None and ta != tb:
        why = ""
        if g == "huutopussi":
            gained = [
                x - y
                for x, y in zip(
                    _pair(a.get("marriages")) or [], _pair(b.get("marriages")) or [], strict=False
                )
            ]
            pts = max(gained, default=0)
            side = team_words(actor, viewer, partnership, names)
            why = i18n.t(N + "by_marriage_points", n=pts, side=side) if pts else ""
            why = why or i18n.t(N + "by_marriage")
            if tb is not None:
                why += i18n.t(N + "plain_again", suit=present.suit_words(g, tb))
        elif g == "satat" and verb == "blind":
            turned = a.get("turned")
            why = i18n.t(N + "blind_card", card=i18n.ltr(turned)) if isinstance(turned, str) else ""
        elif g == "sasku" and verb == "diamonds":
            why = i18n.t(N + "said_diamonds", who=who)
        line = i18n.t(N + "trump_is", suit=present.suit_words(g, ta), why=why)
        out.append(Text(f"  {line}", style="bold"))
    if step is not None and verb == "contract" and step.number is not None:
        line = said(N + "sets_contract", who, n=i18n.num(step.number))
        out.append(Text(f"  {line}", style="bold"))
    if step is not None and g == "sheepshead" and verb == "call" and step.cards:
        line = said(N + "secret_partner", who, card=i18n.ltr(CARD_NAMES[step.cards[0]]))
        out.append(Text(f"  {line}"))
    if g == "sheepshead" and verb == "alone":
        out.append(Text(f"  {said(N + 'alone', who)}"))
    if (
        g == "sasku"
        and before.phase == "auction"
        and after.phase == "play"
        and a.get("passed_deal")
    ):
        out.append(Text(f"  {i18n.t(N + 'passed_deal')}", style="bold"))
    if g == "scopone" and verb == "play":
        sb, sa = _pair(b.get("sweeps")), _pair(a.get("sweeps"))
        if sb and sa and sa != sb:
            side = team_words(actor, viewer, True, names)
            out.append(Text(f"  {said(N + 'sweep', who, side=side)}", style="bold green"))
    if verb == "play" and g not in ("scopone",):
        trick = trick_done(before, after, names, partnership)
        if trick is not None:
            out.append(trick)
    return out


def _trick_head(number: Any) -> Text:
    return Text(f"  {i18n.t('terminal.table.trick', n=number)} ", style="bold")


def trick_done(
    before: Observation, after: Observation, names: Sequence[str], partnership: bool
) -> Text | None:
    """'Trick 3: … → Seat 1 +21' when the action completed a trick."""
    played = plays(after)
    n = after.num_seats
    if not played or len(played) % n:
        return None
    cards = played[-n:]
    number = len(played) // n
    winner = _winner(before, after, cards)
    line = _trick_head(number)
    for i, (s, c) in enumerate(cards):
        if i:
            line.append("  ")
        line.append(f"{names[s]} ")
        line.append_text(styled_card(c, bold=s == winner))
    if winner is None:
        return line
    line.append(f" {arrow()} {names[winner]}", style="green")
    gained = _points_gained(before, after, winner)
    if gained is not None:
        line.append(f" {i18n.num(f'+{gained}')}", style="green")
        if after.game == "huutopussi" and after.is_over:
            line.append(" " + i18n.t(N + "with_bonus"), style="green")
    if after.is_over:
        line.append(" · " + i18n.t(N + "last_trick"), style="bold")
    return line


def _winner(before: Observation, after: Observation, cards: list[tuple[int, int]]) -> int | None:
    """The trick's winner as the observation says it — the last trick's (Sheepshead's
    ``last_trick``), the list of tricks taken (Satat's ``won``), the next leader — else read
    from the game card's orders."""
    info = after.info
    if isinstance(info.get("last_trick"), Mapping):
        w = info["last_trick"].get("winner")
        if isinstance(w, int):
            return w
    if isinstance(info.get("won"), list) and info["won"]:
        last = info["won"][-1]
        if isinstance(last, list) and len(last) == 3 and isinstance(last[2], int):
            return last[2]
    if not after.is_over and isinstance(info.get("leader"), int) and after.phase == "play":
        return int(info["leader"])
    return present.trick_winner(after.game, cards, present.trump_suit(before), after.variant)


def _points_gained(before: Observation, after: Observation, winner: int) -> int | None:
    """The card points the trick gave the winner's side: the change of the game card's
    ``points_key`` (per seat in Sheepshead's ``taken``, per side otherwise)."""
    key = present.points_key(after)
    if key != "points":
        tb, ta = _pair(before.info.get(key)), _pair(after.info.get(key))
        if tb and ta and len(ta) > winner:
            return ta[winner] - tb[winner]
        return None
    pb, pa = _pair(before.info.get("points")), _pair(after.info.get("points"))
    if pb and pa and len(pa) == len(pb):
        side = winner % len(pa) if len(pa) == 2 and after.num_seats == 4 else winner
        if side < len(pa):
            return pa[side] - pb[side]
    return None


def engine_events(deal: DealState, viewer: int, since: int) -> list[Any] | None:
    """The viewer's structured events after its first ``since`` (``events_for``), or None
    where the game does not narrate its deals."""
    events_for = getattr(deal, "events_for", None)
    if not callable(events_for):
        return None
    try:
        found = events_for(viewer, since)
    except (NotImplementedError, TypeError, ValueError):
        return None
    return list(found)


def from_events(
    found: Sequence[Any], game: str, names: Sequence[str], viewer: int | None, partnership: bool
) -> list[Text]:
    """The lines worth telling of the engine's events (a trick taken and for how much,
    trump named or changed, the contract, a sweep, the partner revealed, cards passed);
    bids, plays and calls are already told by the action lines."""
    out: list[Text] = []
    n = len(names)
    ended = any(getattr(e, "kind", "") == "deal_end" for e in found)
    tricks = [e for e in found if getattr(e, "kind", "") == "trick"]
    for event in found:
        kind, d = getattr(event, "kind", ""), getattr(event, "data", {})
        if not isinstance(d, Mapping):
            continue
        seat = d.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < n else "?"
        if kind == "trick":
            line = _trick_event(d, game, names)
            if ended and event is tricks[-1]:
                line.append(" · " + i18n.t(N + "last_trick"), style="bold")
            out.append(line)
        elif kind == "trump" and isinstance(d.get("suit"), str):
            out.append(
                Text(f"  {_trump_event(d, who, game, names, viewer, partnership)}", style="bold")
            )
        elif kind == "contract":
            out.append(_contract_event(d, game, names))
        elif kind == "partner" and isinstance(seat, int):
            text = said(N + "partner", who, card=i18n.ltr(str(d.get("card"))))
            out.append(Text(f"  {text}", style="bold"))
        elif kind == "sweep":
            side = team_words(int(seat), viewer, True, names) if isinstance(seat, int) else "?"
            out.append(Text(f"  {said(N + 'sweep', who, side=side)}", style="bold green"))
        elif kind == "leftover" and isinstance(d.get("cards"), list) and d["cards"]:
            text = said(N + "leftover", who, cards=_cards(d["cards"]))
            out.append(Text(f"  {text}"))
        elif kind == "pass_cards":
            passed = _pass_event(d, game, names)
            if passed is not None:
                out.append(passed)
    return [line for line in out if line.plain]


def _trump_event(
    d: Mapping[str, Any],
    who: str,
    game: str,
    names: Sequence[str],
    viewer: int | None,
    partnership: bool,
) -> str:
    suit = present.suit_words(game, d["suit"])
    how = d.get("how")
    seat = d.get("seat")
    if how == "blind":
        return said(
            N + "trump_blind",
            who,
            n=d.get("position"),
            card=i18n.ltr(str(d.get("card"))),
            suit=suit,
        )
    if how == "diamonds":
        return said(N + "trump_diamonds", who)
    if how == "override":
        return said(N + "trump_override", who)
    if how in ("marriage", "declare"):
        side = team_words(int(seat), viewer, partnership, names) if isinstance(seat, int) else "?"
        return said(N + "trump_marriage", who, suit=suit, value=d.get("value"), side=side)
    if how == "hidden":
        return said(N + "trump_hidden", who)
    return said(N + "trump_by", who, suit=suit)


def _pass_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text | None:
    n = len(names)
    src, to, count = d.get("from"), d.get("to"), d.get("count")
    giver = names[src] if isinstance(src, int) and 0 <= src < n else str(src)
    taker = names[to] if isinstance(to, int) and 0 <= to < n else str(to)
    cards = d.get("cards")
    if isinstance(cards, list) and cards:
        what = _cards(cards)
    else:
        what = i18n.plural(N + "face_down", count if isinstance(count, int) else 0)
    if game == "sasku" or (game == "huutopussi" and count == 1):
        return None  # one line per card: the action line itself says it
    if src == "blind":
        return Text(f"  {said(N + 'picks_blind', taker, cards=what)}", style="dim")
    if to in ("bury", "discard"):
        return None  # the action line says it
    return Text(
        f"  {i18n.t(N + 'passed', giver=giver, arrow=arrow(), taker=taker, cards=what)}",
        style="dim",
    )


def _trick_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    n = len(names)
    leader, winner = d.get("leader"), d.get("winner")
    line = _trick_head(i18n.num(d.get("number")))
    cards = d.get("cards") or []
    for i, c in enumerate(cards):
        seat = (leader + i) % n if isinstance(leader, int) else None
        if i:
            line.append("  ")
        if seat is not None:
            line.append(f"{names[seat]} ")
        card = CARD_NAMES.index(c) if c in CARD_NAMES else None
        if card is None:
            line.append(str(c))
        else:
            line.append_text(styled_card(card, bold=seat == winner))
    if isinstance(winner, int) and 0 <= winner < n:
        line.append(f" {arrow()} {names[winner]}", style="green")
    points, bonus = d.get("points"), d.get("bonus")
    if isinstance(points, int):
        total = points + (bonus if isinstance(bonus, int) else 0)
        line.append(f" {i18n.num(f'+{total}')}", style="green")
        if isinstance(bonus, int) and bonus:
            line.append(" " + i18n.t(N + "bonus", n=bonus), style="green")
    return line


def _contract_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    n = len(names)
    dec = d.get("declarer")
    who = names[dec] if isinstance(dec, int) and 0 <= dec < n else None
    mode = d.get("mode")
    text = ""
    if game == "sheepshead":
        if mode == "leaster":
            text = i18n.t(N + "leaster")
        elif mode == "alone":
            text = said(N + "alone", who)
        elif mode == "called":
            text = said(N + "calls", who, card=i18n.ltr(str(d.get("called"))))
    elif game == "huutopussi":
        if isinstance(d.get("contract"), int):
            text = said(N + "sets_contract", who, n=d["contract"])
        elif isinstance(d.get("bid"), int):
            text = said(N + "wins_bidding", who, bid=d["bid"])
    elif game == "sasku" and who is None:
        text = i18n.t(N + "passed_deal")
    # Sasku with a declarer: the trump event has said who declares
    return Text(f"  {text}", style="bold") if text else Text("")


# --- the end of a deal -----------------------------------------------------------------


def breakdown(
    result: Mapping[str, Any],
    game: str,
    names: Sequence[str],
    viewer: int | None,
    partnership: bool,
) -> list[Text]:
    """The deal's score in words and numbers ("declarers 52 < 61 needed")."""
    r = result
    lines: list[str] = []

    def side(t: int) -> str:
        if partnership and len(names) == 4:
            return i18n.t("terminal.names.pair", a=names[t], b=names[t + 2])
        return names[t] if 0 <= t < len(names) else i18n.t("terminal.names.side", n=t)

    score = _pair(r.get("score")) or []
    if game == "sasku":
        lines += _sasku_breakdown(r, score, side)
    elif game == "scopone":
        lines += _scopone_breakdown(r, viewer, side)
    elif game == "sheepshead":
        lines += _sheepshead_breakdown(r, names)
    elif game == "satat":
        tr = _pair(r.get("tricks")) or [0, 0]
        won = r.get("won_by")
        if r.get("outcome") == "redeal":
            why = {"no_pictures": B + "satat_no_pictures", "no_trumps": B + "satat_no_trumps"}
            reason = why.get(str(r.get("redeal")))
            lines.append(i18n.t(B + "satat_redeal", why=i18n.t(reason) if reason else ""))
        elif isinstance(won, int):
            outcome = str(r.get("outcome"))
            if i18n.lang() != i18n.LANGS[0]:
                outcome = i18n.maybe(f"narrate.outcome_{outcome}") or outcome
            lines.append(
                i18n.t(
                    B + "satat_won",
                    side=side(won),
                    won=tr[won],
                    lost=tr[1 - won],
                    outcome=outcome,
                )
            )
    elif game == "huutopussi":
        lines += _huutopussi_breakdown(r, score, names, side)
    out = [Text(line) for line in lines]
    if score:
        summary = Text(i18n.t(B + "this_deal") + " ", style="bold")
        summary.append(" · ".join(f"{side(t)} {i18n.signed(v)}" for t, v in enumerate(score)))
        out.append(summary)
    return out


def _sasku_breakdown(r: Mapping[str, Any], score: list[int], side: Any) -> list[str]:
    lines: list[str] = []
    pts = _pair(r.get("points")) or [0, 0]
    d = r.get("declarer_team")
    trump = present.suit_words("sasku", str(r.get("trump"))) if r.get("trump") else "?"
    if r.get("redeal"):
        lines.append(i18n.t(B + "sasku_redeal"))
    elif r.get("lambapea"):
        t = int(r.get("won_by") or 0)
        lines.append(i18n.t(B + "sasku_lambapea", side=side(t), n=score[t]))
    elif r.get("passed"):
        t = int(r.get("won_by") or 0)
        lines.append(i18n.t(B + "sasku_passed", side=side(t), n=pts[t]))
    elif isinstance(d, int):
        pd = pts[d]
        won = r.get("won_by")
        cmp = "≥" if pd >= 61 else "<"
        key = B + ("sasku_declarers_bid" if r.get("bid") else "sasku_declarers")
        lines.append(
            i18n.t(
                key,
                side=side(d),
                trump=trump,
                bid=r.get("bid"),
                n=pd,
                cmp=cmp,
                other=pts[1 - d],
            )
        )
        col = B + ("sasku_diamond_column" if r.get("trump") == "D" else "sasku_plain_column")
        if isinstance(won, int):
            lines.append(
                i18n.t(
                    B + "sasku_strokes",
                    side=side(won),
                    n=score[won],
                    column=i18n.t(col),
                    band=_sasku_band(pd),
                )
            )
    return lines


def _scopone_breakdown(r: Mapping[str, Any], viewer: int | None, side: Any) -> list[str]:
    lines: list[str] = []
    rows: list[tuple[str, str, int | None]] = []
    cards, coins, prim, sweeps = (
        _pair(r.get(k)) or [0, 0] for k in ("cards", "coins", "primiera", "sweeps")
    )
    mine = viewer % 2 if viewer is not None else 0
    other = 1 - mine

    def vs(values: list[int]) -> str:
        return f"{i18n.num(values[mine])}–{i18n.num(values[other])}"

    def taken(value: Any) -> tuple[str, int | None]:
        holder = int(value) if isinstance(value, int) else None
        said = i18n.t(B + "taken_by", side=side(holder)) if holder is not None else "—"
        return said, holder

    rows.append((i18n.t(B + "scopone_cards"), vs(cards), _best(cards, 20)))
    rows.append((i18n.t(B + "scopone_coins"), vs(coins), _best(coins, 5)))
    rows.append(
        (i18n.t(B + "scopone_settebello", card=i18n.ltr("7D")), *taken(r.get("settebello")))
    )
    rows.append((i18n.t(B + "scopone_primiera"), vs(prim), _best(prim, None)))
    if "re_bello" in r:
        rows.append(
            (i18n.t(B + "scopone_re_bello", card=i18n.ltr("KD")), *taken(r.get("re_bello")))
        )
    lines.append(i18n.t(B + "scopone_counts", mine=side(mine), other=side(other)))
    for label, value, to in rows:
        gets = i18n.t(B + "point_to", side=side(to)) if isinstance(to, int) else i18n.t(B + "tie")
        lines.append(f"{_pad(label, 16)} {_pad(value, 14)} {gets}")
    lines.append(
        f"{_pad(i18n.t(B + 'scopone_scopas'), 16)} {_pad(vs(sweeps), 14)} {i18n.t(B + 'each')}"
    )
    if "napola" in r:
        nap = _pair(r.get("napola")) or [0, 0]
        lines.append(f"{_pad(i18n.t(B + 'scopone_napola'), 16)} {vs(nap)}")
    return lines


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` cells (isolates and joiners take none)."""
    return i18n.pad(text, width)


def _sheepshead_breakdown(r: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    mode = r.get("mode")
    if mode == "doubler":
        return [i18n.t(B + "shp_doubler", n=2 * int(r.get("stake") or 1))]
    if mode == "leaster":
        w = r.get("leaster_winners") or []
        winners = i18n.t("ui.sep").join(names[s] for s in w if isinstance(s, int))
        return [i18n.t(B + "shp_leaster", names=winners)]
    picker = r.get("picker")
    p = r.get("picker_points")
    side_txt = names[picker] if isinstance(picker, int) else "?"
    if mode == "called" and isinstance(r.get("partner"), int):
        side_txt = i18n.t(
            B + "shp_called",
            picker=side_txt,
            partner=names[r["partner"]],
            card=i18n.ltr(str(r.get("called"))),
        )
    elif mode == "alone":
        side_txt = i18n.t(B + "shp_alone", picker=side_txt)
    cmp = "≥" if isinstance(p, int) and p >= 61 else "<"
    lv = _int_or(r.get("level"), 1)
    picker_won = r.get("won_by") == "picker"
    level = ""
    if lv == 2:
        level = i18n.t(B + "shp_schneider")
    elif lv == 3:
        level = i18n.t(B + ("shp_all_tricks" if picker_won else "shp_no_trick"))
    key = B + ("shp_picker_win" if picker_won else "shp_defenders_win")
    return [i18n.t(key, side=side_txt, n=p, cmp=cmp, level=level)]


def _huutopussi_breakdown(
    r: Mapping[str, Any], score: list[int], names: Sequence[str], side: Any
) -> list[str]:
    if r.get("redeal"):
        by = r.get("redeal_by")
        return [i18n.t(B + "huu_redeal", name=names[by] if isinstance(by, int) else "?")]
    lines: list[str] = []
    d = r.get("declarer")
    pts = _pair(r.get("points")) or []
    mar = _pair(r.get("marriages")) or []
    contract = r.get("contract")
    n = len(pts)
    for t in range(n):
        m = mar[t] if t < len(mar) else 0
        total = pts[t] + m
        mine = isinstance(d, int) and (d % n == t if n == 2 else d == t)
        key = B + ("huu_declarers" if mine else "huu_opponents")
        text = i18n.t(key, side=side(t), points=pts[t], marriages=m, total=total)
        if mine and isinstance(contract, int):
            cmp = "≥" if total >= contract else "<"
            text += " " + i18n.t(B + "huu_contract", cmp=cmp, n=contract)
        lines.append(i18n.t(B + "huu_line", text=text, score=i18n.signed(score[t])))
    return lines


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _sasku_band(pd: int) -> str:
    if pd >= 91:
        return i18n.t(B + "band_91")
    if pd >= 61:
        return i18n.t(B + "band_61")
    if pd >= 30:
        return i18n.t(B + "band_30")
    return i18n.t(B + "band_under_30")


def _best(values: list[int], half: int | None) -> int | None:
    if len(values) != 2 or values[0] == values[1]:
        return None
    return 0 if values[0] > values[1] else 1


def open_hands(deal: DealState, names: Sequence[str]) -> list[Text]:
    """Every seat's cards as they held them when the card play began (the deal is over,
    so nothing is hidden any more), plus the game's hidden piles."""
    game = deal.game
    record = deal.record()
    state = game.deal_from_record(record, deal.variant)
    for text in record["actions"]:
        action = game.parse_action(text, deal.variant)  # the record's canonical text
        if action.step.kind == "play":
            break
        state.apply(action)
    out = [Text(i18n.t(N + "open_hands"), style="bold")]
    trump = None
    for s in range(state.num_seats):
        obs = state.observation(s)
        trump = trump or present.trump_suit(obs)
    for s in range(state.num_seats):
        obs = state.observation(s)
        line = Text(f"  {_pad(names[s], 8)} ")
        line.append_text(styled_cards(present.hand_order(game.name, obs.hand, trump, deal.variant)))
        out.append(line)
    result = deal.result()
    final = dict(deal.observation(0).info)
    final["bury"] = result.get("bury")
    for key in ("bury", "blind", "widow", "discards"):
        value = final.get(key)
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, str) and v in CARD_NAMES for v in value)
        ):
            line = Text(f"  {_pad(i18n.t(N + 'piles.' + key), 8)} ")
            line.append_text(styled_cards([CARD_NAMES.index(v) for v in value]))
            out.append(line)
    return out
