// Presentation over the engine's facts: the pack's look, the direction of play on screen,
// which public facts to show, and how an action reads in words. Every per-game fact comes
// from the game's own card (`/api/games` → `card`, the engine's `GameCard.to_dict()`, and
// `variant_cards` for variants it differs under); this client keeps no table of games.
import { t, tMaybe, num, cardName, has } from "./i18n.js";
import { cardInline, suitIcon } from "./cards.js";

let serverGames = null;

// The server's game list (`/api/games`), for the facts it carries.
export function setGames(g) {
  serverGames = g;
}

export function gameInfo(game) {
  return serverGames && serverGames.games ? serverGames.games.find((x) => x.name === game) : null;
}

// The game card of `game` under `variant` (the table's; default: the variant of the table
// on screen when it is that game's): the card of the first option the variant sets to a
// value with a card of its own (`variant_cards`, keyed `option=json`), else the default
// variant's card; null when the server sends none.
export function gameCard(game, variant = undefined) {
  const g = gameInfo(game);
  if (!g || !g.card) return null;
  const v = variant !== undefined ? variant : context.game === game && context.state && context.state.table ? context.state.table.variant : null;
  if (v && g.variant_cards) {
    for (const [key, card] of Object.entries(g.variant_cards)) {
      const at = key.indexOf("=");
      const opt = key.slice(0, at);
      if (opt in v && JSON.stringify(v[opt]) === key.slice(at + 1)) return card;
    }
  }
  return g.card;
}

const NO_CARD = { deck: "french", clockwise: true, facts: ["trump", "points", "tricks"], cardPoints: null, tally: false, fishing: false, phaseCards: {} };

// The facts a table is drawn by, read from the game card: the pack (`deck`), the direction
// of play, the side panel's `facts`, the `points` key of each side's card points, the
// `cardPoints` of a rank where the client may add cards up (null where it may not), the
// score sheet in strokes (`tally`), a table game without tricks (`fishing`: Scopone), and
// the cards a phase hands over one by one (`phaseCards`, for "1 of 3").
export function look(game, variant = undefined) {
  const c = gameCard(game, variant);
  if (!c) return NO_CARD;
  return {
    deck: c.pack,
    clockwise: c.direction === "clockwise",
    facts: c.fact_keys || [],
    points: c.points_key || undefined,
    cardPoints: c.card_points && Object.keys(c.card_points).length ? c.card_points : null,
    tally: !!c.tally,
    fishing: c.tricks === false,
    phaseCards: c.phase_cards || {},
  };
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
  const L = look(game);
  const deck = L.deck;
  // The card points each side has taken (the card's `points` key), where a side's points are
  // its cards' values (`cardPoints`): the result's points win at the end; before it, the
  // cards the picker buried count for the picker (Sheepshead, SHP-5.2), who alone sees
  // them, so the picker's live points include them
  const pk = L.points;
  if (pk && L.cardPoints && Array.isArray(info[pk])) {
    const pts = [...info[pk]];
    if (obs.result && Array.isArray(obs.result.points)) pts.splice(0, pts.length, ...obs.result.points);
    else if (Array.isArray(info.bury) && info.bury.length && typeof info.picker === "number") pts[info.picker] += cardPoints(info.bury, game);
    info[pk] = pts;
  }
  const rows = [];
  for (const key of L.facts) {
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
const PLAIN = "AKQJT98765432";
const FRENCH_ORDER = ["S", "H", "C", "D"].flatMap((s) => [...PLAIN].map((r) => r + s));

// A hand in the game's order: the server's `hand_orders` (from the engine's game card: the
// display order for the trump this seat knows — the trump group first, then each suit high
// to low), else the pack's plain order.
export function sortHand(cards, game, info = null) {
  const g = gameInfo(game);
  const trump = info && typeof info.trump === "string" && /^[CSHD]$/.test(info.trump) ? info.trump : "";
  const order = (g && g.hand_orders ? g.hand_orders[trump] || g.hand_orders[""] : null) || FRENCH_ORDER;
  const idx = new Map(order.map((c, i) => [c, i]));
  const at = (c) => (idx.has(c) ? idx.get(c) : 999 + PLAIN.indexOf(c[0]));
  return [...cards].sort((a, b) => at(a) - at(b));
}

// ------------------------------------------------------------------ explanations
// The context that explanations and narration are said in: the game, its pack and the
// table (for seat names); TableView.render keeps it current.
const context = { game: null, deck: "french", state: null };

export function setContext(game, state) {
  context.game = game;
  context.state = state;
  context.deck = look(game).deck;
}

function suitWords(s, deck) {
  if (s === "trump") return t("narrate.trumps");
  return t(deck === "italian" ? `suits_italian.${s}` : `suits.${s}`);
}

// "a, b or c" in the current language
function orList(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(t("ui.sep")) + t("narrate.or") + items[items.length - 1];
}

// an action form of `expected` ("bid N", "play C") in words: its verb, the rest as is
function formWords(form) {
  const [verb] = form.split(" ");
  return tMaybe(`verbs.${verb}`) || verb;
}

// one parameter of an explanation in words: cards named, suits and phases translated,
// actions said as the player's move ("play King of spades"), numbers in the language's digits
export function paramWords(key, v, code, deck = context.deck, game = context.game) {
  if (v === null || v === undefined) return "—";
  if (key === "seat" && typeof v === "number") return context.state ? seatName(context.state, v) : t("ui.seat", { n: v + 1 });
  if (typeof v === "number") return num(v);
  if (key === "suit" && typeof v === "string") return suitWords(v, deck);
  if (key === "phase") return tMaybe(`phases.${v}`) || String(v);
  if (key === "action" || key === "legal") {
    const list = Array.isArray(v) ? v : [v];
    return list.map((a) => actionText(String(a), game)).join(t("ui.sep"));
  }
  if (key === "expected" && Array.isArray(v)) return orList(v.map(formWords));
  if (Array.isArray(v)) {
    const names = v.map((x) => (typeof x === "string" && isCard(x) ? cardName(x, deck) : String(x)));
    return code === "must_take_single" ? orList(names) : names.join(t("ui.sep"));
  }
  if (typeof v === "string" && isCard(v)) return cardName(v, deck);
  return String(v);
}

// An explanation ({code, params, rules, text}) in the player's words and language, from the
// player's point of view: the client's template of the code (lang/<code>.js `explain`),
// filled with the params in words; the engine's English text when the code is unknown.
// The rule IDs are not part of it (ruleLinks draws them).
export function renderExplanation(ex, deck = context.deck, game = context.game) {
  if (!ex) return "";
  const tpl = ex.code ? tMaybe(`explain.${ex.code}`) : undefined;
  if (tpl === undefined) return ex.text || ex.message || "";
  const params = ex.params || {};
  return String(tpl).replace(/\{(\w+)\}/g, (_, k) => paramWords(k, params[k], ex.code, deck, game));
}

// The seat's task ({code, params, rules, text}: the engine's `obs.task`) in the player's
// words and language: the catalogs' `tasks.<code>` (its `_one` form for a count of 1),
// filled with the params in words — seats by name, cards named, the numbers on offer as a
// range, a suit translated (null: "a suit"), the way cards pass; null when the code has no
// template (the caller falls back to the phase's prompt).
const TASK_SEATS = new Set(["giver", "to", "asker", "bidder", "declarer", "leader"]);

export function renderTask(task, state = context.state, deck = context.deck) {
  if (!task || !task.code) return null;
  const p = task.params || {};
  const one = `tasks.${task.code}_one`;
  const tpl = p.count === 1 && has(one) ? tMaybe(one) : tMaybe(`tasks.${task.code}`);
  if (tpl === undefined || typeof tpl !== "string") return null;
  return tpl.replace(/\{(\w+)\}/g, (_, k) => taskWords(k, p[k], state, deck));
}

function taskWords(key, v, state, deck) {
  if (TASK_SEATS.has(key)) return typeof v === "number" ? (state ? seatName(state, v) : t("ui.seat", { n: v + 1 })) : "—";
  if (key === "suit") return typeof v === "string" ? suitWords(v, deck) : t("tasks.words.a_suit");
  if (key === "side") return t(`tasks.words.side_${v}`);
  if (key === "phase") return tMaybe(`phases.${v}`) || String(v);
  if (key === "cards" && Array.isArray(v)) return orList(v.map((c) => cardName(String(c), deck)));
  if (Array.isArray(v)) return numberRange(v);
  if (typeof v === "string" && isCard(v)) return cardName(v, deck);
  if (typeof v === "number") return num(v);
  return v === null || v === undefined ? "—" : String(v);
}

// numbers on offer: "5–7", "65–440 in steps of 5", else the list
function numberRange(ns) {
  const xs = [...ns].sort((a, b) => a - b);
  if (xs.length <= 1) return xs.map(num).join("");
  const steps = new Set(xs.slice(1).map((x, i) => x - xs[i]));
  if (steps.size !== 1) return xs.map(num).join(t("ui.sep"));
  const step = [...steps][0];
  const range = `${num(xs[0])}–${num(xs[xs.length - 1])}`;
  return step === 1 ? range : t("tasks.words.range_steps", { range, step });
}

// the guide's index (rule → section), fetched once
let guideIndex = null;
export async function guideSections(game) {
  if (guideIndex === null) {
    guideIndex = fetch("/guide/index.json").then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  }
  const idx = await guideIndex;
  return (idx && idx.games && idx.games[game] && idx.games[game].sections) || [];
}

// the section of the guide that states `rule` ("SAS-10.3"): the one citing the longest
// prefix of it ("SAS-10.3", else "SAS-10")
export function sectionOf(sections, rule) {
  let best = null;
  let len = -1;
  for (const s of sections) {
    for (const r of s.rules || []) {
      if ((rule === r || rule.startsWith(`${r}.`)) && r.length > len) {
        best = s;
        len = r.length;
      }
    }
  }
  return best;
}

// rule IDs as links to the guide's section (a click opens the rules at it: table.js)
export function ruleLinks(rules, game = context.game) {
  const list = (Array.isArray(rules) ? rules : String(rules || "").split(/,\s*/)).filter(Boolean);
  if (!list.length) return "";
  return `<span class="rule-refs" dir="ltr">(${list.map((r) => `<a href="#rule-${esc(r)}" class="rule-link" data-rule="${esc(r)}" data-game="${esc(game || "")}">${esc(r)}</a>`).join(", ")})</span>`;
}

// ------------------------------------------------------------------ narration
// a seat in narration: its name (the player's own too: "Kadri wins the trick" reads in
// every language, where "You" would need its own verb forms)
function who(state, seat) {
  if (typeof seat !== "number") return "";
  return seatName(state, seat);
}

function place(state, x, me, object = false) {
  if (typeof x === "number") return x === me ? t(object ? "narrate.you_object" : "narrate.you") : who(state, x);
  return tMaybe(`narrate.pile_${x}`) || String(x);
}

function cardsWords(cards, deck) {
  return (cards || []).map((c) => cardName(c, deck)).join(t("ui.sep"));
}

// One event in words, as the viewer `me` sees it: {text, note?, cls?, sound?, log?}, or
// null for an event that is said otherwise (a card played: the move log has it).
// `note` is the short line shown on the felt for a moment.
export function narrateEvent(e, state, game, me) {
  const deck = look(game).deck;
  const name = (s) => who(state, s);
  switch (e.kind) {
    case "bid": {
      const key = e.action === "bid" ? "narrate.bid" : has(`narrate.bid_${e.action}`) ? `narrate.bid_${e.action}` : null;
      const text = key ? t(key, { name: name(e.seat), value: num(e.value) }) : `${name(e.seat)}: ${actionText(e.action, game)}`;
      return { text, cls: "bid" };
    }
    case "call":
      return { text: t("narrate.call", { name: name(e.seat), call: actionText(String(e.call), game) }), cls: "call" };
    case "trump": {
      if (!e.suit) return e.how === "hidden" ? { text: t("narrate.trump_hidden", { name: name(e.seat) }), cls: "trump" } : null;
      const suit = suitWords(e.suit, deck);
      let text;
      if (e.how === "marriage" || e.how === "half" || e.how === "declare") {
        text = t(e.how === "half" ? "narrate.trump_half" : "narrate.trump_marriage", { name: name(e.seat), suit, value: num(e.value || 0) });
      } else if (typeof e.seat === "number") text = t("narrate.trump_by", { name: name(e.seat), suit });
      else text = t("narrate.trump", { suit });
      return { text, note: t("narrate.trump", { suit }), cls: "trump", sound: "turn" };
    }
    case "contract": {
      let text;
      const d = name(e.declarer);
      if (e.mode === "leaster" || e.mode === "doubler" || e.mode === "all_pass") text = t(`narrate.contract_${e.mode}`);
      else if (e.mode === "alone") text = t("narrate.contract_alone", { name: d });
      else if (e.called) text = t("narrate.contract_called", { name: d, card: cardName(e.called, deck) });
      else if (typeof e.contract === "number") text = t("narrate.contract_value", { name: d, contract: num(e.contract) });
      else if (typeof e.bid === "number") text = t("narrate.contract_bid", { name: d, bid: num(e.bid) });
      else if (typeof e.declarer === "number") text = t("narrate.contract", { who: d });
      else return null;
      if (e.trump && /^[CSHD]$/.test(e.trump)) text += ` · ${t("narrate.trump", { suit: suitWords(e.trump, deck) })}`;
      if (typeof e.partner === "number" && e.partner === me && e.declarer !== me) text += ` · ${t("narrate.contract_partner", { name: d })}`;
      return { text, note: text, cls: "contract" };
    }
    case "pass_cards": {
      const from = place(state, e.from, me);
      const to = place(state, e.to, me, true);
      const text = Array.isArray(e.cards) && e.cards.length
        ? t("narrate.pass_cards_seen", { from, to, cards: cardsWords(e.cards, deck) })
        : t("narrate.pass_cards", { from, to, n: e.count });
      return { text, note: text, cls: "pass" };
    }
    case "pass_chosen":
      return Array.isArray(e.cards) ? { text: t("narrate.pass_chosen", { cards: cardsWords(e.cards, deck), to: place(state, e.to, me, true) }), cls: "pass" } : null;
    case "partner":
      return { text: t("narrate.partner", { name: name(e.seat), card: cardName(e.card, deck) }), note: t("narrate.partner", { name: name(e.seat), card: cardName(e.card, deck) }), cls: "partner" };
    case "ask":
      return { text: t("narrate.ask", { name: name(e.seat), what: actionText(["ask", e.ask, e.suit].filter(Boolean).join(" "), game).replace(/^\S+\s*/, "") || String(e.ask) }), cls: "call" };
    case "answer":
      return { text: t("narrate.answer", { name: name(e.seat), what: /^[CSHD]$/.test(e.answer) ? suitWords(e.answer, deck) : tMaybe(`words.${e.answer}`) || String(e.answer) }), cls: "call" };
    case "capture":
      return { text: t("narrate.capture", { name: name(e.seat), card: cardName(e.card, deck), cards: cardsWords(e.cards, deck) }), cls: "capture" };
    case "sweep":
      return { text: t("narrate.sweep", { name: name(e.seat) }), note: t("ui.scopa"), cls: "scopa", sound: "sweep" };
    case "leftover":
      return e.cards && e.cards.length ? { text: t("narrate.leftover", { name: name(e.seat) }), cls: "capture" } : null;
    case "trick": {
      const n = (e.points || 0) + (e.bonus || 0);
      let text;
      if (typeof e.points !== "number") text = t("narrate.trick", { name: name(e.winner) });
      else if (e.bonus) text = t("narrate.trick_bonus", { name: name(e.winner), n, bonus: e.bonus });
      else text = t("narrate.trick_points", { name: name(e.winner), n });
      return { text, note: text, cls: "trick", sound: "trick" };
    }
    default:
      return null;
  }
}

// ------------------------------------------------------------------ the deal's breakdown
export function reasonWords(r, nSides = 2) {
  if (!r) return "";
  const team = /^team \d+$/.test(String(r.who)) && typeof r.side === "number" && context.state;
  const sides = team ? sideNames(context.state, nSides) : null;
  const whoWord = sides && sides[r.side] ? sides[r.side].label : tMaybe(`narrate.who_${String(r.who).replace(/ /g, "_")}`) || String(r.who);
  const measure = tMaybe(`narrate.measure_${r.measure}`) || String(r.measure);
  const op = { "<": "<", "<=": "≤", "=": "=", ">=": "≥", ">": ">" }[r.op] || r.op;
  return `${whoWord} ${num(r.value)} ${op} ${num(r.target)} (${measure})`;
}

// The deal's score from its `deal_end` event: the outcome and the deciding comparison
// ("declarers 52 < 61"), each component in words with its points per side, and where the
// card points came from (the cards, in a game without card points: Scopone); in a <details> the player can fold.
export function breakdownHTML(end, state, game, open = true) {
  if (!end) return "";
  const score = end.score || [];
  const names = sideNames(state, score.length);
  const outcome = end.outcome ? tMaybe(`narrate.outcome_${end.outcome}`) || String(end.outcome) : "";
  const reason = end.reason ? `<p class="bd-reason"><b>${esc(t("narrate.why"))}:</b> <bdi class="n" dir="auto">${esc(reasonWords(end.reason, score.length))}</bdi> ${ruleLinks(end.reason.rule ? [end.reason.rule] : [], game)}</p>` : "";
  const head = `<tr><th scope="col"><span class="sr">${esc(t("ui.field"))}</span></th>${names.map((x) => `<th scope="col"><bdi>${esc(x.label)}</bdi></th>`).join("")}</tr>`;
  const rows = (end.components || []).map((c) => {
    const label = tMaybe(`narrate.comp_${c.name}`) || c.name;
    const pts = Array.isArray(c.points) ? c.points : [];
    return `<tr data-component="${esc(c.name)}"><th scope="row">${esc(label)}${c.rule ? ` ${ruleLinks([c.rule], game)}` : ""}</th>${pts.map((x) => `<td class="n">${x > 0 ? "+" : ""}${num(x)}</td>`).join("")}</tr>`;
  }).join("");
  const total = `<tr class="score-row"><th scope="row">${esc(t("result.score"))}</th>${score.map((x) => `<td class="n">${x > 0 ? "+" : ""}${num(x)}</td>`).join("")}</tr>`;
  let from = "";
  if (end.points_from && typeof end.points_from === "object") {
    const parts = Object.entries(end.points_from).filter(([, v]) => Array.isArray(v));
    if (parts.length) from = `<tr class="bd-from"><th scope="rowgroup" colspan="${score.length + 1}">${esc(t(look(game).points ? "narrate.points_from" : "narrate.cards_from"))}</th></tr>${parts.map(([k, v]) => `<tr class="bd-from"><th scope="row">${esc(tMaybe(`narrate.from_${k}`) || k)}</th>${v.map((x) => `<td class="n">${num(x)}</td>`).join("")}</tr>`).join("")}`;
  }
  const table = rows || from ? `<div class="table-scroll"><table class="breakdown-table deal-breakdown-table"><thead>${head}</thead><tbody>${rows}${total}${from}</tbody></table></div>` : "";
  return `<details class="deal-breakdown"${open ? " open" : ""}><summary>${esc(t("narrate.breakdown"))}${outcome ? ` — ${esc(outcome)}` : ""}</summary>${reason}${table}</details>`;
}
