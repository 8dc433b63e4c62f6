// The browser client: lobby, table and replay pages over the server's JSON API and its
// websocket protocol (docs/web.md). No build step: plain ES modules.
import { t, num, setLang, lang, initLang, LANGS } from "./i18n.js";
import { TableView, tickClocks, explainText, positionOf, samePosition } from "./table.js";
import { esc, actionText, setGames, seatName, look } from "./present.js";
import { ReplayView } from "./replay.js";
import { announce, toast, openDialog, dialogOpen, setting, setSetting, applySettings, copyText, sound } from "./ui.js";
import { loadGuide, optionField as optionText, choiceLabel, gameAbout, rulesHTML, jumpToPhase } from "./guide.js";
import { remember, history as myGames, forget } from "./history.js";

const app = document.getElementById("app");
let games = null;
let current = null; // the page object with .show() and .close()

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ ok: false, message: res.statusText }));
  if (!res.ok || data.ok === false) {
    const err = new Error(data.message || res.statusText);
    err.status = res.status;
    err.code = data.error;
    throw err;
  }
  return data;
}

function seatStore(id) {
  try {
    return JSON.parse(localStorage.getItem(`fc.seat.${id}`) || "null");
  } catch {
    return null;
  }
}

function header() {
  const opts = Object.entries(LANGS).map(([code, d]) => `<option value="${code}" ${code === lang() ? "selected" : ""}>${esc(d.name)}</option>`).join("");
  return `<a class="skip" href="#main">${esc(t("ui.skip_to_main"))}</a>
    <header class="top"><a class="logo" href="/" data-link><span aria-hidden="true">♠♥</span> <span class="logo-text">${esc(t("ui.app"))}</span></a>
    <nav aria-label="${esc(t("ui.site_nav"))}"><a href="/" data-link>${esc(t("ui.lobby"))}</a><a href="/#my-games" data-link>${esc(t("ui.my_games"))}</a><a href="/replay" data-link>${esc(t("ui.replays"))}</a>
    <button type="button" class="btn ghost small" id="btn-keys" aria-label="${esc(t("ui.keyboard_help"))}" title="${esc(t("ui.keyboard_help"))}" aria-keyshortcuts="?"><span aria-hidden="true">⌨</span></button>
    <button type="button" class="btn ghost small" id="btn-settings" aria-label="${esc(t("ui.settings"))}" title="${esc(t("ui.settings"))}"><span aria-hidden="true">⚙</span><span class="btn-text" aria-hidden="true">${esc(t("ui.settings"))}</span></button>
    <label class="lang"><span class="sr">${esc(t("ui.language"))}</span><select id="lang-select">${opts}</select></label></nav></header>`;
}

function bindHeader() {
  document.getElementById("lang-select").addEventListener("change", async (e) => {
    setLang(e.target.value);
    route();
    if (await loadGuide(lang())) route(); // the guide's labels in the new language
  });
  document.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault();
    go(a.getAttribute("href"));
  }));
  document.getElementById("btn-keys").addEventListener("click", () => keysDialog());
  document.getElementById("btn-settings").addEventListener("click", () => settingsDialog());
}

function keysDialog() {
  const rows = [
    ["Tab", t("keys.tab")], ["← → Home End", t("keys.arrows")], ["Enter / Space", t("keys.enter")],
    ["C", t("keys.c")], ["1 … 9", t("keys.digits")], ["P", t("keys.p")], ["H", t("keys.h")], ["L", t("keys.l")],
    ["T", t("keys.t")], ["R", t("keys.r")], ["N", t("keys.n")], ["I", t("keys.i")], ["?", t("keys.help")], ["Esc", t("keys.esc")],
    ["← →", t("keys.replay")],
  ];
  openDialog({
    title: esc(t("ui.keyboard_help")),
    body: `<p>${esc(t("keys.intro"))}</p><table class="keys"><tbody>${rows.map(([k, v]) => `<tr><th scope="row"><kbd dir="ltr">${esc(k)}</kbd></th><td>${esc(v)}</td></tr>`).join("")}</tbody></table>
      <button type="button" class="btn ok" autofocus>${esc(t("ui.ok"))}</button>`,
    bind: (d) => d.querySelector(".ok").addEventListener("click", () => d.close()),
  });
}

function settingsDialog() {
  const box = (name, label, help) => `<label class="check"><input type="checkbox" data-setting="${name}" ${setting(name) ? "checked" : ""}> <span>${esc(label)}<small class="help">${esc(help)}</small></span></label>`;
  openDialog({
    title: esc(t("ui.settings")),
    body: `<div class="settings">${box("fourColour", t("ui.four_colour"), t("ui.four_colour_help"))}${box("sound", t("ui.sound"), t("ui.sound_help"))}${box("bigCards", t("ui.big_cards"), t("ui.big_cards_help"))}</div>
      <button type="button" class="btn ok">${esc(t("ui.ok"))}</button>`,
    bind: (d) => {
      d.querySelectorAll("[data-setting]").forEach((el) => el.addEventListener("change", () => {
        setSetting(el.dataset.setting, el.checked);
        if (el.dataset.setting === "sound" && el.checked) sound("turn");
        if (current && current.rerender) current.rerender();
      }));
      d.querySelector(".ok").addEventListener("click", () => d.close());
    },
  });
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", () => route());

async function route() {
  if (current && current.close) current.close();
  current = null;
  const path = location.pathname;
  if (!games) {
    games = await api("/api/games");
    setGames(games);
  }
  const m = path.match(/^\/t\/([\w-]+)/);
  if (m) current = new TablePage(m[1]);
  else if (path.startsWith("/replay")) current = new ReplayPage();
  else current = new LobbyPage();
  current.show();
  document.title = current.title ? `${current.title} · folkcards` : "folkcards";
}

// global keys of a page, unless the player is typing or a dialog has the keys
function keyTarget(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || (e.target && e.target.isContentEditable)) return false;
  return !dialogOpen();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "?" && keyTarget(e)) {
    e.preventDefault();
    keysDialog();
  }
});

// ---------------------------------------------------------------- lobby
class LobbyPage {
  constructor() {
    this.game = localStorage.getItem("fc.lastGame") || (games.games[0] && games.games[0].name);
    if (!games.games.some((g) => g.name === this.game)) this.game = games.games[0].name;
    this.timer = null;
  }

  close() {
    clearInterval(this.timer);
  }

  gameInfo() {
    return games.games.find((g) => g.name === this.game) || games.games[0];
  }

  show() {
    const g = this.gameInfo();
    const name = localStorage.getItem("fc.name") || "";
    app.innerHTML = `${header()}<main class="lobby" id="main" tabindex="-1">
      <h1 class="sr">${esc(t("ui.app"))} — ${esc(t("ui.lobby"))}</h1>
      <section class="card-panel create" aria-labelledby="new-h"><h2 id="new-h">${esc(t("ui.new_table"))}</h2>
        <form id="create" novalidate>
          <fieldset class="game-fs"><legend>${esc(t("ui.game"))}</legend>
          <div class="game-pick">${games.games.map((x) => `<label class="game-tile ${x.name === g.name ? "on" : ""}"><input type="radio" class="vh" name="game" value="${x.name}" ${x.name === g.name ? "checked" : ""}><b>${esc(t(`games.${x.name}`))}</b><small>${esc(t("ui.players_n", { n: x.seats }))}</small></label>`).join("")}</div>
          <p class="about" id="game-about">${esc(gameAbout(g.name))}</p></fieldset>
          <div class="field"><label for="f-name">${esc(t("ui.your_name"))}</label> <input id="f-name" name="name" maxlength="32" value="${esc(name)}" required autocomplete="nickname" aria-describedby="f-name-err"><span class="error" id="f-name-err" role="alert"></span></div>
          <div class="field"><label for="f-title">${esc(t("ui.title"))}</label> <input id="f-title" name="title" maxlength="40" placeholder="${esc(t("ui.title_placeholder"))}"></div>
          <fieldset><legend>${esc(t("ui.options"))}</legend>${g.options.map((o) => optionField(g.name, o)).join("")}
            ${plainField("mode", t("ui.mode"), t("ui.mode_help"), `<select id="o-mode" name="mode"><option value="match">${esc(t("ui.mode_match"))}</option><option value="deal">${esc(t("ui.mode_deal"))}</option></select>`)}
            ${plainField("turn_clock", t("ui.turn_clock"), t("ui.turn_clock_help"), `<select id="o-turn_clock" name="turn_clock"><option value="">${esc(t("ui.clock_off"))}</option>${[15, 30, 60, 120].map((s) => `<option value="${s}">${esc(t("ui.seconds", { n: s }))}</option>`).join("")}</select>`)}
            ${plainField("bot_delay", t("ui.bot_speed"), t("ui.bot_speed_help"), `<select id="o-bot_delay" name="bot_delay"><option value="0.25">${esc(t("ui.speed_fast"))}</option><option value="0.7" selected>${esc(t("ui.speed_normal"))}</option><option value="1.5">${esc(t("ui.speed_slow"))}</option></select>`)}
            ${plainField("grace", t("ui.grace"), t("ui.grace_help"), `<select id="o-grace" name="grace">${[10, 30, 60, 180].map((s) => `<option value="${s}" ${s === 30 ? "selected" : ""}>${esc(t("ui.seconds", { n: s }))}</option>`).join("")}</select>`)}
          </fieldset>
          <fieldset><legend>${esc(t("ui.seats"))}</legend><div class="seat-rows">${this.seatRows(g.seats)}</div></fieldset>
          <button class="btn primary big" type="submit">${esc(t("ui.create"))}</button>
          <p class="error" role="alert" hidden></p>
        </form></section>
      <div class="lobby-side">
      <section class="card-panel tables" aria-labelledby="open-h"><h2 id="open-h">${esc(t("ui.open_tables"))}</h2><div id="table-list" aria-live="polite"></div></section>
      <section class="card-panel mine" id="my-games" aria-labelledby="mine-h" tabindex="-1"><h2 id="mine-h">${esc(t("ui.my_games"))}</h2><div id="mine-list"></div></section>
      </div>
      <p class="tagline">${esc(t("ui.tagline"))}</p></main>`;
    bindHeader();
    const form = document.getElementById("create");
    form.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", () => {
      this.game = r.value;
      localStorage.setItem("fc.lastGame", this.game);
      this.show();
      const again = document.querySelector(`input[name=game][value="${r.value}"]`);
      if (again) again.focus();
    }));
    form.querySelectorAll("[data-opt-key=players]").forEach((el) => el.addEventListener("change", () => {
      form.querySelector(".seat-rows").innerHTML = this.seatRows(+el.value);
    }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create(form);
    });
    this.showMine();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 4000);
    if (location.hash === "#my-games") document.getElementById("my-games").focus();
  }

  seatRows(n) {
    const lv = games.levels;
    let h = "";
    for (let s = 0; s < n; s++) {
      const label = `${t("ui.seat", { n: s + 1 })}${s === 0 ? ` (${t("ui.you")})` : ""}`;
      h += `<div class="seat-row"><span id="seat-l${s}">${esc(label)}</span>
        ${s === 0 ? `<input type="hidden" name="kind${s}" value="human">` : `<select name="kind${s}" aria-labelledby="seat-l${s}"><option value="bot">${esc(t("ui.bot"))}</option><option value="human">${esc(t("ui.human"))}</option></select>`}
        <select name="level${s}" aria-label="${esc(`${label}: ${t("ui.level")}`)}" ${s === 0 ? "hidden" : ""}>${lv.map((l) => `<option value="${l}" ${l === games.default_level ? "selected" : ""}>${esc(t(`ui.level_${l}`))}</option>`).join("")}</select></div>`;
    }
    return h;
  }

  async create(form) {
    const g = this.gameInfo();
    const fd = new FormData(form);
    const name = String(fd.get("name") || "").trim().replace(/\s+/g, " ");
    const err = form.querySelector("#f-name-err");
    if (!name) {
      err.textContent = t("ui.name_required");
      form.querySelector("#f-name").setAttribute("aria-invalid", "true");
      form.querySelector("#f-name").focus();
      return;
    }
    err.textContent = "";
    const variant = {};
    for (const o of g.options) {
      const el = form.querySelector(`[data-opt-key="${o.key}"]`);
      let v;
      if (o.type === "bool") v = el.checked;
      else if (o.type === "int") v = parseInt(el.value, 10);
      else v = el.value;
      if (o.type !== "bool" && o.type !== "int" && o.choices) v = o.choices.find((c) => String(c) === el.value);
      if (o.type === "int" && o.choices) v = +el.value;
      if (v !== o.default) variant[o.key] = v;
    }
    const rows = form.querySelectorAll(".seat-row");
    const seats = [...rows].map((_, s) => ({ kind: fd.get(`kind${s}`), level: fd.get(`level${s}`) }));
    localStorage.setItem("fc.name", name);
    const clock = fd.get("turn_clock");
    const title = String(fd.get("title") || "").trim();
    const options = { mode: fd.get("mode"), turn_clock: clock ? +clock : null, grace: +fd.get("grace"), bot_delay: +fd.get("bot_delay") };
    try {
      const id = await createTable({ game: g.name, variant, seats, name, options, title: title || undefined });
      go(`/t/${id}`);
    } catch (e) {
      const p = form.querySelector("p.error");
      p.hidden = false;
      p.textContent = e.message;
    }
  }

  showMine() {
    const el = document.getElementById("mine-list");
    const list = myGames();
    if (!list.length) {
      el.innerHTML = `<p class="muted">${esc(t("ui.no_games_yet"))}</p>`;
      return;
    }
    const fmt = new Intl.DateTimeFormat(lang() === "fa" ? "fa-IR" : undefined, { dateStyle: "medium", timeStyle: "short" });
    el.innerHTML = `<ul class="table-list mine-list">${list.slice(0, 30).map((g) => {
      const last = g.deals.length ? g.deals[g.deals.length - 1] : null;
      const res = g.over ? (g.winnerLabel ? t("ui.winner_is", { who: g.winnerLabel }) : t("ui.match_over")) : last ? t("ui.deal_n_score", { n: last.k + 1, score: last.score.map((x) => num(x)).join(" : ") }) : t(`ui.${g.status || "open"}`);
      const replays = g.deals.map((d) => `<a class="btn small" href="/replay?table=${encodeURIComponent(g.id)}&deal=${d.k}" data-go aria-label="${esc(t("ui.replay_deal_n", { n: d.k + 1 }))}">${esc(t("ui.replay"))} ${num(d.k + 1)}</a>`).join("");
      return `<li><div><b><bdi>${esc(g.title || t(`games.${g.game}`))}</bdi></b> <span class="muted">${esc(t(`games.${g.game}`))} · <time datetime="${new Date(g.created).toISOString()}">${esc(fmt.format(new Date(g.created)))}</time></span>
        <div class="muted">${esc(res)}</div></div>
        <div class="row-actions">${g.status !== "finished" && !g.over ? `<a class="btn primary small" href="/t/${encodeURIComponent(g.id)}" data-go>${esc(t("ui.return_to_table"))}</a>` : ""}${replays}
        <button type="button" class="btn ghost small" data-forget="${esc(g.id)}" aria-label="${esc(t("ui.forget_game"))}">✕</button></div></li>`;
    }).join("")}</ul>`;
    el.querySelectorAll("a[data-go]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); go(a.getAttribute("href")); }));
    el.querySelectorAll("[data-forget]").forEach((b) => b.addEventListener("click", () => { forget(b.dataset.forget); this.showMine(); document.getElementById("my-games").focus(); }));
  }

  async refresh() {
    const el = document.getElementById("table-list");
    if (!el) return;
    let data;
    try {
      data = await api("/api/tables");
    } catch {
      return;
    }
    if (!data.tables.length) {
      const html = `<p class="muted">${esc(t("ui.no_tables"))}</p>`;
      if (el.innerHTML !== html) el.innerHTML = html;
      return;
    }
    const html = `<ul class="table-list">${data.tables.map((tb) => {
      const mine = seatStore(tb.id);
      const open = tb.seats.filter((s) => s.open || s.offered).length;
      const seatWords = tb.seats.map((s, i) => lobbySeat(s, i)).join(", ");
      const progress = tb.deals ? ` · ${t("club.deal_progress", { n: tb.deals })} · ${t("club.totals", { score: (tb.totals || []).map(num).join(" – ") })}` : "";
      return `<li><div><b><bdi>${esc(tb.title || t(`games.${tb.game}`))}</bdi></b> <span class="muted">${esc(t(`games.${tb.game}`))} · ${esc(t(`ui.${tb.status}`))}${esc(progress)}</span>
        <div class="seat-dots" role="img" aria-label="${esc(seatWords)}">${tb.seats.map((s, i) => `<span class="dot ${s.open ? "open" : s.kind}${s.offered ? " offered" : ""}" title="${esc(lobbySeat(s, i))}"></span>`).join("")}</div>
        <div class="players muted">${esc(seatWords)}</div></div>
        <div class="row-actions">${mine || open || tb.joinable ? `<a class="btn primary small" href="/t/${tb.id}" data-go>${esc(t("ui.join"))}</a>` : ""}
        <a class="btn small" href="/t/${tb.id}" data-go>${esc(t("ui.watch"))}</a></div></li>`;
    }).join("")}</ul>`;
    if (el.dataset.html === html) return; // unchanged: keep the focus where it is
    el.dataset.html = html;
    el.innerHTML = html;
    el.querySelectorAll("a[data-go]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); go(a.getAttribute("href")); }));
  }
}

// one seat of a lobby row in words: a player's name, a bot with its level, an open seat
function lobbySeat(s, i) {
  if (s.open) return t("ui.open_seat");
  const who = s.kind === "bot" ? t("ui.bot_named", { n: i + 1, level: s.level ? t(`ui.level_${s.level}`).split(" (")[0] : t("ui.bot") }) : s.name || t("ui.human");
  return s.offered ? `${who} (${t("club.offered_seat")})` : who;
}

async function createTable(body) {
  const res = await api("/api/tables", body);
  localStorage.setItem(`fc.seat.${res.id}`, JSON.stringify({ seat: res.seat, token: res.token }));
  remember(res.id, { game: body.game, seat: res.seat, token: res.token, title: body.title || "", setup: body });
  return res.id;
}

function plainField(key, label, help, control) {
  return `<div class="field opt"><label for="o-${key}">${esc(label)}</label> ${control}${help ? `<small class="help" id="h-${key}">${esc(help)}</small>` : ""}</div>`;
}

function optionField(game, o) {
  const f = optionText(game, o.key, o.help);
  const id = `opt-${o.key}`;
  const help = f.help ? `<small class="help" id="h-${id}">${esc(f.help)}</small>` : "";
  const desc = f.help ? ` aria-describedby="h-${id}"` : "";
  const choice = (c) => choiceLabel(game, o.key, c) || (typeof c === "number" ? num(c) : String(c));
  if (o.type === "bool") return `<div class="field opt check"><input type="checkbox" id="${id}" data-opt-key="${o.key}" ${o.default ? "checked" : ""}${desc}> <label for="${id}">${esc(f.label)}</label>${help}</div>`;
  if (o.choices) return `<div class="field opt"><label for="${id}">${esc(f.label)}</label> <select id="${id}" data-opt-key="${o.key}"${desc}>${o.choices.map((c) => `<option value="${esc(c)}" ${c === o.default ? "selected" : ""}>${esc(choice(c))}</option>`).join("")}</select>${help}</div>`;
  if (o.type === "int") return `<div class="field opt"><label for="${id}">${esc(f.label)}</label> <input type="number" id="${id}" data-opt-key="${o.key}" value="${o.default}" ${o.minimum !== null ? `min="${o.minimum}"` : ""} ${o.maximum !== null ? `max="${o.maximum}"` : ""}${desc}>${help}</div>`;
  return `<div class="field opt"><label for="${id}">${esc(f.label)}</label> <input id="${id}" data-opt-key="${o.key}" value="${esc(o.default)}"${desc}>${help}</div>`;
}

// ---------------------------------------------------------------- table
class TablePage {
  constructor(id) {
    this.id = id;
    this.ws = null;
    this.state = null;
    this.closed = false;
    this.retry = 0;
    this.ref = 0;
    this.clockTimer = null;
    this.welcome = null; // {seat, pending, creator, chat} from the server's welcome
    this.chatLog = [];
    this.onKey = (e) => this.key(e);
  }

  close() {
    this.closed = true;
    clearInterval(this.clockTimer);
    document.removeEventListener("keydown", this.onKey);
    if (this.ws) this.ws.close();
  }

  show() {
    app.innerHTML = `${header()}<main class="table-page" id="main" tabindex="-1">
      <h1 class="sr" id="tb-h1">${esc(t("ui.app"))}</h1>
      <div class="table-bar"><div class="tb-title"><b id="tb-title" dir="auto"></b> <span id="tb-sub" class="muted"></span></div>
        <div class="tb-actions"><button type="button" class="btn small" id="btn-hint" aria-keyshortcuts="H">${esc(t("ui.hint"))}</button>
        <button type="button" class="btn small" id="btn-last" aria-keyshortcuts="L">${esc(t("ui.last_trick"))}</button>
        <button type="button" class="btn small" id="btn-rules" aria-keyshortcuts="R">${esc(t("ui.rules"))}</button>
        <button type="button" class="btn small" id="btn-invite" aria-keyshortcuts="I">${esc(t("ui.invite"))}</button>
        <button type="button" class="btn small" id="btn-chat" hidden>${esc(t("ui.chat"))}</button>
        <button type="button" class="btn small ghost" id="btn-leave">${esc(t("ui.leave"))}</button></div></div>
      <div id="conn" class="conn" role="status">${esc(t("ui.connecting"))}</div>
      <div id="waiting"></div>
      <div id="board" class="table-root"></div></main>`;
    bindHeader();
    this.view = new TableView(document.getElementById("board"), {
      onAct: (a) => {
        // one action per state: a double click must not send a second, stale action
        if (this.acting === this.state) return;
        this.acting = this.state;
        this.send({ type: "act", action: a, expect: this.state && this.state.obs ? this.state.obs.history.length : undefined });
      },
      onExplain: (a) => this.send({ type: "explain", action: a }),
      onTakeSeat: (s) => this.takeSeat(s),
      loadHands: (k) => this.loadHands(k),
    });
    document.getElementById("btn-hint").addEventListener("click", () => this.askHint());
    document.getElementById("btn-last").addEventListener("click", () => this.view.showLastTrick());
    document.getElementById("btn-rules").addEventListener("click", () => this.rules());
    document.getElementById("btn-invite").addEventListener("click", () => this.invite());
    document.getElementById("btn-chat").addEventListener("click", () => this.chat());
    document.getElementById("btn-leave").addEventListener("click", () => this.leave());
    this.clockTimer = setInterval(() => tickClocks(document.getElementById("board")), 500);
    document.addEventListener("keydown", this.onKey);
    this.connect();
  }

  key(e) {
    if (!keyTarget(e) || !this.state) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const v = this.view;
    let done = true;
    if (k === "c") done = v.focusHand();
    else if (/^[1-9]$/.test(k)) done = v.decide(+k);
    else if (k === "p") done = v.pressAction("pass");
    else if (k === "h") { if (!document.getElementById("btn-hint").hidden) this.askHint(); }
    else if (k === "l") { if (!document.getElementById("btn-last").hidden) v.showLastTrick(); }
    else if (k === "r") this.rules();
    else if (k === "i") this.invite();
    else if (k === "t") announce(v.describeTable());
    else if (k === "n") {
      const b = document.getElementById("btn-next");
      if (b) b.click();
      else done = false;
    } else done = false;
    if (done) e.preventDefault();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const mine = seatStore(this.id);
      ws.send(JSON.stringify({ type: "hello", table: this.id, token: mine ? mine.token : null }));
    };
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.closed) return;
      const c = document.getElementById("conn");
      if (c) { c.hidden = false; c.textContent = t("ui.reconnecting"); }
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => !this.closed && this.connect(), 300 * 2 ** this.retry);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ ...msg, ref: ++this.ref }));
  }

  // a hint belongs to the position it was asked at: remember which (see onMessage)
  askHint() {
    const st = this.state;
    if (!st || !st.obs) return;
    this.send({ type: "hint" });
    this.hintAsked = { ref: this.ref, ...positionOf(st) };
  }

  onMessage(msg) {
    if (msg.type === "state") {
      document.getElementById("conn").hidden = true;
      this.state = msg;
      this.rerender();
      this.record(msg);
    } else if (msg.type === "explain") {
      // a structured explanation (code + params) is said in the player's language
      if (!msg.legal) { this.view.toast(`<b>${esc(t("ui.illegal"))}:</b> ${esc(explainText(msg.explanation || msg, look(this.state ? this.state.table.game : "").deck))}${msg.rule ? ` <small dir="ltr">(${esc(msg.rule)})</small>` : ""}`, 6000, true); sound("error"); }
    } else if (msg.type === "hint") {
      // an answer that comes after the position moved on (a slow search, a quick player)
      // is for a turn that is over: showing it now would recommend a card already gone
      const asked = this.hintAsked;
      if (asked && asked.ref === msg.ref && samePosition(asked, this.state)) {
        this.view.showHint(msg.action, this.state.table.game, msg.hint);
      }
    } else if (msg.type === "welcome") {
      this.welcome = msg;
      this.chatLog = Array.isArray(msg.chat) ? msg.chat.slice(-30) : [];
    } else if (msg.type === "again") {
      if (this.state) this.rerender();
    } else if (msg.type === "chat") {
      this.chatLog = [...this.chatLog, msg].slice(-30);
      this.view.toast(`<b>${esc(this.chatWho(msg))}:</b> ${esc(this.chatText(msg))}`, 5000);
    } else if (msg.type === "error") {
      this.acting = null; // the action was refused: the player may choose again
      if (msg.error === "bad_token") localStorage.removeItem(`fc.seat.${this.id}`);
      if (msg.error === "not_found") {
        app.querySelector("#board").innerHTML = `<p class="error" role="alert">${esc(msg.message)}</p>`;
        this.closed = true;
        return;
      }
      sound("error");
      this.view.toast(`<b>${esc(t("ui.error"))}:</b> ${esc(explainText(msg.explanation || msg, look(this.state ? this.state.table.game : "").deck))}${msg.rule ? ` <small dir="ltr">(${esc(msg.rule)})</small>` : ""}`, 6000, true);
    }
  }

  // this browser's history of the table: every finished deal with its score
  record(st) {
    if (st.you === null || st.you === undefined) return;
    const m = st.match || { results: [] };
    const names = st.seats.map((_, s) => seatName(st, s));
    const winnerLabel = m.over && m.winner !== null && m.winner !== undefined ? (m.totals.length === st.table.num_seats ? names[m.winner] : t("ui.team", { n: m.winner + 1 })) : "";
    remember(this.id, {
      game: st.table.game, seat: st.you, title: st.table.title || "", status: st.table.status, names, over: !!m.over, winnerLabel,
      deals: (m.results || []).map((r) => ({ k: r.deal, score: r.result.score || [] })),
      setup: { game: st.table.game, variant: st.table.variant, options: st.table.options, title: st.table.title || undefined, seats: st.seats.map((s) => ({ kind: s.kind, level: s.level || undefined })) },
    });
  }

  rerender() {
    const st = this.state;
    if (!st) return;
    const game = st.table.game;
    const title = st.table.title || t(`games.${game}`);
    document.getElementById("tb-title").textContent = title;
    document.getElementById("tb-h1").textContent = `${title} — ${t("ui.app")}`;
    document.title = `${title} · folkcards`;
    document.getElementById("tb-sub").textContent = [st.table.title ? t(`games.${game}`) : "", st.deal_no ? t("ui.deal_n", { n: st.deal_no }) : ""].filter(Boolean).join(" · ");
    document.getElementById("btn-last").hidden = look(game).fishing; // no tricks, no last trick
    document.getElementById("btn-hint").hidden = !(st.obs && st.you !== null && st.obs.to_act === st.you && !st.obs.result);
    document.getElementById("btn-chat").hidden = !this.feature("chat") || st.you === null || st.you === undefined;
    document.getElementById("btn-leave").hidden = (st.you === null || st.you === undefined) && !(this.isCreator() && st.table.status !== "finished");
    const w = document.getElementById("waiting");
    const html = this.waitingHTML(st);
    if (w.dataset.html !== html) { // unchanged banners keep their focus
      w.dataset.html = html;
      w.innerHTML = html;
      w.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => copyText(b.dataset.copy, b)));
      const start = w.querySelector("#btn-start");
      if (start) start.addEventListener("click", () => this.start());
      const next = w.querySelector("#btn-next");
      if (next) next.addEventListener("click", () => this.send({ type: "ready" }));
      const again = w.querySelector("#btn-again");
      if (again) again.addEventListener("click", () => this.playAgain());
      const nextMatch = w.querySelector("#btn-next-match");
      if (nextMatch) nextMatch.addEventListener("click", () => this.playAgain());
      const takeOffer = w.querySelector("#btn-take-offer");
      if (takeOffer) takeOffer.addEventListener("click", () => this.takeSeat(+takeOffer.dataset.seat));
      w.querySelectorAll("a[data-go]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); go(a.getAttribute("href")); }));
    }
    this.view.render({ game, state: st, handsOpen: null });
  }

  chatWho(line) {
    return line.name || (this.state ? seatName(this.state, line.seat) : "");
  }

  chatText(line) {
    return typeof line.text === "string" ? line.text : t(`chat.${line.phrase}`);
  }

  isCreator() {
    return !!(this.welcome && this.welcome.creator);
  }

  feature(name) {
    const f = this.state && this.state.table && this.state.table.features;
    return Array.isArray(f) && f.includes(name);
  }

  inviteLink() {
    return `${location.origin}/t/${this.id}`;
  }

  waitingHTML(st) {
    const link = this.inviteLink();
    let h = "";
    if (st.table.status === "open") {
      h += `<div class="banner" role="status"><span>${esc(t("ui.waiting_players"))}</span>
        <span class="invite">${esc(t("ui.invite_link"))}: <code dir="ltr">${esc(link)}</code> <button type="button" class="btn small" data-copy="${esc(link)}">${esc(t("ui.copy"))}</button></span>
        ${st.you !== null && st.you !== undefined ? `<button type="button" class="btn primary small" id="btn-start">${esc(t("ui.start_bots"))}</button>` : `<span class="join-name"><label for="join-name" class="sr">${esc(t("ui.your_name"))}</label><input id="join-name" maxlength="32" required placeholder="${esc(t("ui.your_name"))}" value="${esc(localStorage.getItem("fc.name") || "")}"></span>`}</div>`;
    }
    const seatedNow = st.you !== null && st.you !== undefined;
    const pending = this.welcome && this.welcome.pending !== null && this.welcome.pending !== undefined && !seatedNow ? this.welcome.pending : null;
    const offered = st.seats.map((s, i) => [s, i]).filter(([s]) => s.offered);
    if (pending !== null && st.table.status !== "finished") {
      h += `<div class="banner" role="status" id="pending-banner"><span>${esc(t("club.pending", { seat: t("ui.seat", { n: pending + 1 }) }))}</span></div>`;
    } else if (!seatedNow && offered.length && st.table.status !== "finished") {
      const [, i] = offered[0];
      h += `<div class="banner" role="status" id="offer-banner"><span>${esc(t("club.offered_banner", { seat: t("ui.seat", { n: i + 1 }) }))}</span>
        <span class="join-name"><label for="join-name" class="sr">${esc(t("ui.your_name"))}</label><input id="join-name" maxlength="32" required placeholder="${esc(t("ui.your_name"))}" value="${esc(localStorage.getItem("fc.name") || "")}"></span>
        <button type="button" class="btn primary small" id="btn-take-offer" data-seat="${i}">${esc(t("club.take_offer"))}</button></div>`;
    }
    if (st.table.status === "finished" && !(st.obs && st.obs.result)) {
      h += `<div class="banner deal-over" role="status" id="ended-banner"><b>${esc(this.endedText(st))}</b>
        ${seatedNow || this.isCreator() ? `<button type="button" class="btn primary small" id="btn-again">${esc(t("ui.play_again"))}</button>` : ""}<a class="btn small" href="/" data-go>${esc(t("ui.back_to_lobby"))}</a></div>`;
    } else if (st.table.status === "finished" && ["closed", "resigned"].includes(st.table.ended)) {
      h += `<div class="banner" role="status" id="ended-banner"><b>${esc(this.endedText(st))}</b></div>`;
    }
    if (st.table.again) {
      const goNext = seatedNow || this.isCreator() ? `<button type="button" class="btn primary small" id="btn-next-match">${esc(t("club.go_next"))}</button>` : `<a class="btn small" href="/t/${esc(st.table.again)}" data-go>${esc(t("club.go_next"))}</a>`;
      h += `<div class="banner" role="status" id="again-banner"><span>${esc(t("club.next_match"))}</span> ${goNext}</div>`;
    }
    if (st.obs && st.obs.result) {
      const k = st.deal_no - 1;
      const replay = `/replay?table=${st.table.id}&deal=${k}`;
      const matchOver = st.match && st.match.over;
      const seated = st.you !== null && st.you !== undefined;
      h += `<div class="banner deal-over"><b>${esc(matchOver ? t("ui.match_over") : t("ui.deal_over"))}</b>
        ${st.table.status !== "finished" && !matchOver && seated ? `<button type="button" class="btn primary small" id="btn-next" aria-keyshortcuts="N">${esc(t("ui.next_deal"))}</button>` : ""}
        ${matchOver || st.table.status === "finished" ? `${seated || this.isCreator() ? `<button type="button" class="btn primary small" id="btn-again">${esc(t("ui.play_again"))}</button>` : ""}<a class="btn small" href="/" data-go>${esc(t("ui.back_to_lobby"))}</a>` : ""}
        ${st.next_in !== null && st.next_in !== undefined ? `<span class="muted">${esc(t("ui.next_in", { n: Math.ceil(st.next_in) }))}</span>` : ""}
        <a class="btn small" href="${replay}">${esc(t("ui.replay"))}</a>
        <button type="button" class="btn small" data-copy="${esc(location.origin + replay)}">${esc(t("ui.copy_replay_link"))}</button>
        <a class="btn small" href="/api/tables/${st.table.id}/record" download>${esc(t("ui.download"))}</a></div>`;
    }
    return h;
  }

  // every seat's hand of a finished deal, as held when the play began (the replay frames)
  async loadHands(k) {
    try {
      const data = await api(`/api/tables/${this.id}/replay/${k}`);
      const D = data.deals[0];
      const step = D.steps.find((s) => s.views[0] && s.views[0].phase === "play") || D.steps.find((s) => s.views.every((v) => v.hand && v.hand.length)) || D.steps[0];
      return step.views.map((v) => v.hand || []);
    } catch {
      return null;
    }
  }

  async rules() {
    const st = this.state;
    if (!st) return;
    const game = st.table.game;
    const phase = st.obs && !st.obs.result ? st.obs.phase : null;
    const body = await rulesHTML(game, phase);
    openDialog({
      title: esc(t("ui.rules_of", { game: t(`games.${game}`) })),
      body: `${body}<p><button type="button" class="btn ok">${esc(t("ui.close"))}</button></p>`,
      wide: true,
      bind: (d) => {
        d.querySelector(".ok").addEventListener("click", () => d.close());
        requestAnimationFrame(() => jumpToPhase(d, phase, game));
      },
      fallbackFocus: () => this.view.focusHand(),
    });
  }

  async invite() {
    const link = this.inviteLink();
    let qr = "";
    try {
      const { default: qrcode } = await import("/static/vendor/qrcode-generator/qrcode.esm.js");
      const q = qrcode(0, "M");
      q.addData(link);
      q.make();
      qr = q.createSvgTag({ cellSize: 5, margin: 2, scalable: true, alt: t("ui.qr_alt"), title: t("ui.qr_alt") });
    } catch {
      qr = "";
    }
    const st = this.state;
    const open = st ? st.seats.filter((s) => s.open || s.offered).length : 0;
    const botSeats = st ? st.seats.map((s, i) => [s, i]).filter(([s]) => s.kind === "bot" && !s.offered && !s.incoming) : [];
    const mayOffer = st && ((st.you !== null && st.you !== undefined) || this.isCreator()) && st.table.status !== "finished";
    const offer = this.feature("offer_seat") && mayOffer && botSeats.length
      ? `<div class="offer"><label for="offer-seat">${esc(t("ui.offer_seat"))}</label> <select id="offer-seat">${botSeats.map(([, i]) => `<option value="${i}">${esc(seatName(st, i, true))}</option>`).join("")}</select> <button type="button" class="btn small" id="btn-offer">${esc(t("ui.offer"))}</button><small class="help">${esc(t("ui.offer_help"))}</small></div>` : "";
    openDialog({
      title: esc(t("ui.invite")),
      body: `<p>${esc(open ? t("ui.invite_open", { n: open }) : t("ui.invite_watch"))}</p>
        <p class="invite-link"><code dir="ltr">${esc(link)}</code> <button type="button" class="btn small" id="btn-copy-invite" autofocus>${esc(t("ui.copy"))}</button></p>
        ${qr ? `<div class="qr">${qr}</div>` : ""}${offer}`,
      bind: (d) => {
        d.querySelector("#btn-copy-invite").addEventListener("click", (e) => copyText(link, e.currentTarget));
        const b = d.querySelector("#btn-offer");
        if (b) b.addEventListener("click", () => { this.send({ type: "offer_seat", seat: +d.querySelector("#offer-seat").value }); toast(esc(t("club.offer_sent")), 4000); });
      },
    });
  }

  chat() {
    const phrases = ["hello", "good_game", "well_played", "thanks", "oops", "one_moment", "again"];
    openDialog({
      title: esc(t("ui.chat")),
      body: `<div class="chat-log" role="log" aria-label="${esc(t("club.chat_log"))}">${this.chatLog.length ? this.chatLog.map((m) => `<p><b>${esc(this.chatWho(m))}:</b> ${esc(this.chatText(m))}</p>`).join("") : `<p class="muted">${esc(t("club.no_chat"))}</p>`}</div>
        <div class="choices">${phrases.map((p, i) => `<button type="button" class="btn choice" data-phrase="${p}" ${i === 0 ? "autofocus" : ""}>${esc(t(`chat.${p}`))}</button>`).join("")}</div>
        <form class="chat-form" id="chat-form"><label for="chat-text" class="sr">${esc(t("club.chat_text"))}</label><input id="chat-text" maxlength="200" autocomplete="off" placeholder="${esc(t("club.chat_text"))}"> <button type="submit" class="btn small">${esc(t("club.send"))}</button></form>`,
      bind: (d) => {
        d.querySelectorAll("[data-phrase]").forEach((b) => b.addEventListener("click", () => { this.send({ type: "chat", phrase: b.dataset.phrase }); d.close(); }));
        d.querySelector("#chat-form").addEventListener("submit", (e) => {
          e.preventDefault();
          const text = d.querySelector("#chat-text").value.trim();
          if (text) this.send({ type: "chat", text });
          d.close();
        });
      },
    });
  }

  leave() {
    const server = this.feature("leave");
    const st = this.state;
    const live = st && st.table.status !== "finished";
    const resign = live && this.feature("resign") && st.you !== null && st.you !== undefined;
    const closeIt = live && this.feature("close") && this.isCreator();
    openDialog({
      title: esc(t("ui.leave")),
      body: `<p>${esc(server ? t("ui.leave_help") : t("ui.leave_help_grace"))}</p>
        <div class="choices"><button type="button" class="btn choice" id="leave-yes">${esc(t("ui.leave_yes"))}</button>
        ${resign ? `<button type="button" class="btn choice" id="resign-yes" aria-describedby="resign-help">${esc(t("club.resign"))}</button>` : ""}
        ${closeIt ? `<button type="button" class="btn choice" id="close-yes" aria-describedby="close-help">${esc(t("club.close_table"))}</button>` : ""}
        <button type="button" class="btn ghost" id="leave-no" autofocus>${esc(t("ui.cancel"))}</button></div>
        ${resign ? `<p class="help" id="resign-help">${esc(t("club.resign_help"))}</p>` : ""}${closeIt ? `<p class="help" id="close-help">${esc(t("club.close_help"))}</p>` : ""}`,
      bind: (d) => {
        const r = d.querySelector("#resign-yes");
        if (r) r.addEventListener("click", () => { this.send({ type: "resign" }); d.close(); });
        const c = d.querySelector("#close-yes");
        if (c) c.addEventListener("click", () => { this.send({ type: "close" }); d.close(); });
        d.querySelector("#leave-no").addEventListener("click", () => d.close());
        d.querySelector("#leave-yes").addEventListener("click", () => {
          if (server) this.send({ type: "leave" });
          d.close();
          go("/");
        });
      },
    });
  }

  async playAgain() {
    const st = this.state;
    const mine = seatStore(this.id);
    if (this.feature("again") && mine && mine.token) {
      try {
        const res = await api(`/api/tables/${this.id}/again`, { token: mine.token });
        localStorage.setItem(`fc.seat.${res.id}`, JSON.stringify({ seat: res.seat, token: mine.token }));
        remember(res.id, { game: st.table.game, seat: res.seat, token: mine.token, title: st.table.title || "" });
        go(`/t/${res.id}`);
      } catch (e) {
        toast(esc(e.message), 5000, true);
      }
      return;
    }
    const seats = st.seats.map((s, i) => (i === st.you ? { kind: "human" } : { kind: s.kind === "bot" ? "bot" : "human", level: s.level || undefined }));
    // the creator takes the first human seat: put this player's seat first among humans
    try {
      const id = await createTable({ game: st.table.game, variant: st.table.variant, seats, name: localStorage.getItem("fc.name") || seatName(st, st.you), options: st.table.options, title: st.table.title || undefined });
      go(`/t/${id}`);
    } catch (e) {
      toast(esc(e.message), 5000, true);
    }
  }

  endedText(st) {
    const why = st.table.ended;
    if (why === "resigned") return t("club.ended_resigned", { name: st.table.resigned !== null && st.table.resigned !== undefined ? seatName(st, st.table.resigned) : "" });
    if (["closed", "abandoned", "limit"].includes(why)) return t(`club.ended_${why}`);
    return t("ui.match_over");
  }

  async takeSeat(seat) {
    const input = document.getElementById("join-name");
    const name = String((input && input.value) || localStorage.getItem("fc.name") || "").trim().replace(/\s+/g, " ");
    if (!name) {
      toast(esc(t("ui.name_required")), 4000, true);
      if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
      return;
    }
    localStorage.setItem("fc.name", name);
    try {
      const res = await api(`/api/tables/${this.id}/join`, { name, seat });
      localStorage.setItem(`fc.seat.${this.id}`, JSON.stringify({ seat: res.seat, token: res.token }));
      remember(this.id, { game: this.state.table.game, seat: res.seat, token: res.token });
      this.ws.close(); // reconnects with the token
    } catch (err) {
      toast(esc(err.message), 4000, true);
    }
  }

  async start() {
    const mine = seatStore(this.id);
    try {
      await api(`/api/tables/${this.id}/start`, { token: mine && mine.token });
    } catch (err) {
      toast(esc(err.message), 4000, true);
    }
  }
}

// ---------------------------------------------------------------- replay
class ReplayPage {
  show() {
    app.innerHTML = `${header()}<main class="replay-page" id="main" tabindex="-1"><h1 class="sr">${esc(t("ui.replays"))}</h1><div id="replay"></div></main>`;
    bindHeader();
    this.view = new ReplayView(document.getElementById("replay"), api);
    const q = new URLSearchParams(location.search);
    const step = q.get("step") !== null ? +q.get("step") : 0;
    if (q.get("table")) this.view.loadTable(q.get("table"), +(q.get("deal") || 0), step);
    else if (q.get("record")) this.view.loadShared(q.get("record"), step);
    else this.view.showUpload();
  }

  close() {
    if (this.view) this.view.close();
  }
}

initLang();
applySettings();
loadGuide(lang()).finally(() => route());
export { actionText };
