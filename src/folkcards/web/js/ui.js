// Pieces every page shares: live regions that speak (turns, tricks, errors), the toast,
// real modal dialogs (<dialog>: focus kept inside, Escape closes, focus given back), the
// player's settings (four-colour pack, sound) and small sounds.
import { t } from "./i18n.js";
import { setFourColour } from "./cards.js";

let polite = null;
let assertive = null;
let toastEl = null;
let toastTimer = null;

function regions() {
  if (polite && document.body.contains(polite)) return;
  polite = document.createElement("div");
  polite.id = "live-polite";
  polite.className = "sr";
  polite.setAttribute("aria-live", "polite");
  polite.setAttribute("aria-relevant", "additions");
  assertive = document.createElement("div");
  assertive.id = "live-alert";
  assertive.className = "sr";
  assertive.setAttribute("role", "alert");
  toastEl = document.createElement("div");
  toastEl.className = "toast";
  toastEl.id = "toast";
  toastEl.hidden = true;
  document.body.append(polite, assertive, toastEl);
}

// Say `text` to assistive technology (polite: after what is being read; assertive: now).
export function announce(text, urgent = false) {
  if (!text) return;
  regions();
  const host = urgent ? assertive : polite;
  const p = document.createElement("p");
  p.textContent = text;
  host.appendChild(p);
  while (host.children.length > 6) host.firstChild.remove();
  setTimeout(() => p.remove(), 15000);
}

// A message shown for a while at the bottom of the screen, and read out.
export function toast(html, ms = 3500, urgent = false) {
  regions();
  toastEl.innerHTML = html;
  toastEl.hidden = false;
  announce(toastEl.textContent, urgent);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toastEl.hidden = true; }, ms);
}

export function dialogOpen() {
  const d = document.getElementById("fc-dialog");
  return !!(d && d.open);
}

export function closeDialog() {
  const d = document.getElementById("fc-dialog");
  if (d && d.open) d.close();
}

// A modal dialog: {title, body (HTML), wide, onClose, bind(el)}; returns the element.
// The first element marked [autofocus] (else the first button) gets the focus; closing it
// (Escape, the close button, a click outside) gives the focus back to where it was, or to
// `fallbackFocus()` when that element is gone.
export function openDialog({ title, body, wide = false, onClose = null, bind = null, fallbackFocus = null }) {
  closeDialog();
  const opener = document.activeElement;
  const d = document.createElement("dialog");
  d.id = "fc-dialog";
  d.className = `dialog${wide ? " wide" : ""}`;
  d.setAttribute("aria-labelledby", "fc-dialog-title");
  d.innerHTML = `<div class="dialog-head"><h2 id="fc-dialog-title">${title}</h2>
    <button type="button" class="btn ghost small dialog-close" aria-label="${t("ui.close")}">✕</button></div>
    <div class="dialog-body">${body}</div>`;
  document.body.appendChild(d);
  d.querySelector(".dialog-close").addEventListener("click", () => d.close());
  d.addEventListener("click", (e) => { if (e.target === d) d.close(); }); // the backdrop
  d.addEventListener("close", () => {
    d.remove();
    if (onClose) onClose();
    if (opener && document.body.contains(opener) && opener.focus) opener.focus();
    else if (fallbackFocus) fallbackFocus();
  });
  // Tab and Shift+Tab go round inside the dialog (the browser would leave it for its own UI)
  d.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const items = [...d.querySelectorAll("button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])")].filter((x) => !x.disabled && x.offsetParent !== null);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !d.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !d.contains(document.activeElement))) {
      e.preventDefault();
      first.focus();
    }
  });
  if (bind) bind(d);
  d.showModal();
  const first = d.querySelector("[autofocus]") || d.querySelector(".dialog-body button, .dialog-body a, .dialog-body input, .dialog-body select") || d.querySelector(".dialog-close");
  if (first) first.focus();
  return d;
}

// ------------------------------------------------------------------ settings
export function setting(name, fallback = false) {
  const v = localStorage.getItem(`fc.${name}`);
  return v === null ? fallback : v === "1";
}

export function setSetting(name, on) {
  localStorage.setItem(`fc.${name}`, on ? "1" : "0");
  applySettings();
}

export function applySettings() {
  setFourColour(setting("fourColour"));
  document.documentElement.classList.toggle("four-colour", setting("fourColour"));
  document.documentElement.classList.toggle("big-cards", setting("bigCards"));
}

// ------------------------------------------------------------------ sound (off by default)
let audio = null;
const TONES = {
  turn: [[660, 0, 0.09], [880, 0.11, 0.12]],
  play: [[320, 0, 0.05]],
  trick: [[520, 0, 0.07], [390, 0.08, 0.09]],
  sweep: [[660, 0, 0.07], [880, 0.08, 0.07], [1100, 0.16, 0.12]],
  error: [[200, 0, 0.18]],
  end: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.2]],
};

export function sound(name) {
  if (!setting("sound") || !TONES[name]) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [freq, at, len] of TONES[name]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = freq;
      o.type = "triangle";
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.15, now + at + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      o.connect(g).connect(audio.destination);
      o.start(now + at);
      o.stop(now + at + len + 0.02);
    }
  } catch {
    // no audio on this device: silence
  }
}

// Copy text to the clipboard; the button says it worked.
export async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    ta.remove();
  }
  if (button) {
    const was = button.dataset.label || button.textContent;
    button.dataset.label = was;
    button.textContent = ok ? t("ui.copied") : t("ui.copy_failed");
    setTimeout(() => { button.textContent = was; }, 2000);
  }
  announce(ok ? t("ui.copied") : t("ui.copy_failed"));
  return ok;
}
