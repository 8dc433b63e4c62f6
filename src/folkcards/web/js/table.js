// The live table (and the replay viewer's board): seats around a felt, the trick or the
// Scopone table in the middle, the player's hand and the controls for the legal actions.
import { t, num, lang } from "./i18n.js";
import { cardSVG, backSVG } from "./cards.js";
import { look, isCard, actionLabel, esc, seatName, tricksFromHistory, factRows, valueHTML, sideNames, tally } from "./present.js";

const BOT_ICON = `<svg viewBox="0 0 20 20" aria-hidden="true"><rect x="3" y="6" width="14" height="11" rx="3" fill="#10231a"/><circle cx="7.5" cy="11" r="1.8" fill="#f2c94c"/><circle cx="12.5" cy="11" r="1.8" fill="#f2c94c"/><path d="M10 6V2.5" stroke="#10231a" stroke-width="1.6"/><circle cx="10" cy="2.3" r="1.4" fill="#10231a"/></svg>`;
const SUIT_DISPLAY = { french: ["S", "H", "C", "D"], italian: ["D", "H", "S", "C"] };
const RANK_DISPLAY = "AKQJT98765432";

export function sortHand(cards, deck) {
  const so = SUIT_DISPLAY[deck];
  return [...cards].sort((a, b) => so.indexOf(a[1]) - so.indexOf(b[1]) || RANK_DISPLAY.indexOf(a[0]) - RANK_DISPLAY.indexOf(b[0]));
}

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

function cardEl(text, deck, cls = "") {
  return `<div class="card ${cls}" data-card="${text}">${cardSVG(text, deck)}</div>`;
}

function backs(n, deck) {
  const shown = Math.min(n, 13);
  let h = "";
  for (let i = 0; i < shown; i++) h += `<div class="back">${backSVG(deck)}</div>`;
  return `<div class="backs" style="--n:${shown}">${h}</div>`;
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
  return { byCard, multi, others, handVerb: verbs.size === 1 ? [...verbs][0] : verbs.size ? [...verbs][0] : null };
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

export class TableView {
  constructor(root, opts) {
    this.root = root;
    this.opts = opts; // {onAct, onExplain, onHint, onReady, onTakeSeat, onStart, replay}
    this.prev = null;
    this.selected = new Set();
    this.chooser = null;
    this.toastTimer = null;
  }

  // model: {game, state (server "state" message shape), handsOpen: [cards per seat] | null}
  render(model) {
    const { game } = model;
    const st = model.state;
    const obs = st.obs;
    const L = look(game);
    const deck = L.deck;
    const n = st.table.num_seats;
    const me = st.you ?? 0;
    const pos = positions(n, me, L.clockwise);
    const oldRects = this.captureRects();

    const myTurn = obs && st.you !== null && st.you !== undefined && obs.to_act === st.you && obs.legal.length > 0 && !model.replay;
    const hand = obs ? sortHand(obs.hand, deck) : [];
    const cls = myTurn ? classifyLegal(obs.legal, obs.hand) : { byCard: new Map(), multi: [], others: [], handVerb: null };
    this.cls = cls;
    this.model = model;

    const trickInfo = obs && !L.fishing ? tricksFromHistory(obs.history, obs.actors, n) : null;
    let centerCards = []; // [{card, seat, pos}]
    let trickDone = null;
    if (trickInfo) {
      if (trickInfo.current.length) centerCards = trickInfo.current;
      else if (trickInfo.done.length) {
        trickDone = trickInfo.done[trickInfo.done.length - 1];
        centerCards = trickDone;
      }
    }
    const handSizes = obs ? handSizesOf(obs, n) : null;

    // seats
    let seatsHTML = "";
    for (let s = 0; s < n; s++) {
      const seat = st.seats[s];
      const isMe = s === st.you;
      const toAct = obs && obs.to_act === s;
      const status = [];
      if (seat.kind === "bot" && seat.level) status.push(`<span class="chip level">${esc(t(`ui.level_${seat.level}`).split(" ")[0])}</span>`);
      if (obs && obs.dealer === s) status.push(`<span class="chip dealer" title="${esc(t("ui.dealer"))}">D</span>`);
      if (seat.auto && seat.kind === "human") status.push(`<span class="chip auto">${esc(t("ui.bot_playing"))}</span>`);
      else if (!seat.connected && seat.kind === "human" && !seat.open) status.push(`<span class="chip away">${esc(t("ui.away"))}</span>`);
      if (st.clock && st.clock.seat === s) status.push(`<span class="chip clock" data-deadline="${Date.now() + st.clock.remaining * 1000}">${num(Math.ceil(st.clock.remaining))}</span>`);
      const teamCls = n === 4 && !L.fishing ? `team${s % 2}` : L.fishing ? `team${s % 2}` : "";
      let cardsHTML = "";
      if (model.handsOpen && !isMe) {
        cardsHTML = `<div class="open-hand">${sortHand(model.handsOpen[s], deck).map((c) => cardEl(c, deck, "mini")).join("")}</div>`;
      } else if (!isMe && handSizes) {
        cardsHTML = backs(handSizes[s], deck);
      }
      const name = seat.open ? t("ui.seat", { n: s + 1 }) : seatName(st, s);
      const take = seat.open && (st.you === null || st.you === undefined) && this.opts.onTakeSeat
        ? `<button class="btn small take" data-seat="${s}">${esc(t("ui.take_seat", { n: s + 1 }))}</button>` : "";
      seatsHTML += `<div class="seat pos-${pos[s]} ${teamCls} ${toAct ? "to-act" : ""} ${isMe ? "me" : ""}" data-seat="${s}">
        <div class="seat-label"><span class="avatar">${seat.kind === "bot" ? BOT_ICON : esc((name || "?").slice(0, 1).toUpperCase())}</span>
        <span class="seat-name">${esc(name)}${isMe && !model.replay ? ` <small>(${esc(t("ui.you"))})</small>` : ""}</span>${status.join("")}</div>
        ${cardsHTML}${take}</div>`;
    }

    // centre
    let centerHTML = "";
    if (L.fishing && obs) {
      const tableCards = obs.info.table || [];
      centerHTML = `<div class="fish-table">${tableCards.map((c) => cardEl(c, deck, "on-table")).join("") || `<div class="empty-table">${esc(t("ui.table_cards"))}</div>`}</div>`;
      const piles = obs.info.piles || [[], []];
      const sweeps = obs.info.sweeps || [0, 0];
      centerHTML += `<div class="fish-piles">${piles.map((p, i) => `<div class="pile team${i}"><b>${esc(t("ui.team", { n: i + 1 }))}</b> ${esc(t("ui.cards_n", { n: p.length }))}${sweeps[i] ? ` · ${esc(t("facts.sweeps"))} ${num(sweeps[i])}` : ""}</div>`).join("")}</div>`;
    } else if (obs) {
      centerHTML = `<div class="trick ${trickDone ? "done" : ""}">${centerCards.map((p) => cardEl(p.card, deck, `slot slot-${pos[p.seat]}`)).join("")}</div>`;
      if (trickDone && trickDone.winner !== null && trickDone.winner !== undefined && !obs.result) {
        centerHTML += `<div class="trick-note">${esc(t("ui.won_trick", { name: seatName(st, trickDone.winner) }))}</div>`;
      }
    }
    if (obs && obs.result && !model.replay) centerHTML += this.resultBanner(obs.result, st, game);
    const phase = obs ? (obs.result ? t("ui.deal_over") : t(`phases.${obs.phase}`)) : "";

    // prompt and controls
    let prompt = "";
    if (!obs) {
      prompt = st.table.status === "open" ? t("ui.waiting_players") : "";
    } else if (obs.result) {
      prompt = t("ui.deal_over");
    } else if (myTurn) {
      prompt = `${t("ui.your_turn")} · ${t(`phases.${obs.phase}`)}`;
    } else if (obs.to_act !== null && obs.to_act === st.you) {
      prompt = t("ui.waiting_players");
    } else if (obs.to_act !== null) {
      prompt = st.seats[obs.to_act].kind === "bot" || st.seats[obs.to_act].auto ? t("ui.thinking", { name: seatName(st, obs.to_act) }) : t("ui.waiting_for", { name: seatName(st, obs.to_act) });
    }
    const controls = myTurn ? this.controlsHTML(cls, game, deck) : "";

    // hand
    const handHTML = hand.map((c) => {
      let k = "";
      if (myTurn && (cls.byCard.size || cls.multi.length)) {
        const legal = cls.byCard.has(c) || cls.multi.some((m) => m.cards.includes(c));
        k = legal ? "legal" : "illegal";
      }
      if (this.selected.has(c)) k += " selected";
      return cardEl(c, deck, `in-hand ${k}`);
    }).join("");

    const facts = obs ? factRows(obs, st, game) : [];
    const seatLink = st.you === null || st.you === undefined ? `<div class="notice">${esc(t("ui.spectating"))}</div>` : "";

    this.root.innerHTML = `
      <div class="board">
        <div class="felt n${n}" dir="ltr">
          ${seatsHTML}
          <div class="center">${centerHTML}</div>
          <div class="phase-tag">${esc(phase)}</div>
        </div>
        <div class="prompt ${myTurn ? "mine" : ""}" role="status">${esc(prompt)}</div>
        <div class="controls">${controls}</div>
        <div class="hand ${myTurn ? "my-turn" : ""}" style="--n:${hand.length || 1}">${handHTML}</div>
        ${seatLink}
      </div>
      <aside class="side">
        ${facts.length ? `<section class="facts"><dl>${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl></section>` : ""}
        ${this.scoresHTML(st, game)}
        ${obs && obs.result ? this.resultHTML(obs.result, st, game, deck) : ""}
        ${this.logHTML(obs, st, game)}
      </aside>
      <div class="toast" hidden></div>
      <div class="overlay" hidden></div>`;
    this.bind();
    this.fitHand();
    this.animate(oldRects, st, pos);
    this.prev = { obs, pos };
    const log = this.root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  // spread the hand over the width available (overlap only when needed)
  fitHand() {
    const h = this.root.querySelector(".hand");
    const first = h && h.querySelector(".card");
    if (!first) return;
    const n = h.children.length;
    const w = first.getBoundingClientRect().width;
    const avail = h.clientWidth - 24;
    const gap = n > 1 ? Math.min(6, Math.max(-w * 0.72, (avail - n * w) / (n - 1))) : 0;
    h.style.setProperty("--gap", `${gap}px`);
  }

  controlsHTML(cls, game, deck) {
    let h = "";
    for (const group of groupOthers(cls.others)) {
      if (group.length > 8) {
        h += `<span class="select-group"><select class="act-select">${group.map((a) => `<option value="${esc(a)}">${esc(plain(a, game))}</option>`).join("")}</select><button class="btn primary act-from-select">${esc(t(`verbs.${group[0].split(" ")[0]}`))}</button></span>`;
      } else {
        for (const a of group) h += `<button class="btn act" data-action="${esc(a)}">${actionLabel(a, game)}</button>`;
      }
    }
    if (cls.multi.length) {
      const need = cls.multi[0].cards.length;
      const sel = [...this.selected].sort();
      const match = cls.multi.find((m) => m.cards.length === sel.length && m.cards.every((c, i) => c === sel[i]));
      h += `<span class="multi-note">${esc(t("ui.select_cards", { n: need }))}</span>`;
      if (match) h += `<button class="btn primary act" data-action="${esc(match.action)}">${actionLabel(match.action, game)}</button>`;
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
      rows += `<tr><td>${num(r.deal + 1)}</td>${sc.map((x) => `<td class="n">${L.tally ? tally(x) || num(0) : num(x)}</td>`).join("")}</tr>`;
    }
    const won = m.over ? (m.winner !== null ? `<div class="winner">${esc(t("ui.match_over"))} — ${esc(t("ui.winner_is", { who: names[m.winner].label }))}</div>` : m.draw ? `<div class="winner">${esc(t("ui.draw"))}</div>` : "") : "";
    return `<section class="scores"><h3>${esc(t("ui.scores"))}</h3>
      <table><thead><tr><th>#</th>${names.map((x) => `<th title="${esc(x.members)}">${esc(x.label)}${x.members ? `<small class="members">${esc(x.members)}</small>` : ""}</th>`).join("")}</tr></thead>
      <tbody>${rows}</tbody>
      <tfoot><tr><th>${esc(t("ui.totals"))}</th>${m.totals.map((x) => `<th><span class="n">${num(x)}</span>${L.tally ? ` <small>${esc(t("ui.strokes"))}</small>` : ""}</th>`).join("")}</tr></tfoot></table>${won}</section>`;
  }

  // the deal's score on the felt, per side, with the winner highlighted
  resultBanner(res, st, game) {
    const score = res.score || [];
    const names = sideNames(st, score.length);
    const best = Math.max(...score);
    const rows = score.map((x, i) => `<div class="rb-row ${x === best && x > 0 ? "win" : ""}"><span>${esc(names[i].label)}</span><b class="n">${x > 0 ? "+" : ""}${num(x)}</b></div>`).join("");
    return `<div class="result-banner"><h3>${esc(t("ui.deal_over"))}</h3>${rows}</div>`;
  }

  resultHTML(res, st, game, deck) {
    const rows = [];
    for (const [k, v] of Object.entries(res)) {
      if (v === null || v === undefined || typeof v === "object" && !Array.isArray(v)) continue;
      if (["totals", "match_over", "winner", "draw"].includes(k) || k.startsWith("next_")) continue;
      const label = t(`result.${k}`);
      rows.push(`<dt>${esc(label)}</dt><dd>${valueHTML(k, v, {}, st, deck)}</dd>`);
    }
    return `<section class="result"><h3>${esc(t("ui.result"))}</h3><dl>${rows.join("")}</dl></section>`;
  }

  logHTML(obs, st, game) {
    if (!obs) return "";
    const items = obs.history.map((a, i) => `<li><b>${esc(seatName(st, obs.actors[i]))}</b> ${actionLabel(a, game)}</li>`).slice(-80);
    return `<section class="log"><h3>${esc(t("ui.log"))}</h3><ol>${items.join("")}</ol></section>`;
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
  }

  clickCard(card) {
    const m = this.model;
    if (!m || m.replay) return;
    const st = m.state;
    const obs = st.obs;
    if (!obs || obs.result) return;
    if (obs.to_act !== st.you) {
      this.toast(t("ui.not_your_turn"));
      return;
    }
    const cls = this.cls;
    if (cls.multi.length && cls.multi.some((x) => x.cards.includes(card))) {
      if (this.selected.has(card)) this.selected.delete(card);
      else this.selected.add(card);
      this.render(m);
      return;
    }
    const acts = cls.byCard.get(card);
    if (!acts) {
      const verb = cls.handVerb || (obs.legal[0] || "play").split(" ")[0];
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
    const ov = this.root.querySelector(".overlay");
    ov.hidden = false;
    const deck = look(game).deck;
    // an option that takes cards shows them as cards (Scopone's captures)
    const pictured = (a) => {
      const toks = a.split(" ");
      const taken = toks.slice(2).filter((x) => isCard(x));
      if (!taken.length) return actionLabel(a, game);
      return `${actionLabel(toks.slice(0, 2).join(" "), game)} <span class="takes">${esc(t("words.take"))} ${taken.map((c) => `<span class="mini-card">${cardSVG(c, deck)}</span>`).join("")}</span>`;
    };
    ov.innerHTML = `<div class="dialog" role="dialog"><h3>${esc(t("ui.choose"))}</h3>
      <div class="choices">${actions.map((a) => `<button class="btn choice" data-action="${esc(a)}">${pictured(a)}</button>`).join("")}</div>
      <button class="btn ghost cancel">${esc(t("ui.cancel"))}</button></div>`;
    ov.querySelectorAll(".choice").forEach((b) => b.addEventListener("click", () => { ov.hidden = true; this.opts.onAct(b.dataset.action); }));
    ov.querySelector(".cancel").addEventListener("click", () => { ov.hidden = true; });
  }

  toast(html, ms = 3500) {
    const el = this.root.querySelector(".toast");
    if (!el) return;
    el.innerHTML = html;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  }

  showHint(action, game) {
    this.toast(t("ui.hint_is", { action: "" }) + actionLabel(action, game), 5000);
    const toks = action.split(" ");
    if (toks[1] && isCard(toks[1])) {
      const el = this.root.querySelector(`.hand .card[data-card="${toks[1]}"]`);
      if (el) el.classList.add("hinted");
    }
    this.root.querySelectorAll(".controls .act").forEach((b) => { if (b.dataset.action === action) b.classList.add("hinted"); });
  }

  showLastTrick() {
    const m = this.model;
    if (!m || !m.state.obs) return;
    const st = m.state;
    const L = look(m.game);
    const ov = this.root.querySelector(".overlay");
    const info = tricksFromHistory(st.obs.history, st.obs.actors, st.table.num_seats);
    // the last trick that is no longer on the felt
    const onFelt = info.current.length ? null : info.done[info.done.length - 1];
    const candidates = info.done.filter((tr) => tr !== onFelt);
    const last = candidates[candidates.length - 1] || (info.done.length ? info.done[info.done.length - 1] : null);
    ov.hidden = false;
    ov.innerHTML = `<div class="dialog"><h3>${esc(t("ui.last_trick"))}</h3>${last ? `<div class="last-trick">${last.map((p) => `<figure>${cardEl(p.card, L.deck)}<figcaption>${esc(seatName(st, p.seat))}</figcaption></figure>`).join("")}</div>${last.winner !== null ? `<p>${esc(t("ui.won_trick", { name: seatName(st, last.winner) }))}</p>` : ""}` : `<p>${esc(t("ui.no_last_trick"))}</p>`}
      <button class="btn ghost cancel">OK</button></div>`;
    ov.querySelector(".cancel").addEventListener("click", () => { ov.hidden = true; });
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
      el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.9)`, opacity: 0.6 }, { transform: "none", opacity: 1 }], { duration: 320, easing: "cubic-bezier(.2,.8,.2,1)" });
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
      Object.assign(g.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`, margin: 0, transform: "none" });
      document.body.appendChild(g);
      const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
      const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
      const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }], { duration: 450, delay: 120, easing: "ease-in", fill: "forwards" });
      a.onfinish = () => g.remove();
    }
  }
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

function plain(action, game) {
  const div = document.createElement("div");
  div.innerHTML = actionLabel(action, game);
  return div.textContent;
}

export function tickClocks(root) {
  root.querySelectorAll(".chip.clock").forEach((el) => {
    const left = Math.max(0, Math.ceil((+el.dataset.deadline - Date.now()) / 1000));
    el.textContent = num(left);
  });
}
