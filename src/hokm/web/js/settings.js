/** This browser's display settings (the ☰ menu): kept in localStorage["hokm.settings"]. */

/** ``deck4``: the four-colour deck; ``sound``: the chime when the player's turn comes
 * (on unless turned off). */
export function settings() {
  try {
    return JSON.parse(localStorage.getItem("hokm.settings") || "{}");
  } catch {
    return {};
  }
}

export function saveSettings(s) {
  try {
    localStorage.setItem("hokm.settings", JSON.stringify(s));
  } catch {
    /* ignore */
  }
}
