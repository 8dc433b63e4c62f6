// Per-game presentation that the engine does not decide: the pack's look, the direction
// of play on screen, which public facts to show, and how an action reads in words.
// Everything else is generic over the engine's observation.
import { t, tMaybe, num } from "./i18n.js";
import { cardInline, suitIcon } from "./cards.js";

const GAME_LOOK = {
  sasku: { deck: "french", clockwise: true, facts: ["trump", "bid", "bidder", "declarer", "points", "tricks"], tally: true },
  scopone: { deck: "italian", clockwise: false, facts: ["sweeps"], fishing: true },
  sheepshead: { deck: "french", clockwise: true, facts: ["picker", "called", "partner", "mode", "stake", "taken", "tricks"] },
  satat: { deck: "french", clockwise: true, facts: ["trump", "trump_maker", "tricks"] },
  huutopussi: { deck: "french", clockwise: true, facts: ["trump", "high_bid", "high_bidder", "declarer", "contract", "points", "tricks"] },
};

export function look(game) {
  return GAME_LOOK[game] || { deck: "french", clockwise: true, facts: ["trump", "points", "tricks"] };
}

export const CARD_RE = /^([AKQJT98765432])([CSHD])$/;

export function isCard(tok) {
  return CARD_RE.test(tok);
}

export function seatName(state, seat) {
  const s = state.seats && state.seats[seat];
  if (s && s.kind === "bot") return `${t("ui.bot")} ${num(seat + 1)}`;
  return (s && s.name) || t("ui.seat", { n: seat + 1 });
}

// An action text as words: verb and words translated, cards drawn inline, numbers localized.
export function actionLabel(text, game) {
  const deck = look(game).deck;
  const toks = text.split(" ");
  const out = [];
  toks.forEach((tok, i) => {
    if (i === 0) {
      out.push(esc(tMaybe(`verbs.${tok}`) || tok));
    } else if (isCard(tok)) {
      out.push(cardInline(tok, deck));
    } else if (/^\d+$/.test(tok)) {
      out.push(num(+tok));
    } else if (/^[CSHD]$/.test(tok)) {
      out.push(`${suitIcon(tok, deck, 14)} ${esc(t(deck === "italian" ? `suits_italian.${tok}` : `suits.${tok}`))}`);
    } else if (tok === "?") {
      out.push("?");
    } else {
      out.push(esc(tMaybe(`words.${tok}`) || tok));
    }
  });
  return out.join(" ");
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The tricks of a trick-taking deal, from the plays in the history: every seat plays one
// card per trick, so plays group into runs of numSeats. Returns {done: [...], current}.
export function tricksFromHistory(history, actors, numSeats) {
  const plays = [];
  history.forEach((a, i) => {
    const toks = a.split(" ");
    if (toks[0] === "play" && isCard(toks[1])) plays.push({ seat: actors[i], card: toks[1], index: i });
  });
  const done = [];
  for (let i = 0; i + numSeats <= plays.length; i += numSeats) done.push(plays.slice(i, i + numSeats));
  const rest = plays.length % numSeats;
  const current = rest ? plays.slice(plays.length - rest) : [];
  // a finished trick's winner is the leader of the next one (when there is one)
  done.forEach((tr, k) => {
    tr.winner = k + 1 < done.length ? done[k + 1][0].seat : k + 1 === done.length && current.length ? current[0].seat : null;
  });
  return { done, current, plays };
}

// Facts worth showing in the side panel, as [label, html] pairs.
export function factRows(obs, state, game) {
  const info = obs.info || {};
  const deck = look(game).deck;
  const rows = [];
  for (const key of look(game).facts) {
    if (!(key in info)) continue;
    const v = info[key];
    if (v === null || v === undefined || v === false) continue;
    rows.push([t(`facts.${key}`), valueHTML(key, v, obs, state, deck)]);
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
    if (/^[CSHD]$/.test(v)) return `${suitIcon(v, deck, 16)} ${esc(t(deck === "italian" ? `suits_italian.${v}` : `suits.${v}`))}`;
    if (isCard(v)) return cardInline(v, deck);
    return esc(tMaybe(`values.${v}`) || v);
  }
  if (typeof v === "number") return `<span class="n">${num(v)}</span>`;
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "number")) return `<span class="pills">${v.map((x) => `<b class="n">${num(x)}</b>`).join("")}</span>`;
    if (v.every((x) => typeof x === "string" && isCard(x))) return v.map((x) => cardInline(x, deck)).join(" ");
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
  return "<span class=tally>" + "<s>||||</s> ".repeat(five) + "|".repeat(rest) + "</span>";
}
