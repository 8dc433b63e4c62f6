// "My games": every table this browser sat at, kept in localStorage ("fc.history") with its
// seat token, the deals' scores, the date, and what it takes to play it again.
const KEY = "fc.history";
const MAX = 200;

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

// Merge what is known now about table `id` into its entry.
export function remember(id, facts) {
  const all = load();
  const now = Date.now();
  const old = all[id] || { id, created: now, deals: [] };
  const next = { ...old, ...Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined)), id, updated: now };
  if (!facts.deals) next.deals = old.deals || [];
  all[id] = next;
  const ids = Object.keys(all).sort((a, b) => all[b].updated - all[a].updated);
  for (const gone of ids.slice(MAX)) delete all[gone];
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage full or disabled: the history is a convenience
  }
}

// The tables, most recently played first.
export function history() {
  return Object.values(load()).sort((a, b) => b.updated - a.updated);
}

export function forget(id) {
  const all = load();
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
}
