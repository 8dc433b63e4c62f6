"""The running commentary of a deal: who did what, who took each trick and for how much,
sweeps, trump changes, contracts — and at the end the score in words and numbers with
every hand shown open.

It reads only what the viewer may see: the viewer's observation before and after each
action (and, once the deal is over, the deal's record, when every card may be shown).
When the engine offers structured events (``events_for(viewer)``), those will replace the
comparisons of observations made here; nothing here parses the engine's English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from folkcards.cards import CARD_NAMES
from folkcards.engine.api import DealState, Observation
from folkcards.tui import present
from folkcards.tui.view import plays, styled_card, styled_text


def _v(who: str | None, verb: str) -> str:
    """``verb`` agreeing with ``who`` ('You play', 'Seat 1 plays')."""
    if who != "You":
        return verb
    if verb in ("is", "has"):
        return {"is": "are", "has": "have"}[verb]
    if verb.endswith(("sses", "shes", "ches")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def _poss(who: str | None) -> str:
    """'Your' or "Seat 1's"."""
    return "Your" if who == "You" else f"{who}'s"


def team_words(seat: int, viewer: int | None, partnership: bool, names: Sequence[str]) -> str:
    """'us' / 'them' for a team as the viewer sees it, else the team's seats."""
    if partnership and viewer is not None:
        return "us" if seat % 2 == viewer % 2 else "them"
    if partnership and len(names) == 4:
        return f"{names[seat % 2]} & {names[seat % 2 + 2]}"
    return names[seat]


def _pair(values: Any) -> list[int] | None:
    if isinstance(values, list) and all(isinstance(v, int) for v in values):
        return list(values)
    return None


def action_line(actor: int, text: str, names: Sequence[str]) -> Text:
    """``Seat 1: bid 70`` with the cards coloured."""
    line = Text(f"  {names[actor]}: ")
    line.append_text(styled_text(text))
    return line


def events(
    before: Observation,
    after: Observation,
    actor: int,
    text: str,
    names: Sequence[str],
    partnership: bool,
) -> list[Text]:
    """What the action changed that a person should be told, one line each."""
    out: list[Text] = []
    g = after.game
    viewer = after.seat if after.seat >= 0 else None
    b, a = before.info, after.info
    verb = text.split(" ")[0]
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
            why = (
                f" by marriage (+{pts} for {team_words(actor, viewer, partnership, names)})"
                if pts
                else " by marriage"
            )
            if tb is not None:
                why += f"; {present.suit_words(g, tb)} are a plain suit again"
        elif g == "satat" and verb == "blind":
            turned = a.get("turned")
            why = f" (the blind card {turned})" if isinstance(turned, str) else ""
        elif g == "sasku" and verb == "diamonds":
            why = f" — {who} said diamonds! and declares"
        out.append(Text(f"  Trump is {present.suit_words(g, ta)}{why}.", style="bold"))
    if verb == "contract":
        out.append(
            Text(f"  {who} {_v(who, 'sets')} the contract at {text.split(' ')[1]}.", style="bold")
        )
    if g == "sheepshead" and verb == "call":
        out.append(
            Text(
                f"  Whoever holds {text.split(' ')[1]} is {_poss(who).lower() if who == 'You' else _poss(who)} secret partner."
            )
        )
    if g == "sheepshead" and verb == "alone":
        out.append(Text(f"  {who} {_v(who, 'plays')} alone against the other four."))
    if (
        g == "sasku"
        and before.phase == "auction"
        and after.phase == "play"
        and a.get("passed_deal")
    ):
        out.append(
            Text(
                "  Everyone passed: diamonds are trump, no declarer (a passed deal).",
                style="bold",
            )
        )
    if g == "scopone" and verb == "play":
        sb, sa = _pair(b.get("sweeps")), _pair(a.get("sweeps"))
        if sb and sa and sa != sb:
            out.append(
                Text(
                    f"  Scopa! {who} {_v(who, 'sweeps')} the table: +1 point for {team_words(actor, viewer, True, names)}.",
                    style="bold green",
                )
            )
    if verb == "play" and g not in ("scopone",):
        trick = trick_done(before, after, names, partnership)
        if trick is not None:
            out.append(trick)
    return out


def trick_done(
    before: Observation, after: Observation, names: Sequence[str], partnership: bool
) -> Text | None:
    """'Trick 3: … → Seat 1 takes it (+21)' when the action completed a trick."""
    played = plays(after)
    n = after.num_seats
    if not played or len(played) % n:
        return None
    cards = played[-n:]
    number = len(played) // n
    winner = _winner(before, after, cards)
    line = Text(f"  Trick {number}: ", style="bold")
    for i, (s, c) in enumerate(cards):
        if i:
            line.append("  ")
        line.append(f"{names[s]} ")
        line.append_text(styled_card(c, bold=s == winner))
    if winner is None:
        return line
    viewer = after.seat if after.seat >= 0 else None
    line.append(f" → {names[winner]}", style="green")
    gained = _points_gained(before, after, winner)
    if gained is not None:
        line.append(f" +{gained}", style="green")
        if after.game == "huutopussi" and after.is_over:
            line.append(" (with the last-trick bonus)", style="green")
    if after.is_over:
        line.append(" · last trick", style="bold")
    del viewer
    return line


def _winner(before: Observation, after: Observation, cards: list[tuple[int, int]]) -> int | None:
    info = after.info
    if after.game == "sheepshead" and isinstance(info.get("last_trick"), Mapping):
        w = info["last_trick"].get("winner")
        if isinstance(w, int):
            return w
    if after.game == "satat" and isinstance(info.get("won"), list) and info["won"]:
        last = info["won"][-1]
        if isinstance(last, list) and len(last) == 3 and isinstance(last[2], int):
            return last[2]
    if not after.is_over and isinstance(info.get("leader"), int) and after.phase == "play":
        return int(info["leader"])
    return present.trick_winner(after.game, cards, present.trump_suit(before))


def _points_gained(before: Observation, after: Observation, winner: int) -> int | None:
    if after.game == "sheepshead":
        tb, ta = _pair(before.info.get("taken")), _pair(after.info.get("taken"))
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
                line.append(" · last trick", style="bold")
            out.append(line)
        elif kind == "trump" and isinstance(d.get("suit"), str):
            suit = present.suit_words(game, d["suit"])
            how = d.get("how")
            if how == "blind":
                text = f"{who} {_v(who, 'takes')} blind card {d.get('position')}: {d.get('card')} — {suit} are trump"
            elif how == "diamonds":
                text = f"{who} {_v(who, 'says')} diamonds! Diamonds are trump and {who} {_v(who, 'declares')}"
            elif how == "override":
                text = f"{who} {_v(who, 'overrides')} with diamonds: diamonds are trump and {who} {_v(who, 'declares')}"
            elif how in ("marriage", "declare"):
                side = (
                    team_words(int(seat), viewer, partnership, names)
                    if isinstance(seat, int)
                    else "?"
                )
                text = f"{_poss(who)} marriage makes {suit} trump (+{d.get('value')} for {side})"
            elif how == "hidden":
                text = f"{who} {_v(who, 'hides')} a trump card face down"
            else:
                text = f"{who} {_v(who, 'makes')} {suit} trump"
            out.append(Text(f"  {text}.", style="bold"))
        elif kind == "contract":
            out.append(_contract_event(d, game, names))
        elif kind == "partner" and isinstance(seat, int):
            out.append(
                Text(
                    f"  {who} {_v(who, 'plays')} {d.get('card')}: {who} {_v(who, 'is')} the picker's partner.",
                    style="bold",
                )
            )
        elif kind == "sweep":
            side = team_words(int(seat), viewer, True, names) if isinstance(seat, int) else "?"
            out.append(
                Text(
                    f"  Scopa! {who} {_v(who, 'sweeps')} the table: +1 point for {side}.",
                    style="bold green",
                )
            )
        elif kind == "leftover" and isinstance(d.get("cards"), list) and d["cards"]:
            out.append(
                Text(
                    f"  The cards left on the table go to {_poss(who)} side (last capture): "
                    + " ".join(d["cards"])
                )
            )
        elif kind == "pass_cards":
            src, to, count = d.get("from"), d.get("to"), d.get("count")
            giver = names[src] if isinstance(src, int) and 0 <= src < n else str(src)
            taker = names[to] if isinstance(to, int) and 0 <= to < n else str(to)
            cards = d.get("cards")
            what = (
                " ".join(cards)
                if isinstance(cards, list) and cards
                else f"{count} card{'s' if count != 1 else ''} face down"
            )
            if game == "sasku" or (game == "huutopussi" and count == 1):
                continue  # one line per card: the action line itself says it
            if src == "blind":
                out.append(
                    Text(f"  {taker} {_v(taker, 'picks')} up the blind: {what}.", style="dim")
                )
                continue
            if to in ("bury", "discard"):
                continue  # the action line says it
            out.append(Text(f"  {giver} → {taker}: {what}.", style="dim"))
    return [line for line in out if line.plain]


def _trick_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    n = len(names)
    leader, winner = d.get("leader"), d.get("winner")
    line = Text(f"  Trick {d.get('number')}: ", style="bold")
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
        line.append(f" → {names[winner]}", style="green")
    points, bonus = d.get("points"), d.get("bonus")
    if isinstance(points, int):
        total = points + (bonus if isinstance(bonus, int) else 0)
        line.append(f" +{total}", style="green")
        if isinstance(bonus, int) and bonus:
            line.append(f" ({bonus} for the last trick)", style="green")
    return line


def _contract_event(d: Mapping[str, Any], game: str, names: Sequence[str]) -> Text:
    n = len(names)
    dec = d.get("declarer")
    who = names[dec] if isinstance(dec, int) and 0 <= dec < n else None
    mode = d.get("mode")
    if game == "sheepshead":
        if mode == "leaster":
            return Text(
                "  Nobody picked: a leaster — fewest points (with a trick) wins.", style="bold"
            )
        if mode == "alone":
            return Text(f"  {who} {_v(who, 'plays')} alone against the other four.", style="bold")
        if mode == "called":
            return Text(
                f"  {who} {_v(who, 'calls')} {d.get('called')}: its holder is the secret partner.",
                style="bold",
            )
        return Text("")
    if game == "huutopussi":
        if isinstance(d.get("contract"), int):
            return Text(f"  {who} {_v(who, 'sets')} the contract at {d['contract']}.", style="bold")
        if isinstance(d.get("bid"), int):
            return Text(
                f"  {who} {_v(who, 'wins')} the bidding at {d['bid']} and {_v(who, 'declares')}.",
                style="bold",
            )
        return Text("")
    if game == "sasku" and who is not None:
        return Text("")  # the trump event has said who declares
    if game == "sasku":
        return Text(
            "  Everyone passed: diamonds are trump, no declarer (a passed deal).", style="bold"
        )
    return Text("")


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
            return f"{names[t]} & {names[t + 2]}"
        return names[t] if 0 <= t < len(names) else f"side {t}"

    score = _pair(r.get("score")) or []
    if game == "sasku":
        pts = _pair(r.get("points")) or [0, 0]
        d = r.get("declarer_team")
        trump = present.suit_words(game, str(r.get("trump"))) if r.get("trump") else "?"
        if r.get("redeal"):
            lines.append(
                "60–60: nobody scores; the same dealer deals again with the same trump (SAS-13.2)."
            )
        elif r.get("lambapea"):
            t = int(r.get("won_by") or 0)
            lines.append(f"Lambapea! {side(t)} won all 9 tricks: +{score[t]} strokes (SAS-13.1).")
        elif r.get("passed"):
            t = int(r.get("won_by") or 0)
            lines.append(
                f"Passed deal (diamonds, no declarer): {side(t)} took {pts[t]} > 60 card points: "
                f"+1 stroke (SAS-13.3)."
            )
        elif isinstance(d, int):
            pd = pts[d]
            won = r.get("won_by")
            cmp = "≥" if pd >= 61 else "<"
            bid = f", bid {r['bid']}" if r.get("bid") else ""
            lines.append(
                f"Declarers {side(d)} (trump {trump}{bid}) took {pd} card points {cmp} 61 "
                f"needed; defenders {pts[1 - d]}."
            )
            col = "diamond" if r.get("trump") == "D" else "plain-suit"
            if isinstance(won, int):
                lines.append(
                    f"{side(won)} score {score[won]} strokes ({col} column of SAS-13.4: "
                    f"{_sasku_band(pd)})."
                )
    elif game == "scopone":
        rows: list[tuple[str, str, int | None]] = []
        cards, coins, prim, sweeps = (
            _pair(r.get(k)) or [0, 0] for k in ("cards", "coins", "primiera", "sweeps")
        )
        mine = viewer % 2 if viewer is not None else 0
        other = 1 - mine

        def vs(values: list[int]) -> str:
            return f"{values[mine]}–{values[other]}"

        rows.append(("cards (over 20)", vs(cards), _best(cards, 20)))
        rows.append(("coins (over 5)", vs(coins), _best(coins, 5)))
        sb = r.get("settebello")
        holder = int(sb) if isinstance(sb, int) else None
        rows.append(
            ("settebello 7D", "taken by " + side(holder) if holder is not None else "—", holder)
        )
        rows.append(("primiera", vs(prim), _best(prim, None)))
        if "re_bello" in r:
            rb = r.get("re_bello")
            rb_holder = int(rb) if isinstance(rb, int) else None
            rows.append(
                (
                    "re bello KD",
                    "taken by " + side(rb_holder) if rb_holder is not None else "—",
                    rb_holder,
                )
            )
        lines.append(f"Counts are {side(mine)} – {side(other)}:")
        for label, value, to in rows:
            gets = f"1 point to {side(to)}" if isinstance(to, int) else "no point (a tie)"
            lines.append(f"{label:<16} {value:<14} {gets}")
        lines.append(f"{'scopas':<16} {vs(sweeps):<14} 1 point each")
        if "napola" in r:
            nap = _pair(r.get("napola")) or [0, 0]
            lines.append(f"{'napola':<16} {vs(nap)}")
    elif game == "sheepshead":
        mode = r.get("mode")
        if mode == "doubler":
            lines.append(
                f"Everyone passed: a doubler — the next deal is played for {2 * int(r.get('stake') or 1)}× stakes."
            )
        elif mode == "leaster":
            w = r.get("leaster_winners") or []
            lines.append(
                "Leaster (nobody picked): fewest points with at least one trick wins — "
                + ", ".join(names[s] for s in w if isinstance(s, int))
                + "."
            )
        else:
            picker = r.get("picker")
            p = r.get("picker_points")
            side_txt = names[picker] if isinstance(picker, int) else "?"
            if mode == "called" and isinstance(r.get("partner"), int):
                side_txt += f" & {names[r['partner']]} (called {r.get('called')})"
            elif mode == "alone":
                side_txt += " alone"
            cmp = "≥" if isinstance(p, int) and p >= 61 else "<"
            lv = _int_or(r.get("level"), 1)
            top = " — all tricks" if r.get("won_by") == "picker" else " — no trick"
            level = {2: " — schneider", 3: top}.get(lv, "")
            lines.append(
                f"Picker side {side_txt} took {p} points {cmp} 61 needed (bury included): "
                f"{'picker side' if r.get('won_by') == 'picker' else 'defenders'} win{level}."
            )
    elif game == "satat":
        tr = _pair(r.get("tricks")) or [0, 0]
        won = r.get("won_by")
        if r.get("outcome") == "redeal":
            why = {
                "no_pictures": "no picture in the trump maker's first five",
                "no_trumps": "the partner held no trump",
            }.get(str(r.get("redeal")), "")
            lines.append(f"Redeal ({why}): nobody scores; the same dealer deals again.")
        elif isinstance(won, int):
            lines.append(
                f"{side(won)} won the deal {tr[won]}–{tr[1 - won]} in tricks (7 needed): +1 deal ({r.get('outcome')})."
            )
    elif game == "huutopussi":
        if r.get("redeal"):
            lines.append(
                f"{names[r['redeal_by']] if isinstance(r.get('redeal_by'), int) else '?'} asked for a redeal: no score."
            )
        else:
            d = r.get("declarer")
            pts = _pair(r.get("points")) or []
            mar = _pair(r.get("marriages")) or []
            contract = r.get("contract")
            n = len(pts)
            for t in range(n):
                total = pts[t] + (mar[t] if t < len(mar) else 0)
                mine = isinstance(d, int) and (d % n == t if n == 2 else d == t)
                role = "declarers" if mine else "opponents"
                text = (
                    f"{role.capitalize()} {side(t)}: {pts[t]} card points + "
                    f"{mar[t] if t < len(mar) else 0} marriages = {total}"
                )
                if mine and isinstance(contract, int):
                    text += f" {'≥' if total >= contract else '<'} contract {contract}"
                lines.append(f"{text}: {score[t]:+d}.")
    out = [Text(line) for line in lines]
    if score:
        summary = Text("This deal: ", style="bold")
        summary.append(" · ".join(f"{side(t)} {v:+d}" for t, v in enumerate(score)))
        out.append(summary)
    return out


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _sasku_band(pd: int) -> str:
    if pd >= 91:
        return "declarers 91+"
    if pd >= 61:
        return "declarers 61–90"
    if pd >= 30:
        return "declarers 30–59"
    return "declarers under 30"


def _best(values: list[int], half: int | None) -> int | None:
    if len(values) != 2 or values[0] == values[1]:
        return None
    return 0 if values[0] > values[1] else 1


def open_hands(deal: DealState, names: Sequence[str]) -> list[Text]:
    """Every seat's cards as they held them when the card play began (the deal is over,
    so nothing is hidden any more), plus the game's hidden piles."""
    game = deal.game
    state = game.deal_from_record(deal.record(), deal.variant)
    for text in deal.record()["actions"]:
        if text.split(" ")[0] == "play":
            break
        state.apply(text)
    out = [Text("Hands at the first card, now shown open:", style="bold")]
    trump = None
    for s in range(state.num_seats):
        obs = state.observation(s)
        trump = trump or present.trump_suit(obs)
    for s in range(state.num_seats):
        obs = state.observation(s)
        line = Text(f"  {names[s]:<8} ")
        order = present.hand_order(game.name, obs.hand, trump, deal.variant)
        for i, c in enumerate(order):
            if i:
                line.append(" ")
            line.append_text(styled_card(c))
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
            line = Text(f"  {key:<8} ")
            line.append_text(styled_text(" ".join(value)))
            out.append(line)
    return out
