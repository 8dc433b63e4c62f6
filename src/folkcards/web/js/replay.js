// The replay viewer: step through a finished deal of a table, or an uploaded record,
// from one seat's view or with all hands open.
import { t, num } from "./i18n.js";
import { TableView } from "./table.js";
import { esc } from "./present.js";

export class ReplayView {
  constructor(root, api) {
    this.root = root;
    this.api = api;
    this.data = null;
    this.deal = 0;
    this.k = 0;
    this.viewSeat = "all";
    this.players = null;
    this.onKey = (e) => {
      if (!this.data) return;
      if (e.key === "ArrowRight") this.step(1);
      else if (e.key === "ArrowLeft") this.step(-1);
    };
    document.addEventListener("keydown", this.onKey);
  }

  close() {
    document.removeEventListener("keydown", this.onKey);
  }

  showUpload(error) {
    this.root.innerHTML = `<section class="card-panel upload"><h2>${esc(t("ui.upload"))}</h2>
      <p>${esc(t("ui.upload_help"))}</p><input type="file" id="record-file" accept=".json,application/json">
      ${error ? `<p class="error">${esc(error)}</p>` : ""}</section>`;
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
      this.players = rec.meta && Array.isArray(rec.meta.players) ? rec.meta.players : null;
      this.deal = 0;
      this.k = 0;
      this.tableId = null;
      this.render();
    });
  }

  async loadTable(id, deal) {
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
    this.k = 0;
    this.render();
  }

  step(d) {
    const D = this.data.deals[this.deal];
    this.k = Math.max(0, Math.min(D.steps.length - 1, this.k + d));
    this.render();
  }

  render() {
    const data = this.data;
    const D = data.deals[this.deal];
    const n = D.num_seats;
    const stepObj = D.steps[this.k];
    const all = this.viewSeat === "all";
    const seat = all ? 0 : +this.viewSeat;
    const view = { ...stepObj.views[seat] };
    const history = [];
    for (let i = 1; i <= this.k; i++) history.push(D.steps[i].views[seat].last);
    view.history = history;
    view.actors = D.actors.slice(0, this.k);
    const seats = Array.from({ length: n }, (_, s) => ({ name: (this.players && this.players[s]) || t("ui.seat", { n: s + 1 }), kind: "human", connected: true, auto: false, open: false }));
    const state = {
      table: { id: this.tableId, game: data.game, num_seats: n, status: "finished" },
      you: seat,
      seats,
      obs: view,
      match: null,
      clock: null,
    };
    const handsOpen = all ? stepObj.views.map((v) => v.hand) : null;
    const last = D.steps.length - 1;
    this.root.innerHTML = `<div class="replay-bar">
        <b>${esc(t(`games.${data.game}`))}</b>
        ${data.deals.length > 1 ? `<select id="rp-deal">${data.deals.map((_, i) => `<option value="${i}" ${i === this.deal ? "selected" : ""}>${esc(t("ui.deal_n", { n: i + 1 }))}</option>`).join("")}</select>` : ""}
        <span class="rp-buttons"><button class="btn small" data-step="-9999" aria-label="start">|◀</button><button class="btn small" data-step="-1" aria-label="back">◀</button>
        <span class="rp-step">${esc(t("ui.step", { k: this.k, n: last }))}</span>
        <button class="btn small" data-step="1" aria-label="forward">▶</button><button class="btn small" data-step="9999" aria-label="end">▶|</button></span>
        <label>${esc(t("ui.view_as"))} <select id="rp-seat"><option value="all" ${all ? "selected" : ""}>${esc(t("ui.all_hands"))}</option>${seats.map((s, i) => `<option value="${i}" ${String(i) === String(this.viewSeat) ? "selected" : ""}>${esc(s.name)}</option>`).join("")}</select></label>
        ${this.tableId ? `<a class="btn small" href="/api/tables/${this.tableId}/record" download>${esc(t("ui.download"))}</a>` : ""}
        <a class="btn small" href="/replay" id="rp-open">${esc(t("ui.upload"))}</a>
      </div><div id="rp-board" class="table-root"></div>`;
    this.root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => this.step(+b.dataset.step)));
    this.root.querySelector("#rp-seat").addEventListener("change", (e) => { this.viewSeat = e.target.value; this.render(); });
    const ds = this.root.querySelector("#rp-deal");
    if (ds) ds.addEventListener("change", (e) => { this.deal = +e.target.value; this.k = 0; this.render(); });
    this.root.querySelector("#rp-open").addEventListener("click", (e) => { e.preventDefault(); this.showUpload(); });
    if (!this.board || !this.root.contains(this.board.root)) this.board = new TableView(this.root.querySelector("#rp-board"), { onAct() {}, onExplain() {} });
    this.board.root = this.root.querySelector("#rp-board");
    this.board.prev = null;
    this.board.render({ game: data.game, state, handsOpen, replay: true });
  }
}
