// The live table (and the replay viewer's board): seats around a felt, the trick or the
// Scopone table in the middle, the player's hand and the controls for the legal actions.
// Everything is reachable by keyboard (the hand is one tab stop with arrow keys inside it;
// shortcuts in keys.js), every card has a name in words, and what happens is said in the
// page's live regions (ui.js).
import { t, tMaybe, num, cardName, has } from "./i18n.js";
import { cardSVG, backSVG } from "./cards.js";
import {
  look, isCard, actionLabel, actionText, esc, seatName, tricksFromHistory, factRows, valueHTML,
  sideNames, tally, sortHand, lastTrickWinner, cardPoints,
  setContext, renderExplanation, renderTask, ruleLinks, narrateEvent, breakdownHTML, guideSections, sectionOf, reasonWords,
} from "./present.js";
import { announce, toast as showToast, openDialog, sound, setting, setSetting } from "./ui.js";
import { resultField, phaseHelp, rulesHTML } from "./guide.js";

// narration's own looks (the event lines of the move log, rule links, the breakdown)
const NARRATION_CSS = `
.log li.ev { list-style: none; margin-inline-start: -1.2rem; font-size: .84rem; color: #cfe3d6; font-style: italic; }
.log li.ev-trick, .log li.ev-scopa { color: #f2c94c; font-style: normal; font-weight: 600; }
.log .log-head { display: flex; align-items: center; justify-content: space-between; gap: .5rem; }
.log .narr-toggle { font-size: .8rem; font-weight: 400; display: inline-flex; gap: .3rem; align-items: center; }
.rule-link { color: inherit; text-decoration: underline; text-underline-offset: 2px; cursor: pointer; }
.toast .rule-link { color: #5a3d00; font-weight: 600; }
.deal-breakdown { margin: .3rem 0 .6rem; }
.deal-breakdown summary { cursor: pointer; font-weight: 700; }
.deal-breakdown .bd-reason { margin: .3rem 0; }
.deal-breakdown tr.bd-from th, .deal-breakdown tr.bd-from td { font-size: .8rem; opacity: .85; }
.felt-note.contract, .felt-note.pass, .felt-note.partner { font-size: .85rem; white-space: normal; max-width: 90%; text-align: center; }
.guide-page .rule-target { outline: 3px solid var(--accent, #f2c94c); outline-offset: 3px; }
`;

function ensureStyle() {
  if (document.getElementById("fc-narration-css")) return;
  const el = document.createElement("style");
  el.id = "fc-narration-css";
  el.textContent = NARRATION_CSS;
  document.head.appendChild(el);
}

// the rules of `game` opened at the guide's section of `rule` (a rule link's click)
export async function openRule(game, rule) {
  const body = await rulesHTML(game, null);
  const d = openDialog({
    title: esc(t("ui.rules_of", { game: t(`games.${game}`) })),
    body: `${body}<p><button type="button" class="btn ok">${esc(t("ui.close"))}</button></p>`,
    wide: true,
    bind: (dlg) => dlg.querySelector(".ok").addEventListener("click", () => dlg.close()),
  });
  const sec = sectionOf(await guideSections(game), rule);
  const h = sec ? d.querySelector(`#${CSS.escape(sec.id)}`) : null;
  if (h) {
    h.classList.add("rule-target");
    h.scrollIntoView({ block: "start" });
    h.focus({ preventScroll: true });
  }
  return h;
}

document.addEventListener("click", (e) => {
  const a = e.target && e.target.closest ? e.target.closest(".rule-link") : null;
  if (!a) return;
  e.preventDefault();
  const game = a.dataset.game || (lastGame || "");
  if (game) openRule(game, a.dataset.rule);
});
let lastGame = null;

// where a deal stands, for what belongs to one position (a hint): the deal and its steps
export function positionOf(st) {
  return st && st.obs ? { at: st.obs.history.length, deal: st.deal_no } : null;
}

// whether ``p`` (a positionOf) is where the table state ``st`` stands now
export function samePosition(p, st) {
  const q = positionOf(st);
  return Boolean(p && q && p.at === q.at && p.deal === q.deal);
}

// is narration on (the move log's switch; on unless the player turned it off)
export function narrationOn() {
  return setting("narration", true);
}

const BOT_ICON = `<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false"><rect x="3" y="6" width="14" height="11" rx="3" fill="#10231a"/><circle cx="7.5" cy="11" r="1.8" fill="#f2c94c"/><circle cx="12.5" cy="11" r="1.8" fill="#f2c94c"/><path d="M10 6V2.5" stroke="#10231a" stroke-width="1.6"/><circle cx="10" cy="2.3" r="1.4" fill="#10231a"/></svg>`;

export { sortHand };

// Where each seat sits on screen, seen from `me` (bottom): the next seat in the game's
// direction of play sits to the left in clockwise games, to the right otherwise.
export function positions(n, me, clockwise) {
  const layouts = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "topleft", "topright", "right"] };
  const mirror = { left: "right", right: "left", topleft: "topright", topright: "topleft", top: "top", bottom: "bottom" };
  const lay = layouts[n] || layouts[4];
  const out = [];
  for (let s = 0; s < n; s++) {
    const r = (s - me + n) % n;
    out[s] = clockwise ? lay[r] : mirror[lay[r]];
  }
  return out;
}

// a card face that is only looked at (trick, table, open hands): a picture named in words
function cardEl(text, deck, cls = "", extra = "") {
  const name = cardName(text, deck);
  return `<div class="card ${cls}" data-card="${text}" role="img" aria-label="${esc(name + extra)}" title="${esc(name)}">${cardSVG(text, deck)}</div>`;
}

function backs(n, deck) {
  const shown = Math.min(n, 13);
  let h = "";
  for (let i = 0; i < shown; i++) h += `<div class="back">${backSVG(deck)}</div>`;
  return `<div class="backs" aria-hidden="true" style="--n:${shown}">${h}</div>`;
}

// Legal actions split into: per hand card, multi-card selections, and other buttons.
export function classifyLegal(legal, hand) {
  const handSet = new Set(hand);
  const byCard = new Map();
  const multi = [];
  const others = [];
  for (const a of legal) {
    const toks = a.split(" ");
    const handCards = toks.slice(1).filter((x) => isCard(x) && handSet.has(x));
    if (handCards.length >= 2 && toks.slice(1).every((x) => !isCard(x) || handSet.has(x))) {
      multi.push({ action: a, cards: handCards.sort() });
    } else if (toks.length >= 2 && isCard(toks[1]) && handSet.has(toks[1])) {
      if (!byCard.has(toks[1])) byCard.set(toks[1], []);
      byCard.get(toks[1]).push(a);
    } else {
      others.push(a);
    }
  }
  const verbs = new Set([...byCard.values()].flat().map((a) => a.split(" ")[0]));
  return { byCard, multi, others, handVerb: verbs.size ? [...verbs][0] : null };
}

function groupOthers(others) {
  const groups = new Map();
  for (const a of others) {
    const toks = a.split(" ");
    const key = toks.map((x, i) => (i === 0 ? x : isCard(x) ? "#c" : /^\d+$/.test(x) ? "#n" : x)).join(" ");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  return [...groups.values()];
}

// the cards this seat received from another this deal, as the public facts say: `received`
// (Satat), the cards `given` to the declarer and `returned` to the declarer's partner
// (Huutopussi), the `blind` the picker takes up while burying (Sheepshead)
function receivedCards(obs) {
  const info = obs.info || {};
  const me = obs.seat;
  if (Array.isArray(info.received) && info.received.length) return info.received;
  if (me !== null && me !== undefined) {
    if (info.declarer === me && Array.isArray(info.given)) return info.given;
    if (typeof info.declarer === "number" && (info.declarer + 2) % 4 === me && Array.isArray(info.returned)) return info.returned;
  }
  if (info.picker === me && Array.isArray(info.blind) && obs.phase === "bury") return info.blind;
  return [];
}

// how many of a phase's cards this seat has already given (for "1 of 3")
function stepsDone(obs, verb) {
  let k = 0;
  obs.history.forEach((a, i) => { if (obs.actors[i] === obs.seat && a.split(" ")[0] === verb) k += 1; });
  return k;
}

export class TableView {
  constructor(root, opts) {
    this.root = root;
    this.opts = opts; // {onAct, onExplain, onTakeSeat, loadHands, replay}
    this.prev = null;
    this.selected = new Set();
    this.note = null; // the last narrated event on the felt: {text, cls, until}
    this.hands = null; // every hand of the finished deal, once loaded: {deal, hands}
  }

  // model: {game, state (server "state" message shape), handsOpen: [cards per seat] | null, replay}
  render(model) {
    const { game } = model;
    const st = model.state;
    const obs = st.obs;
    ensureStyle();
    setContext(game, st);
    lastGame = game;
    const L = look(game);
    const deck = L.deck;
    const n = st.table.num_seats;
    const me = st.you ?? 0;
    const pos = positions(n, me, L.clockwise);
    const oldRects = this.captureRects();
    const focus = this.captureFocus();

    const myTurn = !!(obs && st.you !== null && st.you !== undefined && obs.to_act === st.you && obs.legal.length > 0 && !model.replay);
    const hand = obs ? sortHand(obs.hand, game, obs.info) : [];
    const cls = myTurn ? classifyLegal(obs.legal, obs.hand) : { byCard: new Map(), multi: [], others: [], handVerb: null };
    for (const c of [...this.selected]) if (!hand.includes(c) || !myTurn) this.selected.delete(c);
    this.cls = cls;
    this.model = model;

    const trickInfo = obs && !L.fishing ? tricksFromHistory(obs.history, obs.actors, n, obs) : null;
    let centerCards = []; // [{card, seat}]
    let trickDone = null;
    if (trickInfo) {
      if (trickInfo.current.length) centerCards = trickInfo.current;
      else if (trickInfo.done.length) {
        trickDone = trickInfo.done[trickInfo.done.length - 1];
        centerCards = trickDone;
      }
    }
    const events = this.narrate(model, trickInfo, myTurn);
    const handSizes = obs ? handSizesOf(obs, n) : null;

    // seats
    let seatsHTML = "";
    for (let s = 0; s < n; s++) {
      const seat = st.seats[s];
      const isMe = s === st.you;
      const toAct = obs && obs.to_act === s && !obs.result;
      const status = [];
      const words = [];
      if (seat.kind === "bot" && seat.level) { status.push(`<span class="chip level" aria-hidden="true">${esc(t(`ui.level_${seat.level}`).split(" (")[0])}</span>`); words.push(t(`ui.level_${seat.level}`)); }
      if (obs && obs.dealer === s) { status.push(`<span class="chip dealer" aria-hidden="true" title="${esc(t("ui.dealer"))}">${esc(t("ui.dealer_short"))}</span>`); words.push(t("ui.dealer")); }
      if (seat.auto && seat.kind === "human") status.push(`<span class="chip auto">${esc(t("ui.bot_playing"))}</span>`);
      else if (!seat.connected && seat.kind === "human" && !seat.open) status.push(`<span class="chip away">${esc(t("ui.away"))}</span>`);
      if (st.clock && st.clock.seat === s) status.push(`<span class="chip clock" data-deadline="${Date.now() + st.clock.remaining * 1000}">${num(Math.ceil(st.clock.remaining))}</span>`);
      if (toAct) words.push(t("ui.to_act"));
      if (handSizes && !isMe) words.push(t("ui.cards_n", { n: handSizes[s] }));
      const teamCls = (n === 4 || L.fishing) ? `team${s % 2}` : "";
      let cardsHTML = "";
      if (model.handsOpen && !isMe) {
        cardsHTML = `<div class="open-hand">${sortHand(model.handsOpen[s], game, obs && obs.info).map((c) => cardEl(c, deck, "mini")).join("")}</div>`;
      } else if (!isMe && handSizes) {
        cardsHTML = backs(handSizes[s], deck);
      }
      const name = seat.open ? t("ui.seat", { n: s + 1 }) : seatName(st, s);
      const take = seat.open && (st.you === null || st.you === undefined) && this.opts.onTakeSeat
        ? `<button type="button" class="btn small take" data-seat="${s}">${esc(t("ui.take_seat", { n: s + 1 }))}</button>` : "";
      seatsHTML += `<div class="seat pos-${pos[s]} ${teamCls} ${toAct ? "to-act" : ""} ${isMe ? "me" : ""}" data-seat="${s}">
        <div class="seat-label"><span class="avatar" aria-hidden="true">${seat.kind === "bot" ? BOT_ICON : esc((name || "?").slice(0, 1).toUpperCase())}</span>
        <span class="seat-name"><bdi>${esc(name)}</bdi>${isMe && !model.replay ? ` <small>(${esc(t("ui.you"))})</small>` : ""}</span>${status.join("")}${words.length ? `<span class="sr">, ${esc(words.join(", "))}</span>` : ""}</div>
        ${cardsHTML}${take}</div>`;
    }

    // centre
    let centerHTML = "";
    if (L.fishing && obs) {
      const tableCards = obs.info.table || [];
      centerHTML = `<div class="fish-table" role="group" aria-label="${esc(t("ui.table_cards"))}">${tableCards.map((c) => cardEl(c, deck, "on-table")).join("") || `<div class="empty-table">${esc(t("ui.table_empty"))}</div>`}</div>`;
      const piles = obs.info.piles || [[], []];
      const sweeps = obs.info.sweeps || [0, 0];
      centerHTML += `<div class="fish-piles">${piles.map((p, i) => `<div class="pile team${i}"><b>${esc(t("ui.team", { n: i + 1 }))}</b> ${esc(t("ui.cards_n", { n: p.length }))}${sweeps[i] ? ` · ${esc(t("facts.sweeps"))} ${num(sweeps[i])}` : ""}</div>`).join("")}</div>`;
    } else if (obs) {
      centerHTML = `<div class="trick ${trickDone ? "done" : ""}" role="group" aria-label="${esc(t("ui.trick"))}">${centerCards.map((p) => cardEl(p.card, deck, `slot slot-${pos[p.seat]}`, ` — ${seatName(st, p.seat)}`)).join("")}</div>`;
      if (trickDone && trickDone.winner !== null && trickDone.winner !== undefined && !obs.result && narrationOn()) {
        const pts = this.trickPoints(trickDone);
        centerHTML += `<div class="trick-note" dir="${document.documentElement.dir}">${esc(t("ui.won_trick", { name: seatName(st, trickDone.winner) }))}${pts !== null ? ` · ${esc(t("ui.plus_points", { n: pts }))}` : ""}</div>`;
      }
    }
    if (this.note && obs && !obs.result && obs.history.length < this.note.until && narrationOn()) {
      centerHTML += `<div class="felt-note ${this.note.cls}" aria-hidden="true">${esc(this.note.text)}</div>`;
    }
    if (obs && obs.result && !model.replay) centerHTML += this.resultBanner(obs.result, st, game);
    const phase = obs ? (obs.result ? t("ui.deal_over") : t(`phases.${obs.phase}`)) : "";

    const prompt = this.promptText(obs, st, game, myTurn, cls);
    const controls = myTurn ? this.controlsHTML(cls, game) : "";

    // hand: one tab stop (roving tabindex), arrow keys move inside it
    const received = obs ? new Set(receivedCards(obs)) : new Set();
    const legalOf = (c) => cls.byCard.has(c) || cls.multi.some((m) => m.cards.includes(c));
    const playable = myTurn && (cls.byCard.size || cls.multi.length);
    const rover = (playable && hand.find(legalOf)) || hand[0];
    const handHTML = hand.map((c) => {
      let k = "";
      const bits = [];
      if (playable) {
        k = legalOf(c) ? "legal" : "illegal";
        if (!legalOf(c)) bits.push(t("ui.not_playable"));
      }
      if (this.selected.has(c)) k += " selected";
      if (received.has(c)) { k += " received"; bits.push(t("ui.received")); }
      const label = cardName(c, deck) + (bits.length ? `, ${bits.join(", ")}` : "");
      const pressed = cls.multi.length && legalOf(c) ? ` aria-pressed="${this.selected.has(c)}"` : "";
      // the name is the button's own (hidden) text, so that it is the card in words
      return `<button type="button" class="card in-hand ${k}" data-card="${c}" title="${esc(cardName(c, deck))}" tabindex="${c === rover ? 0 : -1}"${pressed}>${cardSVG(c, deck)}<span class="sr card-name">${esc(label)}</span>${received.has(c) ? `<span class="recv-mark" aria-hidden="true">↓</span>` : ""}</button>`;
    }).join("");

    const facts = obs ? factRows(obs, st, game) : [];
    const seatLink = st.you === null || st.you === undefined ? `<div class="notice">${esc(t("ui.spectating"))}</div>` : "";

    this.root.innerHTML = `
      <div class="board">
        <div class="felt n${n}${L.fishing ? " fishing" : ""}" dir="ltr" role="region" aria-label="${esc(t("ui.the_table"))}">
          ${seatsHTML}
          <div class="center">${centerHTML}</div>
          <div class="phase-tag" dir="auto">${esc(phase)}</div>
        </div>
        <div class="prompt ${myTurn ? "mine" : ""}" id="prompt">${esc(prompt)}</div>
        <div class="controls" role="group" aria-label="${esc(t("ui.decision"))}">${controls}</div>
        ${this.hintBeside() ? "" : this.hintHTML(obs, st, myTurn)}
        <div class="hand ${myTurn ? "my-turn" : ""}" dir="ltr" role="group" aria-label="${esc(t("ui.your_hand_n", { n: hand.length }))}" aria-describedby="prompt" style="--n:${hand.length || 1}">${handHTML}</div>
        ${seatLink}
      </div>
      <aside class="side" aria-label="${esc(t("ui.side_panel"))}">
        ${this.hintBeside() ? this.hintHTML(obs, st, myTurn) : ""}
        ${facts.length ? `<section class="facts" aria-label="${esc(t("ui.facts"))}"><dl>${facts.map(([k, v, key]) => `<dt>${esc(k)}</dt><dd data-fact="${key}">${v}</dd>`).join("")}</dl></section>` : ""}
        ${this.scoresHTML(st, game)}
        ${obs && obs.result ? this.resultHTML(obs.result, st, game, deck) : ""}
        ${this.logHTML(obs, st, game)}
      </aside>`;
    this.bind();
    this.fitHand();
    this.restoreFocus(focus, myTurn);
    this.animate(oldRects, st, pos);
    this.prev = { obs, pos, myTurn, deal: st.deal_no, events: Array.isArray(st.events) ? (st.events_from || 0) + st.events.length : 0 };
    const log = this.root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
    for (const e of events) announce(e);
    if (obs && obs.result && !model.replay) this.showHands(st, game);
  }

  // ---------------------------------------------------------------- narration
  // Points the winner's side took with a finished trick: the change in the game's public
  // points since the last frame (narrate), else the trick's card points where the game's
  // card values are fixed (after a reload); null when neither is known.
  trickPoints(trick) {
    if (!trick || !trick.length) return null;
    // the engine's structured events, when the server sends them: {kind: "trick", points, bonus}
    const evs = Array.isArray(this.model.state.events) ? this.model.state.events.filter((e) => e.kind === "trick") : [];
    const ev = evs.find((e) => Array.isArray(e.cards) && e.cards.includes(trick[0].card));
    if (ev && typeof ev.points === "number") return ev.points + (typeof ev.bonus === "number" ? ev.bonus : 0);
    if (this.trickGain && this.trickGain.index === trick[0].index) return this.trickGain.n;
    const L = look(this.model.game);
    return L.cardPoints ? cardPoints(trick.map((p) => p.card), this.model.game) : null;
  }

  // What changed since the last frame, in words for the live region (and the felt note).
  narrate(model, trickInfo, myTurn) {
    const st = model.state;
    const obs = st.obs;
    const game = model.game;
    const out = [];
    const prev = this.prev && this.prev.obs;
    if (!obs) return out;
    const sameDeal = prev && this.prev.deal === st.deal_no && prev.history.length <= obs.history.length;
    if (!sameDeal) {
      this.note = null;
      this.trickGain = null;
      if (prev || model.replay) return out; // a new deal or a jump: the prompt says the rest
      if (myTurn) out.push(this.promptText(obs, st, game, true, this.cls));
      return out;
    }
    if (Array.isArray(st.events)) return this.narrateEvents(model, myTurn);
    const fresh = obs.history.slice(prev.history.length);
    const freshActors = obs.actors.slice(prev.history.length);
    fresh.slice(-5).forEach((a, i) => {
      const who = freshActors[freshActors.length - Math.min(5, fresh.length) + i];
      out.push(`${seatName(st, who)}: ${actionText(a, game)}`);
    });
    if (fresh.length) sound("play");
    const info = obs.info || {};
    const pinfo = prev.info || {};
    if (trickInfo) {
      const before = tricksFromHistory(prev.history, prev.actors, st.table.num_seats, prev).done.length;
      if (trickInfo.done.length > before) {
        const tr = trickInfo.done[trickInfo.done.length - 1];
        const w = tr.winner !== null && tr.winner !== undefined ? tr.winner : lastTrickWinner(obs);
        const key = look(game).points;
        if (key && Array.isArray(info[key]) && Array.isArray(pinfo[key]) && info[key].length === pinfo[key].length) {
          this.trickGain = { index: tr[0].index, n: info[key].reduce((s, x, i) => s + Math.max(0, x - pinfo[key][i]), 0) };
        }
        if (w !== null && w !== undefined) {
          const pts = this.trickPoints(tr);
          out.push(t("ui.won_trick", { name: seatName(st, w) }) + (pts !== null ? `, ${t("ui.plus_points", { n: pts })}` : ""));
          sound("trick");
        }
      }
    }
    const sweeps = (x) => (Array.isArray(x.sweeps) ? x.sweeps.reduce((a, b) => a + b, 0) : 0);
    if (sweeps(info) > sweeps(pinfo)) {
      const team = info.sweeps.findIndex((v, i) => v > (pinfo.sweeps || [])[i]);
      const text = `${t("ui.scopa")} ${t("ui.team", { n: team + 1 })}`;
      out.push(text);
      this.note = { text: t("ui.scopa"), cls: "scopa", until: obs.history.length + 2 };
      sound("sweep");
    }
    if (info.trump && info.trump !== pinfo.trump && /^[CSHD]$/.test(info.trump)) {
      const deck = look(game).deck;
      const text = t("ui.trump_is", { suit: t(deck === "italian" ? `suits_italian.${info.trump}` : `suits.${info.trump}`) });
      out.push(text);
      this.note = { text, cls: "trump", until: obs.history.length + st.table.num_seats };
    }
    if (obs.result && !prev.result) {
      out.push(this.resultWords(obs.result, st));
      sound("end");
    } else if (myTurn && !this.prev.myTurn) {
      out.push(this.promptText(obs, st, game, true, this.cls));
      sound("turn");
    }
    return out;
  }

  // The new events of this viewer since the last frame, in words (from the server's
  // `events`: what the engine says this viewer may know): the moves as the move log says
  // them, then tricks with their points, sweeps, trumps, contracts, cards passed, bids.
  narrateEvents(model, myTurn) {
    const st = model.state;
    const obs = st.obs;
    const game = model.game;
    const out = [];
    const prevCount = this.prev && this.prev.events ? this.prev.events : 0;
    const total = (st.events_from || 0) + st.events.length;
    const fresh = st.events.slice(Math.max(0, prevCount - (st.events_from || 0)));
    if (fresh.length === 0 || total < prevCount) return out;
    const me = st.you;
    const on = narrationOn();
    fresh.slice(-8).forEach((e) => {
      if (e.kind === "play") {
        out.push(`${seatName(st, e.seat)}: ${actionText(`play ${e.card}`, game)}`);
        return;
      }
      if (e.kind === "deal" || e.kind === "deal_end") return;
      const said = narrateEvent(e, st, game, me);
      if (!said) return;
      if (on) out.push(said.text);
      if (said.sound) sound(said.sound);
      if (on && said.note && e.kind !== "trick") this.note = { text: said.note, cls: said.cls, until: obs.history.length + st.table.num_seats };
    });
    if (fresh.some((e) => e.kind === "play")) sound("play");
    if (obs.result && !(this.prev.obs && this.prev.obs.result)) {
      out.push(this.resultWords(obs.result, st));
      const end = st.events.find((e) => e.kind === "deal_end");
      if (on && end && end.reason) out.push(`${t("narrate.why")}: ${reasonWords(end.reason, (end.score || []).length)}`);
      sound("end");
    } else if (myTurn && !this.prev.myTurn) {
      out.push(this.promptText(obs, st, game, true, this.cls));
      sound("turn");
    }
    return out;
  }

  promptText(obs, st, game, myTurn, cls) {
    if (!obs) return st.table.status === "open" ? t("ui.waiting_players") : "";
    if (obs.result) return t("ui.deal_over");
    if (myTurn) {
      // the engine's task for this seat, said once (obs.task); else the phase's prompt
      const said = obs.task ? renderTask(obs.task, st, look(game).deck) : null;
      if (said) return `${t("ui.your_turn")}: ${said}`;
      const verb = (obs.legal[0] || "").split(" ")[0];
      const total = look(game).phaseCards[obs.phase];
      const params = { n: total || (cls.multi[0] ? cls.multi[0].cards.length : 1), k: Math.min(total || 1, stepsDone(obs, verb) + 1) };
      const key = [`prompts.${game}.${obs.phase}`, `prompts.${obs.phase}`].find((k) => has(k));
      const what = key ? t(key, params) : t(`phases.${obs.phase}`);
      return `${t("ui.your_turn")}: ${what}`;
    }
    if (obs.to_act !== null && this.model && this.model.replay) {
      // a replay waits for nobody: say whose step comes next and what it is
      return `${seatName(st, obs.to_act)}: ${t(`phases.${obs.phase}`)}`;
    }
    if (obs.to_act !== null && obs.to_act === st.you) return t("ui.waiting_players");
    if (obs.to_act !== null) {
      const s = st.seats[obs.to_act];
      return s.kind === "bot" || s.auto ? t("ui.thinking", { name: seatName(st, obs.to_act) }) : t("ui.waiting_for", { name: seatName(st, obs.to_act) });
    }
    return "";
  }

  // the deal's score as one sentence: "Deal over. Team 1 +6, Team 2 0."
  resultWords(res, st) {
    const score = res.score || [];
    const names = sideNames(st, score.length);
    return `${t("ui.deal_over")}${t("ui.stop")} ${score.map((x, i) => `${names[i].label} ${x > 0 ? "+" : ""}${num(x)}`).join(t("ui.sep"))}${t("ui.stop")}`;
  }

  // A one-line summary of the table for the "t" key: the trick (or table), whose turn.
  describeTable() {
    const m = this.model;
    if (!m || !m.state.obs) return "";
    const st = m.state;
    const obs = st.obs;
    const L = look(m.game);
    const parts = [];
    if (L.fishing) {
      const cards = (obs.info.table || []).map((c) => cardName(c, L.deck));
      parts.push(`${t("ui.table_cards")}: ${cards.length ? cards.join(", ") : t("ui.table_empty")}`);
    } else {
      const info = tricksFromHistory(obs.history, obs.actors, st.table.num_seats, obs);
      const cur = info.current.length ? info.current : [];
      parts.push(`${t("ui.trick")}: ${cur.length ? cur.map((p) => `${seatName(st, p.seat)} ${cardName(p.card, L.deck)}`).join(", ") : t("ui.trick_empty")}`);
    }
    if (obs.info && obs.info.trump && /^[CSHD]$/.test(obs.info.trump)) parts.push(t("ui.trump_is", { suit: t(L.deck === "italian" ? `suits_italian.${obs.info.trump}` : `suits.${obs.info.trump}`) }));
    parts.push(this.root.querySelector(".prompt") ? this.root.querySelector(".prompt").textContent : "");
    return parts.filter(Boolean).join(". ");
  }

  // ---------------------------------------------------------------- focus
  captureFocus() {
    const f = document.activeElement;
    if (!f || !this.root.contains(f)) return null;
    const hand = [...this.root.querySelectorAll(".hand .card")];
    return { card: f.dataset.card, action: f.dataset.action, id: f.id, inHand: hand.includes(f), index: hand.indexOf(f), inControls: !!f.closest(".controls") };
  }

  // after a re-render, focus goes back to the same card or button, or to its neighbour
  restoreFocus(f, myTurn) {
    if (!f) return;
    const r = this.root;
    let el = null;
    if (f.card) el = r.querySelector(`.hand .card[data-card="${f.card}"]`);
    if (!el && f.action) el = r.querySelector(`.controls [data-action="${CSS.escape(f.action)}"]`);
    if (!el && f.id) el = r.querySelector(`#${CSS.escape(f.id)}`);
    if (!el && (f.inHand || f.inControls)) {
      if (myTurn) el = r.querySelector(".hand .card.legal") || r.querySelector(".controls .act, .controls select");
      if (!el && f.inHand) {
        const cards = r.querySelectorAll(".hand .card");
        el = cards[Math.min(f.index, cards.length - 1)] || null;
      }
      if (!el) el = r.querySelector(".controls .act") || r.querySelector(".hand .card");
    }
    if (el) {
      if (el.closest(".hand")) this.rove(el);
      el.focus({ preventScroll: true });
    }
  }

  rove(el) {
    this.root.querySelectorAll(".hand .card").forEach((c) => { c.tabIndex = c === el ? 0 : -1; });
  }

  // focus the hand (the hinted card if this turn has a hint, else the first playable card):
  // the "c" key, so that "h", "c", Enter plays the hint
  focusHand() {
    const h = this.hint;
    let hinted = null;
    if (h && samePosition(h, this.model && this.model.state)) {
      const card = String(h.data.choice || "").split(" ")[1];
      if (card && isCard(card)) hinted = this.root.querySelector(`.hand .card.legal[data-card="${card}"]`);
    }
    const el = hinted || this.root.querySelector(".hand .card.legal") || this.root.querySelector(".hand .card");
    if (el) {
      this.rove(el);
      el.focus();
    }
    return !!el;
  }

  // the n-th decision (1-based) of the controls: the digit keys
  decide(k) {
    const items = [...this.root.querySelectorAll(".controls .act, .controls .act-from-select")];
    const b = items[k - 1];
    if (b) b.click();
    return !!b;
  }

  pressAction(verb) {
    const b = [...this.root.querySelectorAll(".controls .act")].find((x) => x.dataset.action === verb);
    if (b) b.click();
    return !!b;
  }

  // spread the hand over the width available (overlap only when needed)
  fitHand() {
    const h = this.root.querySelector(".hand");
    const first = h && h.querySelector(".card");
    if (!first) return;
    const n = h.children.length;
    const w = first.getBoundingClientRect().width;
    const avail = h.clientWidth - 24;
    // overlap at most so far that each card's index corner (about 30 % of its width) shows
    const gap = n > 1 ? Math.min(6, Math.max(-w * 0.66, (avail - n * w) / (n - 1))) : 0;
    h.style.setProperty("--gap", `${gap}px`);
  }

  controlsHTML(cls, game) {
    let h = "";
    for (const group of groupOthers(cls.others)) {
      if (group.length > 8) {
        const label = t(`verbs.${group[0].split(" ")[0]}`);
        h += `<span class="select-group"><select class="act-select" aria-label="${esc(label)}">${group.map((a) => `<option value="${esc(a)}">${esc(actionText(a, game))}</option>`).join("")}</select><button type="button" class="btn primary act-from-select">${esc(label)}</button></span>`;
      } else {
        for (const a of group) h += `<button type="button" class="btn act" data-action="${esc(a)}">${actionLabel(a, game)}</button>`;
      }
    }
    if (cls.multi.length) {
      const need = cls.multi[0].cards.length;
      const sel = [...this.selected].sort();
      const match = cls.multi.find((m) => m.cards.length === sel.length && m.cards.every((c, i) => c === sel[i]));
      h += `<span class="multi-note">${esc(t("ui.select_cards", { n: need }))} · ${esc(t("ui.selected_n", { k: sel.length, n: need }))}</span>`;
      if (match) h += `<button type="button" class="btn primary act" data-action="${esc(match.action)}">${actionLabel(match.action, game)}</button>`;
    }
    return h;
  }

  scoresHTML(st, game) {
    const m = st.match;
    if (!m) return "";
    const L = look(game);
    const nSides = m.totals.length;
    const names = sideNames(st, nSides);
    let rows = "";
    for (const r of m.results) {
      const sc = r.result.score || [];
      rows += `<tr><th scope="row">${num(r.deal + 1)}</th>${sc.map((x) => `<td class="n">${L.tally ? tally(x) || num(0) : num(x)}</td>`).join("")}</tr>`;
    }
    const won = m.over ? (m.winner !== null ? `<div class="winner">${esc(t("ui.match_over"))} — ${esc(t("ui.winner_is", { who: names[m.winner].label }))}</div>` : m.draw ? `<div class="winner">${esc(t("ui.draw"))}</div>` : "") : "";
    return `<section class="scores"><h3>${esc(t("ui.scores"))}</h3>
      <table><thead><tr><th scope="col">${esc(t("ui.deal_short"))}</th>${names.map((x) => `<th scope="col" title="${esc(x.members)}"><bdi>${esc(x.label)}</bdi>${x.members ? `<small class="members"><bdi>${esc(x.members)}</bdi></small>` : ""}</th>`).join("")}</tr></thead>
      <tbody>${rows}</tbody>
      <tfoot><tr><th scope="row">${esc(t("ui.totals"))}</th>${m.totals.map((x) => `<th><span class="n">${num(x)}</span>${L.tally ? ` <small>${esc(t("ui.strokes"))}</small>` : ""}</th>`).join("")}</tr></tfoot></table>${won}</section>`;
  }

  // the deal's score on the felt, per side, with the winner highlighted
  resultBanner(res, st) {
    const score = res.score || [];
    const names = sideNames(st, score.length);
    const best = Math.max(...score);
    const rows = score.map((x, i) => `<div class="rb-row ${x === best && x > 0 ? "win" : ""}"><span><bdi>${esc(names[i].label)}</bdi></span><b class="n">${x > 0 ? "+" : ""}${num(x)}</b></div>`).join("");
    return `<div class="result-banner n${score.length}" dir="${document.documentElement.dir}"><h3>${esc(t("ui.deal_over"))}</h3>${rows}</div>`;
  }

  // The result in words and numbers: one row per field that has a value per side, then the
  // single facts; each field with its label and a line of help (the guide's, else ours).
  resultHTML(res, st, game, deck) {
    const score = res.score || [];
    const nSides = score.length;
    const names = sideNames(st, nSides);
    const n = st.table.num_seats;
    const skip = new Set(["totals", "match_over", "winner", "draw", "redeal_by", "breakdown"]);
    const rows = [];
    const singles = [];
    for (const [k, v] of Object.entries(res)) {
      if (v === null || v === undefined || skip.has(k) || k.startsWith("next_")) continue;
      if (typeof v === "object" && !Array.isArray(v)) continue;
      if (v === false && k !== "made") continue;
      const f = resultField(game, k);
      const label = `<span class="rf-label">${esc(f.label)}</span>${f.help ? `<small class="help">${esc(f.help)}</small>` : ""}`;
      if (Array.isArray(v) && (v.length === nSides || v.length === n) && v.every((x) => typeof x === "number")) {
        const cols = v.length === nSides ? v : null;
        if (cols) rows.push(`<tr class="${k === "score" ? "score-row" : ""}"><th scope="row">${label}</th>${cols.map((x) => `<td class="n">${num(x)}</td>`).join("")}</tr>`);
        else singles.push(`<dt>${label}</dt><dd>${valueHTML(k, v, {}, st, deck)}</dd>`);
      } else {
        singles.push(`<dt>${label}</dt><dd>${valueHTML(k, v, {}, st, deck)}</dd>`);
      }
    }
    const breakdown = Array.isArray(res.breakdown) ? `<ul class="breakdown">${res.breakdown.map((b) => `<li>${esc(explainText(b, deck))}</li>`).join("")}</ul>` : "";
    const hands = this.hands && this.hands.deal === st.deal_no ? this.handsHTML(st, game, deck) : "";
    const end = Array.isArray(st.events) ? st.events.find((e) => e.kind === "deal_end") : null;
    const dealEnd = end ? breakdownHTML(end, st, game, this.breakdownOpen !== false) : "";
    return `<section class="result" aria-labelledby="result-h"><h3 id="result-h">${esc(t("ui.result"))}</h3>
      <p class="result-words">${esc(this.resultWords(res, st))}</p>${dealEnd}${breakdown}
      ${rows.length ? `<div class="table-scroll"><table class="breakdown-table"><thead><tr><th scope="col"><span class="sr">${esc(t("ui.field"))}</span></th>${names.map((x) => `<th scope="col"><bdi>${esc(x.label)}</bdi></th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>` : ""}
      ${singles.length ? `<dl>${singles.join("")}</dl>` : ""}${hands}</section>`;
  }

  // every hand of the finished deal, open (as held when the play began)
  handsHTML(st, game, deck) {
    const hs = this.hands.hands;
    return `<div class="all-hands"><h4>${esc(t("ui.all_hands"))}</h4>${hs.map((h, s) => `<div class="hand-row"><span class="hr-name"><bdi>${esc(seatName(st, s))}</bdi></span><span class="hr-cards">${sortHand(h, game).map((c) => cardEl(c, deck, "mini")).join("")}</span></div>`).join("")}</div>`;
  }

  async showHands(st, game) {
    if (!this.opts.loadHands || (this.hands && this.hands.deal === st.deal_no) || this.loadingHands === st.deal_no) return;
    this.loadingHands = st.deal_no;
    const hands = await this.opts.loadHands(st.deal_no - 1);
    if (!hands) return;
    this.hands = { deal: st.deal_no, hands };
    const sec = this.root.querySelector(".side .result");
    if (sec && this.model.state.obs && this.model.state.obs.result) sec.insertAdjacentHTML("beforeend", this.handsHTML(this.model.state, game, look(game).deck));
  }

  // The moves of the deal (the history as this seat saw it), each numbered; with narration
  // on, the events they led to (a trick won with its points, a sweep, a trump, a contract,
  // cards passed) follow the play they came after, as unnumbered lines.
  logHTML(obs, st, game) {
    if (!obs) return "";
    const after = new Map(); // k → lines after the k-th play (0: before the first play)
    if (Array.isArray(st.events) && narrationOn()) {
      let plays = 0;
      for (const e of st.events) {
        if (e.kind === "play") { plays += 1; continue; }
        if (["bid", "call", "ask", "answer", "capture", "deal", "deal_end", "pass_chosen"].includes(e.kind)) continue;
        const said = narrateEvent(e, st, game, st.you);
        if (!said) continue;
        if (!after.has(plays)) after.set(plays, []);
        after.get(plays).push(`<li class="ev ev-${esc(said.cls || e.kind)}" data-event="${esc(e.kind)}">${esc(said.text)}</li>`);
      }
    }
    const items = [];
    let plays = 0;
    obs.history.forEach((a, i) => {
      const isPlay = a.split(" ")[0] === "play";
      if (isPlay && plays === 0 && after.has(0)) items.push(...after.get(0).map((x) => ({ i, html: x })));
      items.push({ i, html: `<li value="${i + 1}"><b><bdi>${esc(seatName(st, obs.actors[i]))}</bdi></b> ${actionLabel(a, game)}</li>` });
      if (isPlay) {
        plays += 1;
        if (after.has(plays)) items.push(...after.get(plays).map((x) => ({ i, html: x })));
      }
    });
    if (plays === 0 && after.has(0)) items.push(...after.get(0).map((x) => ({ i: obs.history.length, html: x })));
    const shown = items.filter((x) => x.i >= obs.history.length - 80).map((x) => x.html);
    const toggle = Array.isArray(st.events) && !this.model.replay ? `<label class="narr-toggle" title="${esc(t("narrate.on_help"))}"><input type="checkbox" class="narration-switch" ${narrationOn() ? "checked" : ""}> ${esc(t("narrate.on"))}</label>` : "";
    return `<section class="log"><div class="log-head"><h3 id="log-h">${esc(t("ui.log"))}</h3>${toggle}</div><ol tabindex="0" aria-labelledby="log-h">${shown.join("")}</ol></section>`;
  }

  bind() {
    const r = this.root;
    r.querySelectorAll(".act").forEach((b) => b.addEventListener("click", () => { this.selected.clear(); this.opts.onAct(b.dataset.action); }));
    r.querySelectorAll(".act-from-select").forEach((b) => b.addEventListener("click", () => {
      const sel = b.parentElement.querySelector("select");
      this.opts.onAct(sel.value);
    }));
    r.querySelectorAll(".take").forEach((b) => b.addEventListener("click", () => this.opts.onTakeSeat && this.opts.onTakeSeat(+b.dataset.seat)));
    r.querySelectorAll(".hand .card").forEach((el) => el.addEventListener("click", () => this.clickCard(el.dataset.card)));
    const hand = r.querySelector(".hand");
    if (hand) hand.addEventListener("keydown", (e) => this.handKey(e));
    const sw = r.querySelector(".narration-switch");
    if (sw) sw.addEventListener("change", () => { setSetting("narration", sw.checked); this.render(this.model); r.querySelector(".narration-switch").focus(); });
    this.bindHint();
    const bd = r.querySelector(".deal-breakdown");
    if (bd) bd.addEventListener("toggle", () => { this.breakdownOpen = bd.open; });
  }

  handKey(e) {
    const cards = [...this.root.querySelectorAll(".hand .card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = cards.length - 1;
    if (j === null) return;
    e.preventDefault();
    this.rove(cards[j]);
    cards[j].focus();
  }

  clickCard(card) {
    const m = this.model;
    if (!m || m.replay) return;
    const st = m.state;
    const obs = st.obs;
    if (!obs || obs.result) return;
    if (obs.to_act !== st.you) {
      this.toast(esc(t("ui.not_your_turn")));
      return;
    }
    const cls = this.cls;
    if (cls.multi.length && cls.multi.some((x) => x.cards.includes(card))) {
      if (this.selected.has(card)) this.selected.delete(card);
      else this.selected.add(card);
      this.render(m);
      const need = cls.multi[0].cards.length;
      announce(t("ui.selected_n", { k: this.selected.size, n: need }));
      // the selection is complete: the confirm button is the next stop
      if (this.selected.size === need) {
        const ok = this.root.querySelector(".controls .btn.primary.act");
        if (ok) ok.focus();
      }
      return;
    }
    const acts = cls.byCard.get(card);
    if (!acts && !cls.handVerb) {
      // no legal action takes a card now (bidding, a yes/no question): say so, rather than
      // explain a card action that is no move of this step ("bid QC")
      this.toast(esc(t("ui.no_card_now")));
      return;
    }
    if (!acts) {
      const verb = cls.handVerb;
      this.opts.onExplain(`${verb} ${card}`);
      return;
    }
    if (acts.length === 1) {
      this.opts.onAct(acts[0]);
      return;
    }
    this.choose(acts, m.game);
  }

  choose(actions, game) {
    const deck = look(game).deck;
    // an option that takes cards shows them as cards (Scopone's captures)
    const pictured = (a) => {
      const toks = a.split(" ");
      const taken = toks.slice(2).filter((x) => isCard(x));
      if (!taken.length) return actionLabel(a, game);
      return `${actionLabel(toks.slice(0, 2).join(" "), game)} <span class="takes">${esc(t("words.take"))} ${taken.map((c) => `<span class="mini-card">${cardSVG(c, deck)}</span>`).join("")}</span>`;
    };
    openDialog({
      title: esc(t("ui.choose")),
      body: `<div class="choices">${actions.map((a, i) => `<button type="button" class="btn choice" data-action="${esc(a)}" ${i === 0 ? "autofocus" : ""}>${pictured(a)}</button>`).join("")}</div>
        <button type="button" class="btn ghost cancel">${esc(t("ui.cancel"))}</button>`,
      bind: (d) => {
        d.querySelectorAll(".choice").forEach((b) => b.addEventListener("click", () => { d.close(); this.opts.onAct(b.dataset.action); }));
        d.querySelector(".cancel").addEventListener("click", () => d.close());
      },
      fallbackFocus: () => this.focusHand(),
    });
  }

  // a toast; rule IDs in it ("(SAS-10.3)") become links to the guide's section
  toast(html, ms = 3500, urgent = false) {
    const game = this.model ? this.model.game : lastGame;
    const linked = String(html).replace(/<small dir="ltr">\(([A-Z]{2,4}-[\d.]+(?:, [A-Z]{2,4}-[\d.]+)*)\)<\/small>/g, (_, ids) => ruleLinks(ids.split(", "), game));
    showToast(linked, urgent ? Math.max(ms, 8000) : ms, urgent);
  }

  // hint: the server's explanation (folkcards.bots.explain_hint): {choice, scale, samples,
  // rows: [{action, value, diff, reason, gain?, se?}], reason}; shown in a collapsible
  // panel under the controls until the position moves on
  showHint(action, game, hint) {
    this.toast(esc(t("ui.hint_is", { action: actionText(action, game) })), 5000);
    const st = this.model && this.model.state;
    if (hint && st && st.obs) {
      this.hint = { data: hint, game, ...positionOf(st) };
      this.hintOpen = true;
      this.placeHint();
    }
    const toks = action.split(" ");
    if (toks[1] && isCard(toks[1])) {
      const el = this.root.querySelector(`.hand .card[data-card="${toks[1]}"]`);
      if (el) {
        el.classList.add("hinted");
        this.rove(el); // the hand's tab stop: Tab or "c" reaches the hinted card
        if (this.root.contains(document.activeElement)) el.focus();
      }
    }
    this.root.querySelectorAll(".controls .act").forEach((b) => { if (b.dataset.action === action) b.classList.add("hinted"); });
  }

  // the hint panel of the current position ("" when there is none or the position moved on)
  hintHTML(obs, st, myTurn) {
    const h = this.hint;
    if (!h || !obs || !myTurn || !samePosition(h, st)) return "";
    const { data, game } = h;
    const act = (a) => `<bdi>${esc(actionText(a, game))}</bdi>`;
    const pct = (v) => esc(t("hint_panel.pct", { v: num((100 * v).toFixed(1)) }));
    const signed = (v) => num(`${v >= 0 ? "+" : "-"}${Math.abs(100 * v).toFixed(1)}`);
    const why = (r) => {
      if (r.reason === "noise_tried_play" && typeof r.gain === "number" && typeof r.se === "number") {
        return t("hint_panel.noise_tried_play_gain", { g: signed(r.gain), se: num((100 * r.se).toFixed(1)) });
      }
      return t(`hint_panel.${r.reason}`);
    };
    const rows = Array.isArray(data.rows) ? data.rows : [];
    const LIMIT = 8;
    let body = "";
    if (data.scale === "win_chance") {
      const src = typeof data.samples === "number" ? t("hint_panel.search_n", { n: data.samples }) : t("hint_panel.search");
      body += `<p class="hint-scale" data-scale="win_chance">${esc(t("hint_panel.scale_win_chance"))} (${esc(src)})</p>`;
      body += `<ol class="hint-rows">${rows.slice(0, LIMIT).map((r) => {
        const best = r.action === data.choice;
        const tail = best
          ? `<span class="hint-note">${esc(t("hint_panel.recommended"))}</span>`
          : `<span class="hint-diff">${esc(t("hint_panel.diff", { d: signed(r.diff) }))}</span>${r.reason ? ` <span class="hint-why">${esc(why(r))}</span>` : ""}`;
        return `<li class="${best ? "best" : ""}" data-action="${esc(r.action)}"><span class="hint-act">${act(r.action)}</span> <span class="hint-val">${pct(r.value)}</span> ${tail}</li>`;
      }).join("")}</ol>`;
    } else if (data.scale === "rank") {
      body += `<p class="hint-scale" data-scale="rank">${esc(t(data.warming ? "hint_panel.scale_rank_warming" : "hint_panel.scale_rank"))}</p>`;
      body += `<ol class="hint-rows">${rows.slice(0, LIMIT).map((r) => `<li class="${r.action === data.choice ? "best" : ""}" data-action="${esc(r.action)}"><span class="hint-act">${act(r.action)}</span>${r.action === data.choice ? ` <span class="hint-note">${esc(t("hint_panel.recommended"))}</span>` : ""}</li>`).join("")}</ol>`;
    } else {
      body += `<p class="hint-scale" data-scale="none">${esc(t("hint_panel.scale_none"))}</p>`;
    }
    if (data.scale !== "none" && rows.length > LIMIT) body += `<p class="hint-more">${esc(t("hint_panel.more", { n: rows.length - LIMIT }))}</p>`;
    if (data.scale === "win_chance" && data.unsearched > 0) body += `<p class="hint-unsearched">${esc(t("hint_panel.unsearched", { n: num(data.unsearched) }))}</p>`;
    const first = rows.find((r) => r.reason === data.reason && r.action !== data.choice);
    if (data.reason && first) body += `<p class="hint-reason" data-reason="${esc(data.reason)}">${esc(t("hint_panel.why", { reason: why(first) }))}</p>`;
    return `<details class="hint-panel"${this.hintOpen ? " open" : ""} aria-label="${esc(t("hint_panel.label"))}">
      <summary>${esc(t("hint_panel.title", { action: "\u0000" })).replace("\u0000", act(data.choice))}</summary>${body}</details>`;
  }

  // put the hint panel in (or take it out of) the rendered table without a re-render
  placeHint() {
    const m = this.model;
    if (!m) return;
    const st = m.state;
    const myTurn = !!(st.obs && st.you !== null && st.you !== undefined && st.obs.to_act === st.you && !m.replay);
    const html = this.hintHTML(st.obs, st, myTurn);
    const old = this.root.querySelector(".hint-panel");
    if (old) old.remove();
    const side = this.root.querySelector(".side");
    const controls = this.root.querySelector(".board .controls");
    if (html && this.hintBeside() && side) side.insertAdjacentHTML("afterbegin", html);
    else if (html && controls) controls.insertAdjacentHTML("afterend", html);
    this.bindHint();
  }

  // a wide and tall screen shows the hint at the top of the side column, so that it does not
  // push the hand below the fold; a phone, upright or sideways, shows it on the board
  hintBeside() {
    return window.matchMedia("(min-width: 901px) and (min-height: 521px)").matches;
  }

  bindHint() {
    const panel = this.root.querySelector(".hint-panel");
    if (panel) panel.addEventListener("toggle", () => { this.hintOpen = panel.open; });
  }

  showLastTrick() {
    const m = this.model;
    if (!m || !m.state.obs) return;
    const st = m.state;
    const L = look(m.game);
    const info = tricksFromHistory(st.obs.history, st.obs.actors, st.table.num_seats, st.obs);
    // the last trick that is no longer on the felt
    const onFelt = info.current.length ? null : info.done[info.done.length - 1];
    const candidates = info.done.filter((tr) => tr !== onFelt);
    const last = candidates[candidates.length - 1] || (info.done.length ? info.done[info.done.length - 1] : null);
    openDialog({
      title: esc(t("ui.last_trick")),
      body: `${last ? `<div class="last-trick">${last.map((p) => `<figure>${cardEl(p.card, L.deck)}<figcaption><bdi>${esc(seatName(st, p.seat))}</bdi></figcaption></figure>`).join("")}</div>${last.winner !== null && last.winner !== undefined ? `<p>${esc(t("ui.won_trick", { name: seatName(st, last.winner) }))}</p>` : ""}` : `<p>${esc(t("ui.no_last_trick"))}</p>`}
        <button type="button" class="btn cancel" autofocus>${esc(t("ui.ok"))}</button>`,
      bind: (d) => d.querySelector(".cancel").addEventListener("click", () => d.close()),
      fallbackFocus: () => this.focusHand(),
    });
  }

  // positions of the cards on screen before a re-render, for animations
  captureRects() {
    const rects = { center: new Map(), hand: new Map(), seats: new Map() };
    this.root.querySelectorAll(".center .card").forEach((el) => rects.center.set(el.dataset.card, { rect: el.getBoundingClientRect(), html: el.outerHTML }));
    this.root.querySelectorAll(".hand .card").forEach((el) => rects.hand.set(el.dataset.card, el.getBoundingClientRect()));
    this.root.querySelectorAll(".seat").forEach((el) => rects.seats.set(+el.dataset.seat, el.getBoundingClientRect()));
    return rects;
  }

  animate(old, st, pos) {
    if (!this.prev || !st.obs || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const obs = st.obs;
    const lastActor = obs.actors.length ? obs.actors[obs.actors.length - 1] : null;
    const seatRect = (s) => {
      const el = this.root.querySelector(`.seat[data-seat="${s}"]`);
      return el ? el.getBoundingClientRect() : null;
    };
    const nowCenter = new Set();
    // new cards fly in from the hand or from their player's seat
    this.root.querySelectorAll(".center .card").forEach((el) => {
      const c = el.dataset.card;
      nowCenter.add(c);
      if (old.center.has(c)) return;
      const to = el.getBoundingClientRect();
      const from = old.hand.get(c) || (lastActor !== null ? seatRect(lastActor) : null);
      if (!from) return;
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      el.animate([{ translate: `${dx}px ${dy}px`, scale: "0.9", opacity: 0.6 }, { translate: "0 0", scale: "1", opacity: 1 }], { duration: 320, easing: "cubic-bezier(.2,.8,.2,1)" });
    });
    // cards that left the centre (a trick collected, a capture) fly to the taker
    const target = lastActor !== null ? seatRect(lastActor) : null;
    if (!target) return;
    for (const [c, { rect, html }] of old.center) {
      if (nowCenter.has(c)) continue;
      const ghost = document.createElement("div");
      ghost.innerHTML = html;
      const g = ghost.firstElementChild;
      g.classList.add("ghost");
      g.setAttribute("aria-hidden", "true");
      Object.assign(g.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`, margin: 0, transform: "none" });
      document.body.appendChild(g);
      const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
      const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
      const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }], { duration: 450, delay: 120, easing: "ease-in", fill: "forwards" });
      a.onfinish = () => g.remove();
    }
  }
}

// A structured explanation or breakdown line ({code, params, rules, text}) in the player's
// words and language (present.js renderExplanation): the code's template filled with its
// parameters in words, else the engine's English text. The rule IDs are left to the caller.
export function explainText(ex, deck = "french") {
  return renderExplanation(ex, deck);
}

// The same with its rule IDs as links to the guide, as HTML.
export function explainHTML(ex, deck = "french") {
  if (!ex) return "";
  return `${esc(renderExplanation(ex, deck))} ${ruleLinks(ex.rules || [])}`.trim();
}

// cards in each seat's hand: the game's public count, or (for trick games that do not
// publish it) this seat's own count corrected by the plays each seat has made since
function handSizesOf(obs, n) {
  if (obs.info && Array.isArray(obs.info.hand_sizes)) return obs.info.hand_sizes;
  if (obs.phase !== "play" && obs.phase !== "lese") return null;
  const plays = new Array(n).fill(0);
  obs.history.forEach((a, i) => { if (a.startsWith("play ")) plays[obs.actors[i]] += 1; });
  const me = obs.seat ?? 0;
  if (obs.seat === null) return null;
  return plays.map((p) => Math.max(0, obs.hand.length + plays[me] - p));
}

export function tickClocks(root) {
  root.querySelectorAll(".chip.clock").forEach((el) => {
    const left = Math.max(0, Math.ceil((+el.dataset.deadline - Date.now()) / 1000));
    el.textContent = num(left);
  });
}

export { phaseHelp, tMaybe };
