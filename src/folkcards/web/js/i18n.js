// Languages: each is a module in ./lang/<code>.js with the same keys as en.js.
// To add a language, add its file and its code to LANGS.
import en from "./lang/en.js";
import fa from "./lang/fa.js";

export const LANGS = { en, fa };
let current = "en";

export function setLang(code) {
  current = LANGS[code] ? code : "en";
  localStorage.setItem("fc.lang", current);
  document.documentElement.lang = current;
  document.documentElement.dir = LANGS[current].dir;
}

export function lang() {
  return current;
}

export function initLang() {
  const saved = localStorage.getItem("fc.lang");
  const nav = (navigator.language || "en").slice(0, 2);
  setLang(saved || (LANGS[nav] ? nav : "en"));
}

function lookup(dict, path) {
  let v = dict;
  for (const p of path.split(".")) {
    if (v == null) return undefined;
    v = v[p];
  }
  return v;
}

// A number in the current language's digits.
export function num(n) {
  if (n === null || n === undefined) return "—";
  const s = String(n);
  if (current !== "fa") return s;
  return s.replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[+d]).replace(/-/g, "−").replace(/\./g, "٫");
}

// t("ui.seat", {n: 2}) → "Seat 2"; parameters are formatted as numbers when numeric.
export function t(key, params) {
  let s = lookup(LANGS[current], key);
  if (s === undefined) s = lookup(en, key);
  if (s === undefined) return key.split(".").pop();
  if (params) {
    s = String(s).replace(/\{(\w+)\}/g, (_, k) => (typeof params[k] === "number" ? num(params[k]) : String(params[k] ?? "")));
  }
  return s;
}

// Like t, but undefined when the key is missing in every language.
export function tMaybe(key) {
  const s = lookup(LANGS[current], key);
  return s !== undefined ? s : lookup(en, key);
}

// A card in words in the current language: "King of spades", "شاه پیک"; the Italian
// pack has its own court names and suits ("Re (king) of coins").
export function cardName(text, deck = "french") {
  const it = deck === "italian";
  const rank = tMaybe(`${it ? "ranks_italian" : "ranks"}.${text[0]}`) || tMaybe(`ranks.${text[0]}`) || text[0];
  const suit = tMaybe(`${it ? "suits_italian" : "suits"}.${text[1]}`) || text[1];
  return t("ui.card_name", { rank, suit });
}

// Is `key` (a dotted path) present in the current language or English?
export function has(key) {
  return tMaybe(key) !== undefined;
}
