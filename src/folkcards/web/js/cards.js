// SVG pictures of the cards, drawn here (no image files): a French pack (Sasku,
// Sheepshead, Satat, Huutopussi) and an Italian pack (Scopone: coins, cups, swords,
// batons). cardSVG(text, deck) returns an <svg> string for a card such as "TH".

const FRENCH = {
  H: { color: "#c8102e", path: "M10 18.5C10 18.5 1 12.3 1 6.6 1 3.6 3.3 1.5 5.9 1.5 7.8 1.5 9.3 2.6 10 4.2 10.7 2.6 12.2 1.5 14.1 1.5 16.7 1.5 19 3.6 19 6.6 19 12.3 10 18.5 10 18.5Z" },
  D: { color: "#b23c00", path: "M10 0.8 18 10 10 19.2 2 10Z" },
  S: { color: "#1b1b1f", path: "M10 1C10 1 1.5 7.6 1.5 12 1.5 14.7 3.5 16.4 5.8 16.4 7.3 16.4 8.5 15.7 9.1 14.6L7.8 19.2H12.2L10.9 14.6C11.5 15.7 12.7 16.4 14.2 16.4 16.5 16.4 18.5 14.7 18.5 12 18.5 7.6 10 1 10 1Z" },
  C: { color: "#1b1b1f", path: "M10 1.2A4.2 4.2 0 0 0 6.1 7 4.2 4.2 0 1 0 8.6 13.4L7.6 19.2H12.4L11.4 13.4A4.2 4.2 0 1 0 13.9 7 4.2 4.2 0 0 0 10 1.2Z" },
};

// Italian suits, drawn in a 20x20 box.
const ITALIAN = {
  D: { color: "#8a6508", svg: (c) => `<circle cx="10" cy="10" r="8.6" fill="#f2c94c" stroke="${c}" stroke-width="1.4"/><circle cx="10" cy="10" r="5.2" fill="none" stroke="${c}" stroke-width="1.1"/><circle cx="10" cy="10" r="1.8" fill="#d94f2b"/>` },
  H: { color: "#b3262d", svg: (c) => `<path d="M3.5 2.5H16.5C16.5 8.5 13.6 11 11.2 11.6V15.2C13 15.6 14.6 16.6 14.8 18.6H5.2C5.4 16.6 7 15.6 8.8 15.2V11.6C6.4 11 3.5 8.5 3.5 2.5Z" fill="#e0a53a" stroke="${c}" stroke-width="1.1"/><path d="M4 4.6H16" stroke="${c}" stroke-width="1"/>` },
  S: { color: "#2a5caa", svg: (c) => `<path d="M10 0.8 12 3.5 11.2 13H8.8L8 3.5Z" fill="#cfd8e6" stroke="${c}" stroke-width="0.9"/><path d="M4.5 13H15.5V14.6H4.5Z" fill="#e0a53a" stroke="${c}" stroke-width="0.7"/><path d="M9 14.6H11V18H9Z" fill="#7a4a1d"/><circle cx="10" cy="18.6" r="1.2" fill="#e0a53a"/>` },
  C: { color: "#2f7d32", svg: (c) => `<path d="M7.2 19.2C6.4 19 6 18.2 6.3 17.3L11.6 1.9C11.9 1 12.9 0.6 13.7 1 14.5 1.3 14.8 2.2 14.5 3.1L9.3 18.4C9 19.1 8 19.5 7.2 19.2Z" fill="#6b8e23" stroke="${c}" stroke-width="1"/><circle cx="10.3" cy="8.5" r="1.2" fill="#3e5f14"/><circle cx="8.8" cy="13" r="1.1" fill="#3e5f14"/>` },
};

// pip positions (in a 100x140 card) for 2..10
const PIPS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 28], [68, 28], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 112], [68, 112]],
  10: [[32, 28], [68, 28], [50, 42], [32, 56], [68, 56], [32, 84], [68, 84], [50, 98], [32, 112], [68, 112]],
};

const RANK_VALUE = { A: 1, T: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };

// The four-colour French pack (clubs green, diamonds blue) for players who tell the suits
// apart by colour; a setting of the client (localStorage "fc.fourColour").
const FOUR_COLOUR = { C: "#1d7a33", D: "#1e4fd1" };
let fourColour = false;

export function setFourColour(on) {
  fourColour = !!on;
}

export function isFourColour() {
  return fourColour;
}

export function rankLabel(rank, deck) {
  if (rank === "T") return "10";
  if (deck === "italian") return { J: "F", Q: "C", K: "R" }[rank] || rank;
  return rank;
}

function suitGlyph(suit, deck, x, y, size, flip = false) {
  const s = size / 20;
  const tr = `translate(${x - size / 2} ${y - size / 2}) scale(${s})` + (flip ? " rotate(180 10 10)" : "");
  if (deck === "italian") {
    const it = ITALIAN[suit];
    return `<g transform="${tr}">${it.svg(it.color)}</g>`;
  }
  return `<path transform="${tr}" d="${FRENCH[suit].path}" fill="${suitColor(suit, deck)}"/>`;
}

export function suitColor(suit, deck) {
  if (deck !== "italian" && fourColour && FOUR_COLOUR[suit]) return FOUR_COLOUR[suit];
  return (deck === "italian" ? ITALIAN : FRENCH)[suit].color;
}

export function suitIcon(suit, deck, size = 14) {
  return `<svg class="suit-icon" viewBox="0 0 20 20" width="${size}" height="${size}" aria-hidden="true" focusable="false">${suitGlyph(suit, deck, 10, 10, 20)}</svg>`;
}

function face(rank, suit, deck) {
  const col = suitColor(suit, deck);
  const letter = rankLabel(rank, deck);
  const band = deck === "italian" ? "#f6e7c1" : "#f3ecd8";
  // a simple court figure: crown/hat, head, body, in the suit's colour
  const hat = rank === "K"
    ? `<path d="M38 44 L42 34 L47 41 L50 31 L53 41 L58 34 L62 44Z" fill="#e0a53a" stroke="#7a5a10" stroke-width="1"/>`
    : rank === "Q"
      ? (deck === "italian"
        ? `<path d="M39 44 Q50 30 61 44Z" fill="${col}"/>`
        : `<path d="M40 44 Q50 32 60 44 L57 40 L50 36 L43 40Z" fill="#e0a53a" stroke="#7a5a10" stroke-width="1"/>`)
      : `<rect x="40" y="37" width="20" height="7" rx="3" fill="${col}"/>`;
  return `<rect x="18" y="22" width="64" height="96" rx="5" fill="${band}" stroke="${col}" stroke-width="1.5"/>
    ${hat}
    <circle cx="50" cy="52" r="8.5" fill="#f7d9b5" stroke="#6b4b2a" stroke-width="1"/>
    <path d="M33 96 Q33 66 50 62 Q67 66 67 96Z" fill="${col}" opacity="0.9"/>
    <path d="M44 66 L50 80 L56 66" fill="none" stroke="#fff" stroke-width="2"/>
    ${suitGlyph(suit, deck, 50, 104, 16)}
    <text x="50" y="92" text-anchor="middle" font-size="14" font-weight="700" fill="#fff" font-family="Georgia,serif">${letter}</text>`;
}

// cardSVG(text, deck, name): the picture; `name` (the card in words) is its accessible
// name, or the picture is hidden from assistive technology when the caller names it.
export function cardSVG(text, deck = "french", name = null) {
  const rank = text[0];
  const suit = text[1];
  const col = suitColor(suit, deck);
  const label = rankLabel(rank, deck);
  const bg = deck === "italian" ? "#fffaf0" : "#ffffff";
  let body = "";
  if ("JQK".includes(rank)) {
    body = face(rank, suit, deck);
  } else if (rank === "A") {
    body = suitGlyph(suit, deck, 50, 70, deck === "italian" ? 52 : 44);
  } else {
    const n = RANK_VALUE[rank];
    const size = deck === "italian" ? (n >= 6 ? 24 : 30) : n >= 9 ? 17 : 19;
    body = PIPS[n].map(([x, y]) => suitGlyph(suit, deck, x, y, size, y > 70)).join("");
  }
  const font = "font-family=\"Georgia,'Times New Roman',serif\" font-weight=\"700\"";
  const corner = `<text x="9" y="21" font-size="${label.length > 1 ? 16 : 19}" fill="${col}" ${font} text-anchor="middle" transform="translate(3 0)">${label}</text>${suitGlyph(suit, deck, 12, 31, 12)}`;
  const corner2 = `<g transform="rotate(180 50 70)">${corner}</g>`;
  return `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" ${name ? `role="img" aria-label="${name}"` : `aria-hidden="true" focusable="false"`}>
    <rect x="1" y="1" width="98" height="138" rx="8" fill="${bg}" stroke="#9aa0a6" stroke-width="1.2"/>
    ${body}${corner}${corner2}</svg>`;
}

export function backSVG(deck = "french") {
  const c1 = deck === "italian" ? "#8a2b1f" : "#1f3f7a";
  const c2 = deck === "italian" ? "#b5473a" : "#2f5aa8";
  return `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <defs><pattern id="bp-${deck}" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" fill="${c1}"/><rect width="5" height="10" fill="${c2}"/></pattern></defs>
    <rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#9aa0a6" stroke-width="1.2"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#bp-${deck})"/>
    <circle cx="50" cy="70" r="15" fill="#fff" opacity="0.9"/>
    <text x="50" y="76" font-size="16" text-anchor="middle" fill="${c1}" font-family="Georgia,serif" font-weight="700">fc</text></svg>`;
}

// Short inline text for a card in labels and logs: the index and suit drawn ("K♠"), the
// card in words (`name`, e.g. "King of spades") as its accessible name and tooltip.
export function cardInline(text, deck = "french", name = "") {
  const rank = rankLabel(text[0], deck);
  const aria = name ? ` role="img" aria-label="${name}" title="${name}"` : "";
  return `<bdi dir="ltr" class="cinline" style="color:${suitColor(text[1], deck)}"${aria}>${rank}${suitIcon(text[1], deck, 13)}</bdi>`;
}
