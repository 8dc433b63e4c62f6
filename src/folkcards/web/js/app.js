// The browser client: lobby, table and replay pages over the server's JSON API and its
// websocket protocol (the README, "The web table"). No build step: plain ES modules.
import { t, num, setLang, lang, initLang, LANGS } from "./i18n.js";
import { TableView, tickClocks } from "./table.js";
import { esc, actionLabel } from "./present.js";
import { ReplayView } from "./replay.js";

const app = document.getElementById("app");
let games = null;
let current = null; // the page object with .rerender() and .close()

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ ok: false, message: res.statusText }));
  if (!res.ok || data.ok === false) throw new Error(data.message || res.statusText);
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
  return `<header class="top"><a class="logo" href="/" data-link>♠♥ ${esc(t("ui.app"))}</a>
    <nav><a href="/" data-link>${esc(t("ui.lobby"))}</a><a href="/replay" data-link>${esc(t("ui.replays"))}</a>
    <label class="lang"><span class="sr">${esc(t("ui.language"))}</span><select id="lang-select" aria-label="${esc(t("ui.language"))}">${opts}</select></label></nav></header>`;
}

function bindHeader() {
  document.getElementById("lang-select").addEventListener("change", (e) => {
    setLang(e.target.value);
    route();
  });
  document.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault();
    go(a.getAttribute("href"));
  }));
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
  if (!games) games = await api("/api/games");
  const m = path.match(/^\/t\/([\w-]+)/);
  if (m) current = new TablePage(m[1]);
  else if (path.startsWith("/replay")) current = new ReplayPage();
  else current = new LobbyPage();
  current.show();
}

// ---------------------------------------------------------------- lobby
class LobbyPage {
  constructor() {
    this.game = localStorage.getItem("fc.lastGame") || (games.games[0] && games.games[0].name);
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
    app.innerHTML = `${header()}<main class="lobby">
      <section class="card-panel create"><h2>${esc(t("ui.new_table"))}</h2>
        <form id="create">
          <div class="game-pick">${games.games.map((x) => `<label class="game-tile ${x.name === g.name ? "on" : ""}"><input type="radio" name="game" value="${x.name}" ${x.name === g.name ? "checked" : ""}><b>${esc(t(`games.${x.name}`))}</b><small>${num(x.seats)} ${esc(t("ui.players"))}</small></label>`).join("")}</div>
          <label>${esc(t("ui.your_name"))} <input name="name" maxlength="32" value="${esc(name)}" required></label>
          <fieldset><legend>${esc(t("ui.options"))}</legend>${g.options.map((o) => optionField(o)).join("")}
            <label>${esc(t("ui.mode"))} <select name="mode"><option value="match">${esc(t("ui.mode_match"))}</option><option value="deal">${esc(t("ui.mode_deal"))}</option></select></label>
            <label>${esc(t("ui.turn_clock"))} <select name="turn_clock"><option value="">${esc(t("ui.clock_off"))}</option>${[15, 30, 60, 120].map((s) => `<option value="${s}">${esc(t("ui.seconds", { n: s }))}</option>`).join("")}</select></label>
            <label>${esc(t("ui.bot_speed"))} <select name="bot_delay"><option value="0.25">${esc(t("ui.speed_fast"))}</option><option value="0.7" selected>${esc(t("ui.speed_normal"))}</option><option value="1.5">${esc(t("ui.speed_slow"))}</option></select></label>
            <label>${esc(t("ui.grace"))} <select name="grace">${[10, 30, 60, 180].map((s) => `<option value="${s}" ${s === 30 ? "selected" : ""}>${esc(t("ui.seconds", { n: s }))}</option>`).join("")}</select></label>
          </fieldset>
          <fieldset><legend>${esc(t("ui.seats"))}</legend><div class="seat-rows">${this.seatRows(g.seats)}</div></fieldset>
          <button class="btn primary big" type="submit">${esc(t("ui.create"))}</button>
          <p class="error" hidden></p>
        </form></section>
      <section class="card-panel tables"><h2>${esc(t("ui.open_tables"))}</h2><div id="table-list"></div></section>
      <p class="tagline">${esc(t("ui.tagline"))}</p></main>`;
    bindHeader();
    const form = document.getElementById("create");
    form.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", () => {
      this.game = r.value;
      localStorage.setItem("fc.lastGame", this.game);
      this.show();
    }));
    form.querySelectorAll("[data-opt-key=players]").forEach((el) => el.addEventListener("change", () => {
      const n = +el.value;
      form.querySelector(".seat-rows").innerHTML = this.seatRows(n);
    }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create(form);
    });
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  seatRows(n) {
    const lv = games.levels;
    let h = "";
    for (let s = 0; s < n; s++) {
      h += `<div class="seat-row"><span>${esc(t("ui.seat", { n: s + 1 }))}${s === 0 ? ` (${esc(t("ui.you"))})` : ""}</span>
        ${s === 0 ? `<input type="hidden" name="kind${s}" value="human">` : `<select name="kind${s}"><option value="bot">${esc(t("ui.bot"))}</option><option value="human">${esc(t("ui.human"))}</option></select>`}
        <select name="level${s}" ${s === 0 ? "hidden" : ""}>${lv.map((l) => `<option value="${l}" ${l === games.default_level ? "selected" : ""}>${esc(t(`ui.level_${l}`))}</option>`).join("")}</select></div>`;
    }
    return h;
  }

  async create(form) {
    const g = this.gameInfo();
    const fd = new FormData(form);
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
    const name = fd.get("name");
    localStorage.setItem("fc.name", name);
    const clock = fd.get("turn_clock");
    try {
      const res = await api("/api/tables", {
        game: g.name, variant, seats, name,
        options: { mode: fd.get("mode"), turn_clock: clock ? +clock : null, grace: +fd.get("grace"), bot_delay: +fd.get("bot_delay") },
      });
      localStorage.setItem(`fc.seat.${res.id}`, JSON.stringify({ seat: res.seat, token: res.token }));
      go(`/t/${res.id}`);
    } catch (err) {
      const p = form.querySelector(".error");
      p.hidden = false;
      p.textContent = err.message;
    }
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
      el.innerHTML = `<p class="muted">${esc(t("ui.no_tables"))}</p>`;
      return;
    }
    el.innerHTML = `<ul class="table-list">${data.tables.map((tb) => {
      const mine = seatStore(tb.id);
      const open = tb.seats.filter((s) => s.open).length;
      return `<li><div><b>${esc(tb.title || t(`games.${tb.game}`))}</b> <span class="muted">${esc(t(`games.${tb.game}`))} · ${esc(t(`ui.${tb.status}`))}</span>
        <div class="seat-dots">${tb.seats.map((s) => `<span class="dot ${s.open ? "open" : s.kind}" title="${esc(s.name || "")}"></span>`).join("")}</div></div>
        <div class="row-actions">${mine ? `<a class="btn primary small" href="/t/${tb.id}" data-go>${esc(t("ui.join"))}</a>` : open ? `<a class="btn primary small" href="/t/${tb.id}" data-go>${esc(t("ui.join"))}</a>` : ""}
        <a class="btn small" href="/t/${tb.id}" data-go>${esc(t("ui.watch"))}</a></div></li>`;
    }).join("")}</ul>`;
    el.querySelectorAll("a[data-go]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); go(a.getAttribute("href")); }));
  }
}

function optionField(o) {
  const label = t(`options.${o.key}`);
  const title = esc(o.help);
  if (o.type === "bool") return `<label class="check" title="${title}"><input type="checkbox" data-opt-key="${o.key}" ${o.default ? "checked" : ""}> ${esc(label)}</label>`;
  if (o.choices) return `<label title="${title}">${esc(label)} <select data-opt-key="${o.key}">${o.choices.map((c) => `<option value="${esc(c)}" ${c === o.default ? "selected" : ""}>${esc(typeof c === "number" ? num(c) : c)}</option>`).join("")}</select></label>`;
  if (o.type === "int") return `<label title="${title}">${esc(label)} <input type="number" data-opt-key="${o.key}" value="${o.default}" ${o.minimum !== null ? `min="${o.minimum}"` : ""} ${o.maximum !== null ? `max="${o.maximum}"` : ""}></label>`;
  return `<label title="${title}">${esc(label)} <input data-opt-key="${o.key}" value="${esc(o.default)}"></label>`;
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
  }

  close() {
    this.closed = true;
    clearInterval(this.clockTimer);
    if (this.ws) this.ws.close();
  }

  show() {
    app.innerHTML = `${header()}<main class="table-page">
      <div class="table-bar"><div class="tb-title"><b id="tb-title"></b> <span id="tb-sub" class="muted"></span></div>
        <div class="tb-actions"><button class="btn small" id="btn-hint">${esc(t("ui.hint"))}</button>
        <button class="btn small" id="btn-last">${esc(t("ui.last_trick"))}</button></div></div>
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
    });
    document.getElementById("btn-hint").addEventListener("click", () => this.send({ type: "hint" }));
    document.getElementById("btn-last").addEventListener("click", () => this.view.showLastTrick());
    this.clockTimer = setInterval(() => tickClocks(document.getElementById("board")), 500);
    this.connect();
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

  onMessage(msg) {
    if (msg.type === "state") {
      document.getElementById("conn").hidden = true;
      this.state = msg;
      this.rerender();
    } else if (msg.type === "explain") {
      if (!msg.legal) this.view.toast(`<b>${esc(t("ui.illegal"))}:</b> ${esc(msg.message)}`, 6000);
    } else if (msg.type === "hint") {
      this.view.showHint(msg.action, this.state.table.game);
    } else if (msg.type === "error") {
      this.acting = null; // the action was refused: the player may choose again
      if (msg.error === "bad_token") localStorage.removeItem(`fc.seat.${this.id}`);
      if (msg.error === "not_found") {
        app.querySelector("#board").innerHTML = `<p class="error">${esc(msg.message)}</p>`;
        this.closed = true;
        return;
      }
      this.view.toast(`<b>${esc(t("ui.error"))}:</b> ${esc(msg.message)}${msg.rule ? ` <small>(${esc(msg.rule)})</small>` : ""}`, 6000);
    }
  }

  rerender() {
    const st = this.state;
    if (!st) return;
    const game = st.table.game;
    document.getElementById("tb-title").textContent = st.table.title || t(`games.${game}`);
    document.getElementById("tb-sub").textContent = [st.table.title ? t(`games.${game}`) : "", st.deal_no ? t("ui.deal_n", { n: st.deal_no }) : ""].filter(Boolean).join(" · ");
    document.getElementById("btn-last").hidden = game === "scopone";
    document.getElementById("btn-hint").hidden = !(st.obs && st.you !== null && st.obs.to_act === st.you && !st.obs.result);
    const w = document.getElementById("waiting");
    w.innerHTML = this.waitingHTML(st);
    w.querySelectorAll("[data-copy]").forEach((b) => b.addEventListener("click", () => {
      navigator.clipboard && navigator.clipboard.writeText(b.dataset.copy);
      b.textContent = t("ui.copied");
    }));
    const start = w.querySelector("#btn-start");
    if (start) start.addEventListener("click", () => this.start());
    const next = w.querySelector("#btn-next");
    if (next) next.addEventListener("click", () => this.send({ type: "ready" }));
    this.view.render({ game, state: st, handsOpen: null });
  }

  waitingHTML(st) {
    const link = `${location.origin}/t/${st.table.id}`;
    let h = "";
    if (st.table.status === "open") {
      h += `<div class="banner"><span>${esc(t("ui.waiting_players"))}</span>
        <span class="invite">${esc(t("ui.invite"))}: <code>${esc(link)}</code> <button class="btn small" data-copy="${esc(link)}">${esc(t("ui.copy"))}</button></span>
        ${st.you !== null && st.you !== undefined ? `<button class="btn primary small" id="btn-start">${esc(t("ui.start_bots"))}</button>` : `<span class="join-name"><input id="join-name" maxlength="32" placeholder="${esc(t("ui.your_name"))}" value="${esc(localStorage.getItem("fc.name") || "")}"></span>`}</div>`;
    }
    if (st.obs && st.obs.result) {
      const k = st.deal_no - 1;
      h += `<div class="banner deal-over"><b>${esc(st.match.over ? t("ui.match_over") : t("ui.deal_over"))}</b>
        ${st.table.status !== "finished" && st.you !== null && st.you !== undefined ? `<button class="btn primary small" id="btn-next">${esc(t("ui.next_deal"))}</button>` : ""}
        ${st.next_in !== null && st.next_in !== undefined ? `<span class="muted">${esc(t("ui.next_in", { n: Math.ceil(st.next_in) }))}</span>` : ""}
        <a class="btn small" href="/replay?table=${st.table.id}&deal=${k}">${esc(t("ui.replay"))}</a>
        <a class="btn small" href="/api/tables/${st.table.id}/record" download>${esc(t("ui.download"))}</a></div>`;
    }
    return h;
  }

  async takeSeat(seat) {
    const input = document.getElementById("join-name");
    const name = (input && input.value) || localStorage.getItem("fc.name") || "";
    if (name) localStorage.setItem("fc.name", name);
    try {
      const res = await api(`/api/tables/${this.id}/join`, { name, seat });
      localStorage.setItem(`fc.seat.${this.id}`, JSON.stringify({ seat: res.seat, token: res.token }));
      this.ws.close(); // reconnects with the token
    } catch (err) {
      this.view.toast(esc(err.message));
    }
  }

  async start() {
    const mine = seatStore(this.id);
    try {
      await api(`/api/tables/${this.id}/start`, { token: mine && mine.token });
    } catch (err) {
      this.view.toast(esc(err.message));
    }
  }
}

// ---------------------------------------------------------------- replay
class ReplayPage {
  show() {
    app.innerHTML = `${header()}<main class="replay-page"><div id="replay"></div></main>`;
    bindHeader();
    this.view = new ReplayView(document.getElementById("replay"), api);
    const q = new URLSearchParams(location.search);
    if (q.get("table")) this.view.loadTable(q.get("table"), +(q.get("deal") || 0));
    else this.view.showUpload();
  }

  close() {
    if (this.view) this.view.close();
  }
}

initLang();
route();
