// A 52-card picker (4 rows of 13) used by the simulator and the trump advisor.
import { arrowFocus, h } from "./dom.js";
import { SUITS, cardEl, cardName } from "./cards.js";
import { t } from "./i18n.js";

export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
export const DECK = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));

/** ``state(code)`` → {pressed, owner, disabled}; ``onpick(code)`` on click.
 *
 * One Tab stop for the 52 cards (the first that can be picked); the arrow keys move in the
 * grid (left and right as the row reads, up and down by a suit), Home and End along a row. */
export function picker(state, onpick, label) {
  let first = true;
  return h(
    "div.picker",
    { role: "group", "aria-label": label, onkeydown: arrowFocus(".card", RANKS.length) },
    DECK.map((code) => {
      const st = state(code) || {};
      // a card another seat holds says whose it is (its colour alone said it)
      const held = st.owner !== undefined && st.owner !== null && !st.pressed;
      const el = cardEl(code, {
        button: true,
        label: held ? `${cardName(code)} (${t("seat_n", { n: st.owner + 1 })})` : undefined,
        extra: [st.owner !== undefined && st.owner !== null ? `owner-${st.owner}` : "", st.taken ? "taken" : ""].filter(Boolean).join("."),
        onclick: () => onpick(code),
      });
      el.setAttribute("aria-pressed", st.pressed ? "true" : "false");
      if (st.disabled) el.disabled = true;
      el.setAttribute("tabindex", first && !st.disabled ? "0" : "-1");
      if (!st.disabled) first = false;
      return el;
    }),
  );
}

export function shuffled(list) {
  const a = [...list];
  const buf = new Uint32Array(a.length);
  crypto.getRandomValues(buf);
  for (let i = a.length - 1; i > 0; i--) {
    const j = buf[i] % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
