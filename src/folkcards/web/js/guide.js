// The rules guide (folkcards.guide, served at /guide when the server has it): labels and
// one-line help for every option, choice, result field and phase, and a rules page per game
// and language. Until it is there (or for what it leaves out) the client's own texts in
// lang/<code>.js stand in, so every label and help line always exists.
//
// The files (folkcards/guide, see its module docstring):
//   /guide/labels.<lang>.json  {common: {...}, games: {<game>: {title, description,
//                               options: {<key>: {label, help, choices?: {<value>: label}}},
//                               results: {<key>: {label, help}}, phases: {<phase>: {label, help}}, ...}}}
//   /guide/<game>.<lang>.md    the rules page: "## Title {#id}" sections
//   /guide/index.json          {games: {<game>: {sections: [{id, phases: [...]}, ...]}}}
import { t, tMaybe, lang, has } from "./i18n.js";
import { esc } from "./present.js";

const labels = {};
const pages = {};

// Fetch the guide's labels of a language once; true when they arrived just now.
export async function loadGuide(code) {
  if (code in labels) return false;
  labels[code] = null;
  try {
    const res = await fetch(`/guide/labels.${code}.json`);
    if (res.ok) labels[code] = await res.json();
  } catch {
    labels[code] = null;
  }
  return labels[code] !== null;
}

let index = null;

async function loadIndex() {
  if (index !== null) return index;
  index = {};
  try {
    const res = await fetch("/guide/index.json");
    if (res.ok) index = await res.json();
  } catch {
    index = {};
  }
  return index;
}

function entry(...path) {
  let v = labels[lang()];
  for (const p of path) {
    if (v == null || typeof v !== "object") return null;
    v = v[p];
  }
  if (v == null) return null;
  return typeof v === "string" ? { label: v } : v;
}

function pick(guideEntry, labelKey, helpKey) {
  return {
    label: (guideEntry && guideEntry.label) || tMaybe(labelKey) || labelKey.split(".").pop(),
    help: (guideEntry && guideEntry.help) || tMaybe(helpKey) || "",
  };
}

export function optionField(game, key, engineHelp = "") {
  const f = pick(entry("games", game, "options", key), `options.${key}`, `options_help.${key}`);
  if (!f.help) f.help = engineHelp;
  return f;
}

export function choiceLabel(game, key, value) {
  const g = entry("games", game, "options", key);
  if (g && g.choices && g.choices[value] != null) return typeof g.choices[value] === "string" ? g.choices[value] : g.choices[value].label;
  return tMaybe(`choices.${key}.${value}`) || null;
}

export function resultField(game, key) {
  return pick(entry("games", game, "results", key), `result.${key}`, `result_help.${key}`);
}

export function phaseHelp(game, phase) {
  const g = entry("games", game, "phases", phase);
  return (g && g.help) || tMaybe(`phase_help.${game}.${phase}`) || tMaybe(`phase_help.${phase}`) || "";
}

export function gameAbout(game) {
  const g = entry("games", game);
  return (g && (g.description || g.about)) || tMaybe(`about.${game}`) || "";
}

// ------------------------------------------------------------------ the rules page
async function page(game) {
  const key = `${game}.${lang()}`;
  if (key in pages) return pages[key];
  pages[key] = null;
  for (const url of [`/guide/${game}.${lang()}.md`, `/guide/${game}/${lang()}.md`, `/guide/${game}.en.md`]) {
    try {
      const res = await fetch(url);
      if (res.ok && !(res.headers.get("content-type") || "").includes("html")) {
        pages[key] = await res.text();
        break;
      }
    } catch {
      // try the next place
    }
  }
  return pages[key];
}

function inline(s) {
  return esc(s)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>");
}

// A small Markdown reader for the guide's pages: headings, paragraphs, lists, tables.
export function markdown(md) {
  const out = [];
  let list = null;
  let para = [];
  let table = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
    if (list) out.push(`<ul>${list.map((x) => `<li>${inline(x)}</li>`).join("")}</ul>`);
    list = null;
    if (table) {
      const rows = table.filter((r) => !/^\s*\|?\s*:?-+/.test(r));
      const cells = (r) => r.replace(/^\s*\|/, "").replace(/\|\s*$/, "").split("|").map((c) => c.trim());
      const [head, ...body] = rows;
      out.push(`<div class="table-scroll"><table><thead><tr>${cells(head).map((c) => `<th scope="col">${inline(c)}</th>`).join("")}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`);
    }
    table = null;
  };
  for (const line of md.split("\n")) {
    if (/^\s*<!--.*-->\s*$/.test(line)) continue; // the guide's rule/phase notes
    const h = line.match(/^(#{1,4})\s+(.*?)\s*(\{#([\w-]+)\})?$/);
    if (h) {
      flush();
      const level = Math.min(6, h[1].length + 2);
      const id = h[4] || `g-${h[2].toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-")}`;
      out.push(`<h${level} id="${esc(id)}" tabindex="-1">${inline(h[2])}</h${level}>`);
    } else if (/^\s*[-*]\s+/.test(line)) {
      if (para.length) { out.push(`<p>${inline(para.join(" "))}</p>`); para = []; }
      (list = list || []).push(line.replace(/^\s*[-*]\s+/, ""));
    } else if (/^\s*\|/.test(line)) {
      (table = table || []).push(line);
    } else if (!line.trim()) {
      flush();
    } else {
      para.push(line.trim());
    }
  }
  flush();
  return out.join("\n");
}

// The rules of `game` in a dialog, opened at the section of `phase` when there is one.
export async function rulesHTML(game, phase) {
  const md = await page(game);
  const about = gameAbout(game);
  const help = phase ? phaseHelp(game, phase) : "";
  let h = `${about ? `<p class="about">${esc(about)}</p>` : ""}`;
  if (help) h += `<div class="phase-now"><b>${esc(t("ui.now"))}: ${esc(t(`phases.${phase}`))}</b> — ${esc(help)}</div>`;
  if (md) h += `<div class="guide-page" dir="auto">${markdown(md)}</div>`;
  else h += `<p class="muted">${esc(t("ui.guide_missing"))}</p>`;
  return h;
}

// focus and scroll to the phase's section of an opened rules page: the section the guide's
// index names for the phase, else a heading that names it
export async function jumpToPhase(root, phase, game) {
  if (!phase) return;
  const idx = await loadIndex();
  const secs = idx && idx.games && idx.games[game] ? idx.games[game].sections || [] : [];
  const sec = secs.find((x) => Array.isArray(x.phases) && x.phases.includes(phase));
  const byId = root.querySelector(`#${CSS.escape(sec ? sec.id : `phase-${phase}`)}`);
  const name = (t(`phases.${phase}`) || phase).toLowerCase();
  const heading = byId || [...root.querySelectorAll(".guide-page h3, .guide-page h4, .guide-page h5, .guide-page h6")].find((x) => {
    const s = x.textContent.toLowerCase();
    return s.includes(name) || s.includes(phase.toLowerCase());
  });
  if (heading) {
    heading.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
  }
  return heading || null;
}

export { has };
