// Cards drawn with HTML/CSS (no images): rank, suit symbol, an accessible name.
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_ORDER = "23456789TJQKA";
const FACE = { T: "10" };

export function rankOf(code) {
  return code.slice(0, -1);
}

export function suitOf(code) {
  return code.slice(-1);
}

/** The spoken name of a card in the active language, e.g. "آس دل" / "ace of hearts". */
export function cardName(code) {
  const r = rankOf(code);
  const rank = "AKQJT".includes(r) ? t(`rank_${r}`) : num(r);
  return t("card_name", { rank, suit: t(`suit_${suitOf(code)}`) });
}

export function suitName(s) {
  return `${t(`suit_${s}`)} ${SYMBOL[s]}`;
}

/** Sort a hand by suit (alternating colours, trump first) then by rank, high to low. */
export function sortHand(cards, trump) {
  const order = ["S", "H", "C", "D"];
  if (trump) {
    order.splice(order.indexOf(trump), 1);
    order.unshift(trump);
    // keep colours alternating where possible
    const red = (s) => s === "H" || s === "D";
    for (let i = 1; i < order.length - 1; i++) {
      if (red(order[i]) === red(order[i - 1])) {
        const j = order.findIndex((s, k) => k > i && red(s) !== red(order[i - 1]));
        if (j > 0) [order[i], order[j]] = [order[j], order[i]];
      }
    }
  }
  return [...cards].sort((a, b) => {
    const ds = order.indexOf(suitOf(a)) - order.indexOf(suitOf(b));
    if (ds) return ds;
    return RANK_ORDER.indexOf(rankOf(b)) - RANK_ORDER.indexOf(rankOf(a));
  });
}

/** A card face. ``opts.button`` makes it a button (``opts.onclick``, ``opts.disabled``). */
export function cardEl(code, opts = {}) {
  const s = suitOf(code);
  const r = rankOf(code);
  const face = FACE[r] ?? r;
  const inner = [
    h("span.corner", { "aria-hidden": "true" }, h("span.rank", {}, face), h("span.pip", {}, SYMBOL[s])),
    h("span.centre", { "aria-hidden": "true" }, SYMBOL[s]),
  ];
  const cls = `card.suit-${s}${opts.extra ? `.${opts.extra}` : ""}`;
  const label = opts.label ?? cardName(code);
  if (opts.button) {
    return h(
      `button.${cls}`,
      {
        type: "button",
        "aria-label": label,
        "aria-disabled": opts.disabled ? "true" : undefined,
        "aria-describedby": opts.describedby,
        dataset: { card: code },
        onclick: opts.onclick,
      },
      inner,
    );
  }
  return h(`div.${cls}`, { role: "img", "aria-label": label, dataset: { card: code } }, inner);
}

/** A face-down card (others' hands). */
export function backEl(extra = "") {
  return h(`div.card.back${extra ? `.${extra}` : ""}`, { "aria-hidden": "true" });
}
