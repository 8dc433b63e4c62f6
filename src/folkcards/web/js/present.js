// Per-game presentation that the engine does not decide: the pack's look, the direction
// of play on screen, which public facts to show, and how an action reads in words.
// Everything else is generic over the engine's observation. Where the server sends the
// game's own card facts (`/api/games` → `hand_order`, from the engine's game card) they win
// over the fallbacks here.
import { t, tMaybe, num, cardName } from "./i18n.js";
import { cardInline, suitIcon } from "./cards.js";

const GAME_LOOK = {
  sasku: { deck: "french", clockwise: true, facts: ["trump", "bid", "bidder", "declarer", "points", "tricks"], tally: true, points: "points", cardPoints: { A: 11, T: 10, K: 4, Q: 3, J: 2 } },
  scopone: { deck: "italian", clockwise: false, facts: ["sweeps"], fishing: true },
  sheepshead: { deck: "french", clockwise: true, facts: ["picker", "called", "partner", "mode", "stake", "taken", "tricks"], points: "taken", cardPoints: { A: 11, T: 10, K: 4, Q: 3, J: 2 } },
  satat: { deck: "french", clockwise: true, facts: ["trump", "trump_maker", "tricks"] },
  huutopussi: { deck: "french", clockwise: true, facts: ["trump", "high_bid", "high_bidder", "declarer", "contract", "points", "tricks"], points: "points" },
};

// how many cards a phase's one-card-at-a-time step takes in all (for "1 of 3" prompts)
export const PHASE_COUNT = {
  huutopussi: { give: 3, return: 3, discard: 3 },
  sheepshead: { bury: 2 },
};

let serverGames = null;

// The server's game list (`/api/games`), for the facts it carries.
export function setGames(g) {
  serverGames = g;
}

export function gameInfo(game) {
  return serverGames && serverGames.games ? serverGames.games.find((x) => x.name === game) : null;
}

export function look(game) {
  return GAME_LOOK[game] || { deck: "french", clockwise: true, facts: ["trump", "points", "tricks"] };
}

export const CARD_RE = /^([AKQJT98765432])([CSHD])$/;

export function isCard(tok) {
  return CARD_RE.test(tok);
}

// A seat's name: the player's, or "Bot 2" (the felt shows a bot's level beside it);
// `full` adds the level ("Bot 2 (heuristic)") where the name stands alone.
export function seatName(state, seat, full = false) {
  const s = state.seats && state.seats[seat];
  if (s && s.kind === "bot") {
    const base = s.name && !/^Bot \d+$/.test(s.name) ? s.name : `${t("ui.bot")} ${num(seat + 1)}`;
    if (!full || !s.level || /\(/.test(base)) return base;
    return t("ui.bot_named", { n: seat + 1, level: t(`ui.level_${s.level}`).split(" (")[0] });
  }
  return (s && s.name) || t("ui.seat", { n: seat + 1 });
}

// An action text as HTML: verb and words translated, cards drawn inline (named in words for
// assistive technology), numbers localized.
export function actionLabel(text, game) {
  const deck = look(game).deck;
  const toks = text.split(" ");
  const out = [];
  toks.forEach((tok, i) => {
    if (i === 0) {
      out.push(esc(tMaybe(`verbs.${tok}`) || tok));
    } else if (isCard(tok)) {
      out.push(cardInline(tok, deck, esc(cardName(tok, deck))));
    } else if (/^\d+$/.test(tok)) {
      out.push(`<bdi class="n">${num(+tok)}</bdi>`);
    } else if (/^[CSHD]$/.test(tok)) {
      out.push(`<span class="suit-chip">${suitIcon(tok, deck, 14)}</span> ${esc(t(deck === "italian" ? `suits_italian.${tok}` : `suits.${tok}`))}`);
    } else if (tok === "?") {
      out.push("?");
    } else {
      out.push(esc(tMaybe(`words.${tok}`) || tok));
    }
  });
  return out.join(" ");
}

// The same action as plain words ("play King of spades"), for announcements and lists.
export function actionText(text, game) {
  const deck = look(game).deck;
  return text.split(" ").map((tok, i) => {
    if (i === 0) return tMaybe(`verbs.${tok}`) || tok;
    if (isCard(tok)) return cardName(tok, deck);
    if (/^\d+$/.test(tok)) return num(+tok);
    if (/^[CSHD]$/.test(tok)) return t(deck === "italian" ? `suits_italian.${tok}` : `suits.${tok}`);
    return tMaybe(`words.${tok}`) || tok;
  }).join(" ");
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The winner of the trick that has just been completed, from the observation's public
// facts: Sheepshead's `last_trick`, Satat's `won` list, else the leader of the next trick
// (the engines set `leader` to the winner as soon as a trick is complete).
export function lastTrickWinner(obs) {
  const info = (obs && obs.info) || {};
  if (info.last_trick && typeof info.last_trick.winner === "number") return info.last_trick.winner;
  if (Array.isArray(info.won) && info.won.length) {
    const w = info.won[info.won.length - 1];
    if (Array.isArray(w) && typeof w[2] === "number") return w[2];
  }
  if (Array.isArray(info.trick) && info.trick.length === 0 && typeof info.leader === "number") return info.leader;
  return null;
}

// The tricks of a trick-taking deal, from the plays in the history: every seat plays one
// card per trick, so plays group into runs of numSeats. Returns {done: [...], current}.
// A finished trick's winner is the next trick's leader; the last finished trick's winner
// comes from the observation (`obs`, see lastTrickWinner) when no card of the next is down.
export function tricksFromHistory(history, actors, numSeats, obs = null) {
  const plays = [];
  history.forEach((a, i) => {
    const toks = a.split(" ");
    if (toks[0] === "play" && isCard(toks[1])) plays.push({ seat: actors[i], card: toks[1], index: i });
  });
  const done = [];
  for (let i = 0; i + numSeats <= plays.length; i += numSeats) done.push(plays.slice(i, i + numSeats));
  const rest = plays.length % numSeats;
  const current = rest ? plays.slice(plays.length - rest) : [];
  done.forEach((tr, k) => {
    if (k + 1 < done.length) tr.winner = done[k + 1][0].seat;
    else if (current.length) tr.winner = current[0].seat;
    else tr.winner = lastTrickWinner(obs);
  });
  return { done, current, plays };
}

// Card points of some cards, for games whose points the client adds itself (Sheepshead's
// bury, which only the picker sees).
export function cardPoints(cards, game) {
  const table = look(game).cardPoints || {};
  return (cards || []).reduce((s, c) => s + (table[c[0]] || 0), 0);
}

// Facts worth showing in the side panel, as [label, html] pairs.
export function factRows(obs, state, game) {
  const info = { ...(obs.info || {}) };
  const deck = look(game).deck;
  // Sheepshead: the picker's buried cards count for the picker (SHP-8.1); the picker sees
  // them, so the picker's live points include them, and the result's points win at the end
  if (game === "sheepshead" && Array.isArray(info.taken)) {
    const taken = [...info.taken];
    if (obs.result && Array.isArray(obs.result.points)) taken.splice(0, taken.length, ...obs.result.points);
    else if (Array.isArray(info.bury) && info.bury.length && typeof info.picker === "number") taken[info.picker] += cardPoints(info.bury, game);
    info.taken = taken;
  }
  const rows = [];
  for (const key of look(game).facts) {
    if (!(key in info)) continue;
    const v = info[key];
    if (v === null || v === undefined || v === false) continue;
    rows.push([t(`facts.${key}`), valueHTML(key, v, obs, state, deck), key]);
  }
  return rows;
}

export function valueHTML(key, v, obs, state, deck) {
  const seatKeys = ["bidder", "high_bidder", "declarer", "picker", "partner", "trump_maker", "last_capture", "won_by_seat"];
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return esc(t(`values.${v}`));
  if (seatKeys.includes(key) && typeof v === "number") return esc(seatName(state, v));
  if (["won_by", "declarer_team", "winner", "settebello", "re_bello", "capotto"].includes(key) && typeof v === "number") return esc(t("ui.team", { n: v + 1 }));
  if (typeof v === "string") {
    if (/^[CSHD]$/.test(v)) return `<span class="suit-chip">${suitIcon(v, deck, 16)}</span> ${esc(t(deck === "italian" ? `suits_italian.${v}` : `suits.${v}`))}`;
    if (isCard(v)) return cardInline(v, deck, esc(cardName(v, deck)));
    return esc(tMaybe(`values.${v}`) || v);
  }
  if (typeof v === "number") return `<bdi class="n">${num(v)}</bdi>`;
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "number")) return `<span class="pills">${v.map((x) => `<b class="n">${num(x)}</b>`).join("")}</span>`;
    if (v.every((x) => typeof x === "string" && isCard(x))) return v.map((x) => cardInline(x, deck, esc(cardName(x, deck)))).join(" ");
    if (v.every((x) => typeof x === "number" || x === null) && seatKeys.includes(key)) return esc(v.map((x) => (x === null ? "—" : seatName(state, x))).join(", "));
    return esc(JSON.stringify(v));
  }
  return esc(JSON.stringify(v));
}

// Sides of the score: teams in partnership games (score has 2 entries), seats otherwise.
export function sideNames(state, nSides) {
  const n = state.table ? state.table.num_seats : nSides;
  if (nSides === n) return Array.from({ length: n }, (_, i) => ({ label: seatName(state, i), members: "" }));
  return Array.from({ length: nSides }, (_, i) => {
    const members = [];
    for (let s = 0; s < n; s++) if (s % nSides === i) members.push(seatName(state, s));
    return { label: t("ui.team", { n: i + 1 }), members: members.join(" · ") };
  });
}

// Sasku's score sheet draws strokes as tally marks.
export function tally(n) {
  if (n <= 0) return "";
  const five = Math.floor(n / 5);
  const rest = n % 5;
  return `<span class="tally" role="img" aria-label="${esc(t("ui.strokes_n", { n }))}">` + "<s>||||</s> ".repeat(five) + "|".repeat(rest) + "</span>";
}

// ------------------------------------------------------------------ sorting a hand
const FRENCH_SUITS = ["S", "H", "C", "D"]; // black, red, black, red
const ITALIAN_SUITS = ["D", "H", "S", "C"];
const PLAIN = "AKQJT98765432";

function suitsWithTrumpFirst(suits, trump) {
  if (!trump || !suits.includes(trump)) return suits;
  // the trump suit first, then the others alternating colours: other colour, same, other
  const red = (s) => s === "H" || s === "D";
  const rest = suits.filter((s) => s !== trump);
  const other = rest.filter((s) => red(s) !== red(trump));
  const same = rest.filter((s) => red(s) === red(trump));
  return [trump, other[0], ...same, other[1]].filter(Boolean);
}

function orderKeys(game, info) {
  const trump = info && typeof info.trump === "string" && /^[CSHD]$/.test(info.trump) ? info.trump : null;
  if (game === "sheepshead") {
    const trumps = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D"];
    const fail = [];
    for (const s of ["C", "H", "S"]) for (const r of "ATK987") fail.push(r + s);
    return [...trumps, ...fail];
  }
  if (game === "sasku") {
    const out = [];
    if (trump) out.push(`6${trump}`);
    for (const r of "KQJ") for (const s of ["C", "S", "H", "D"]) out.push(r + s);
    for (const s of suitsWithTrumpFirst(FRENCH_SUITS, trump)) for (const r of "AT9876") if (!out.includes(r + s)) out.push(r + s);
    return out;
  }
  if (game === "huutopussi") {
    const out = [];
    for (const s of suitsWithTrumpFirst(FRENCH_SUITS, trump)) for (const r of "ATKQJ9876") out.push(r + s);
    return out;
  }
  if (game === "satat") {
    const out = ["2H"];
    for (const s of suitsWithTrumpFirst(FRENCH_SUITS, trump)) for (const r of PLAIN) if (r + s !== "2H") out.push(r + s);
    return out;
  }
  if (game === "scopone") {
    const out = [];
    for (const s of ITALIAN_SUITS) for (const r of "KQJ765432A") out.push(r + s);
    return out;
  }
  const out = [];
  for (const s of FRENCH_SUITS) for (const r of PLAIN) out.push(r + s);
  return out;
}

// A hand in the game's order: the server's `hand_orders` (from the engine's game card: the
// display order for the trump this seat knows) when it sends them, else the grouping
// here — trumps first, then the plain suits alternating colours, each high to low.
export function sortHand(cards, game, info = null) {
  const g = gameInfo(game);
  const trump = info && typeof info.trump === "string" && /^[CSHD]$/.test(info.trump) ? info.trump : "";
  let order = g && g.hand_orders ? g.hand_orders[trump] || g.hand_orders[""] : null;
  if (!order) order = orderKeys(game, info);
  const idx = new Map(order.map((c, i) => [c, i]));
  const at = (c) => (idx.has(c) ? idx.get(c) : 999 + PLAIN.indexOf(c[0]));
  return [...cards].sort((a, b) => at(a) - at(b));
}
