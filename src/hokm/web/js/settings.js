/** This browser's display settings (the ☰ menu): kept in localStorage["hokm.settings"]. */

/** ``deck4``: the four-colour deck; ``sound``: the chime when the player's turn comes
 * (on unless turned off); ``theme``: "light" or "dark", else (absent, "auto") the system's. */
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

export const THEMES = ["auto", "light", "dark"];

/** The ☰ menu's «پوسته»: "auto" (the system's light or dark, the default), "light" or "dark". */
export function themeChoice() {
  const theme = settings().theme;
  return THEMES.includes(theme) ? theme : "auto";
}

/** Put the chosen theme on <html data-theme> (none for "auto": the CSS follows the system).
 * index.html does the same in <head> before the page is first drawn. */
export function applyTheme(theme = themeChoice()) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}
