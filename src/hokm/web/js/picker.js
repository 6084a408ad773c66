// A 52-card picker (4 rows of 13) used by the simulator and the trump advisor.
import { h } from "./dom.js";
import { SUITS, cardEl } from "./cards.js";

export const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
export const DECK = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));

/** ``state(code)`` → {pressed, owner, disabled}; ``onpick(code)`` on click. */
export function picker(state, onpick, label) {
  return h(
    "div.picker",
    { role: "group", "aria-label": label },
    DECK.map((code) => {
      const st = state(code) || {};
      const el = cardEl(code, {
        button: true,
        extra: [st.owner !== undefined && st.owner !== null ? `owner-${st.owner}` : "", st.taken ? "taken" : ""].filter(Boolean).join("."),
        onclick: () => onpick(code),
      });
      el.setAttribute("aria-pressed", st.pressed ? "true" : "false");
      if (st.disabled) el.disabled = true;
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
