// The replay viewer: step through a finished deal of a table, or an uploaded record,
// from one seat's view or with all hands open. The address carries the step
// (/replay?table=ID&deal=K&step=S, or ?record=ID for a shared upload), so a link shows the
// same moment; ←/→ (Home/End) step.
//
// Narration: each deal of the frames carries its events as a spectator saw them live
// (`deal.events`, the engine's events_for(SPECTATOR)) and each step how many of them had
// happened (`step.events`). The board gets the events up to the step and, as its previous
// frame, the step before, so the table's own narration says what the step did — on the felt
// ("Scopa!", a trump), in the move log (tricks with their points) and to screen readers —
// and the bar says it in words (present.js narrateEvent, the live table's strings).
import { t } from "./i18n.js";
import { TableView } from "./table.js";
import { esc, actionText, seatName, narrateEvent } from "./present.js";
import { copyText, dialogOpen, announce, toast } from "./ui.js";

export class ReplayView {
  constructor(root, api) {
    this.root = root;
    this.api = api;
    this.data = null;
    this.deal = 0;
    this.k = 0;
    this.viewSeat = "all";
    this.players = null;
    this.record = null;
    this.shared = null;
    this.onKey = (e) => {
      if (!this.data || dialogOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
      if (["INPUT", "SELECT", "TEXTAREA"].includes((e.target && e.target.tagName) || "")) return;
      const rtl = document.documentElement.dir === "rtl";
      const map = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, Home: -9999, End: 9999 };
      if (e.key in map) {
        e.preventDefault();
        this.step(map[e.key], true);
      }
    };
    document.addEventListener("keydown", this.onKey);
  }

  close() {
    document.removeEventListener("keydown", this.onKey);
  }

  showUpload(error) {
    this.root.innerHTML = `<section class="card-panel upload"><h2>${esc(t("ui.upload"))}</h2>
      <p id="upload-help">${esc(t("ui.upload_help"))}</p><label for="record-file" class="btn">${esc(t("ui.choose_file"))}</label> <input type="file" id="record-file" class="vh-file" accept=".json,application/json" aria-describedby="upload-help">
      ${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}</section>`;
    this.root.querySelector("#record-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      let rec;
      try {
        rec = JSON.parse(await f.text());
      } catch (err) {
        this.showUpload(String(err));
        return;
      }
      try {
        this.data = await this.api("/api/replay", rec);
      } catch (err) {
        this.showUpload(err.message);
        return;
      }
      this.record = rec;
      this.shared = null;
      this.players = rec.meta && Array.isArray(rec.meta.players) ? rec.meta.players : null;
      this.deal = 0;
      this.k = 0;
      this.tableId = null;
      history.replaceState(null, "", "/replay");
      this.render();
    });
  }

  async loadTable(id, deal, step = 0) {
    try {
      this.data = await this.api(`/api/tables/${id}/replay/${deal}`);
    } catch (err) {
      this.showUpload(err.message);
      return;
    }
    this.players = this.data.players;
    this.tableId = id;
    this.dealIndex = deal;
    this.deal = 0;
    this.k = this.clamp(step);
    this.render();
  }

  // a record shared by its link (the server's record store, when it has one)
  async loadShared(id, step = 0) {
    try {
      const rec = await this.api(`/api/records/${encodeURIComponent(id)}`);
      this.data = await this.api("/api/replay", rec.record || rec);
      this.players = rec.meta && Array.isArray(rec.meta.players) ? rec.meta.players : (rec.record && rec.record.meta && rec.record.meta.players) || null;
    } catch (err) {
      this.showUpload(err.message);
      return;
    }
    this.shared = id;
    this.tableId = null;
    this.deal = 0;
    this.k = this.clamp(step);
    this.render();
  }

  clamp(k) {
    const D = this.data.deals[this.deal];
    return Math.max(0, Math.min(D.steps.length - 1, Number.isFinite(k) ? k : 0));
  }

  step(d, speak = false) {
    this.k = this.clamp(this.k + d);
    this.render();
    if (speak) announce(this.stepWords());
  }

  stepWords() {
    const D = this.data.deals[this.deal];
    const last = D.steps.length - 1;
    if (this.k === 0) return t("ui.step", { k: 0, n: last });
    const seat = D.actors[this.k - 1];
    const a = D.steps[this.k].views[seat === null || seat === undefined ? 0 : seat].last || D.actions[this.k - 1];
    return `${t("ui.step", { k: this.k, n: last })}: ${this.names()[seat] || ""} ${actionText(String(a || ""), this.data.game)}`;
  }

  // the number of the deal's public events that had happened at step k (null: not known)
  eventsAt(k) {
    const D = this.data.deals[this.deal];
    if (!Array.isArray(D.events)) return null;
    const c = D.steps[k] && D.steps[k].events;
    if (typeof c === "number") return c;
    return k === D.steps.length - 1 ? D.events.length : null;
  }

  // the view of `seat` at step k, with its history (the board's observation)
  viewAt(k, seat) {
    const D = this.data.deals[this.deal];
    const view = { ...D.steps[k].views[seat] };
    const hist = [];
    for (let i = 1; i <= k; i++) hist.push(D.steps[i].views[seat].last);
    view.history = hist;
    view.actors = D.actors.slice(0, k);
    return view;
  }

  // what step k did, in words: the events it added, as the live table narrates them
  saidAt(k, state) {
    const now = this.eventsAt(k);
    const before = k > 0 ? this.eventsAt(k - 1) : 0;
    if (now === null || before === null || !Array.isArray(state.events)) return [];
    const out = [];
    for (const e of state.events.slice(before, now)) {
      if (["play", "deal", "deal_end"].includes(e.kind)) continue;
      const said = narrateEvent(e, state, this.data.game, state.you);
      if (said && said.text) out.push({ text: said.text, cls: said.cls || e.kind });
    }
    return out;
  }

  names() {
    const n = this.data.deals[this.deal].num_seats;
    return Array.from({ length: n }, (_, s) => (this.players && this.players[s]) || t("ui.seat", { n: s + 1 }));
  }

  // the address of this moment of the replay
  url() {
    const q = new URLSearchParams();
    if (this.tableId) { q.set("table", this.tableId); q.set("deal", String(this.dealIndex)); }
    else if (this.shared) q.set("record", this.shared);
    else return null;
    if (this.deal) q.set("d", String(this.deal));
    q.set("step", String(this.k));
    return `/replay?${q}`;
  }

  async share() {
    try {
      const res = await this.api("/api/records", this.record);
      this.shared = res.id;
      history.replaceState(null, "", this.url());
      this.render();
      const b = this.root.querySelector("#rp-copy");
      if (b) copyText(location.origin + this.url(), b);
    } catch (err) {
      toast(esc(err.status === 404 || err.status === 405 ? t("ui.share_unavailable") : err.message), 5000, true);
    }
  }

  render() {
    const data = this.data;
    const D = data.deals[this.deal];
    const n = D.num_seats;
    const stepObj = D.steps[this.k];
    const all = this.viewSeat === "all";
    const seat = all ? 0 : +this.viewSeat;
    const view = this.viewAt(this.k, seat);
    const names = this.names();
    const seats = Array.from({ length: n }, (_, s) => ({ name: names[s], kind: "human", connected: true, auto: false, open: false }));
    const state = {
      table: { id: this.tableId, game: data.game, variant: data.variant, num_seats: n, status: "finished" },
      you: seat,
      seats,
      obs: view,
      match: null,
      clock: null,
      deal_no: this.deal + 1,
    };
    const told = this.eventsAt(this.k);
    if (told !== null) {
      // with all hands open nobody is "you": cards passed by or to the seat the board is
      // drawn from are said with its name
      const named = (x) => (typeof x === "number" ? names[x] || x : x);
      state.events = D.events.slice(0, told).map((e) => (all && (e.kind === "pass_cards" || e.kind === "pass_chosen") ? { ...e, from: named(e.from), to: named(e.to) } : e));
      state.events_from = 0;
    }
    const said = this.saidAt(this.k, state);
    const handsOpen = all ? stepObj.views.map((v) => v.hand) : null;
    const last = D.steps.length - 1;
    const url = this.url();
    if (url && location.pathname + location.search !== url) history.replaceState(null, "", url);
    const rtl = document.documentElement.dir === "rtl";
    const [back, fwd, first, end] = rtl ? ["▶", "◀", "▶|", "|◀"] : ["◀", "▶", "|◀", "▶|"];
    this.root.innerHTML = `<div class="replay-bar">
        <b>${esc(t(`games.${data.game}`))}</b>
        ${data.deals.length > 1 ? `<label><span class="sr">${esc(t("ui.deal"))}</span><select id="rp-deal">${data.deals.map((_, i) => `<option value="${i}" ${i === this.deal ? "selected" : ""}>${esc(t("ui.deal_n", { n: i + 1 }))}</option>`).join("")}</select></label>` : ""}
        <span class="rp-buttons" role="group" aria-label="${esc(t("ui.steps"))}"><button type="button" class="btn small" data-step="-9999" aria-label="${esc(t("ui.step_first"))}" aria-keyshortcuts="Home">${first}</button><button type="button" class="btn small" data-step="-1" aria-label="${esc(t("ui.step_back"))}">${back}</button>
        <span class="rp-step" aria-live="polite">${esc(t("ui.step", { k: this.k, n: last }))}</span>
        <button type="button" class="btn small" data-step="1" aria-label="${esc(t("ui.step_forward"))}">${fwd}</button><button type="button" class="btn small" data-step="9999" aria-label="${esc(t("ui.step_last"))}" aria-keyshortcuts="End">${end}</button></span>
        <label>${esc(t("ui.view_as"))} <select id="rp-seat"><option value="all" ${all ? "selected" : ""}>${esc(t("ui.all_hands"))}</option>${seats.map((s, i) => `<option value="${i}" ${String(i) === String(this.viewSeat) ? "selected" : ""}>${esc(s.name)}</option>`).join("")}</select></label>
        ${url ? `<button type="button" class="btn small" id="rp-copy">${esc(t("ui.copy_link"))}</button>` : this.record ? `<button type="button" class="btn small" id="rp-share">${esc(t("ui.share_link"))}</button>` : ""}
        ${this.tableId ? `<a class="btn small" href="/api/tables/${this.tableId}/record" download>${esc(t("ui.download"))}</a>` : ""}
        <a class="btn small" href="/replay" id="rp-open">${esc(t("ui.upload"))}</a>
        ${said.length ? `<p class="rp-said muted" style="flex-basis:100%;margin:0">${said.map((x) => `<span class="ev ev-${esc(x.cls)}" data-event="${esc(x.cls)}">${esc(x.text)}</span>`).join(" · ")}</p>` : ""}
      </div><div id="rp-board" class="table-root"></div>`;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.step : null;
    this.root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => this.step(+b.dataset.step)));
    if (focused) {
      const again = this.root.querySelector(`[data-step="${focused}"]`);
      if (again) again.focus();
    }
    this.root.querySelector("#rp-seat").addEventListener("change", (e) => { this.viewSeat = e.target.value; this.render(); this.root.querySelector("#rp-seat").focus(); });
    const ds = this.root.querySelector("#rp-deal");
    if (ds) ds.addEventListener("change", (e) => { this.deal = +e.target.value; this.k = 0; this.render(); this.root.querySelector("#rp-deal").focus(); });
    const copy = this.root.querySelector("#rp-copy");
    if (copy) copy.addEventListener("click", () => copyText(location.origin + this.url(), copy));
    const share = this.root.querySelector("#rp-share");
    if (share) share.addEventListener("click", () => this.share());
    this.root.querySelector("#rp-open").addEventListener("click", (e) => { e.preventDefault(); history.replaceState(null, "", "/replay"); this.showUpload(); });
    if (!this.board || !this.root.contains(this.board.root)) this.board = new TableView(this.root.querySelector("#rp-board"), { onAct() {}, onExplain() {} });
    this.board.root = this.root.querySelector("#rp-board");
    // the step before as the board's previous frame: its narration says what this step did;
    // a note on the felt lasts while stepping forward and goes on a jump
    const key = `${this.deal}/${this.viewSeat}`;
    const onward = this.shown && this.shown.key === key && this.shown.k === this.k - 1;
    if (!onward) this.board.note = null;
    const before = this.k > 0 ? this.eventsAt(this.k - 1) : null;
    this.board.prev = this.k > 0 && before !== null && told !== null
      ? { obs: this.viewAt(this.k - 1, seat), pos: null, myTurn: false, deal: this.deal + 1, events: before }
      : null;
    this.board.render({ game: data.game, state, handsOpen, replay: true });
    this.shown = { key, k: this.k };
  }
}

export { seatName };
