// Shared helpers: refusal messages, bot levels, rule options, chat phrases.
import { h } from "./dom.js";
import { capitalized, has, lang, num, t } from "./i18n.js";
import { api } from "./net.js";

/** A readable message for a server refusal (error frame or ServerError), in the active language. */
export function refusal(err) {
  if (!err) return t("offline");
  if (lang() === "fa" && typeof err.message_fa === "string" && err.message_fa) {
    return err.message_fa;
  }
  const msg = err.messages ?? err.message;
  if (msg && typeof msg === "object") return msg[lang()] || msg.en || err.code;
  if (typeof msg === "string" && msg) return capitalized(msg); // the server writes sentences in lower case
  return err.code || t("error");
}

/** The longest display name the server takes (hokm.server.auth.MAX_NAME). */
export const NAME_MAX = 24;

/** A note under a name field, shown once the field is full: the browser stops typing (and
 * cuts a pasted name) at the limit without a word, so the player is told why. */
export function nameLimitNote(value) {
  return h("p.small.hint#name-limit", { hidden: value.length < NAME_MAX, role: "status" }, t("name_at_limit", { n: NAME_MAX }));
}

/** Show or hide the note for the name field's value as typed. */
export function noteNameLimit(input) {
  const note = document.getElementById("name-limit");
  if (note) note.hidden = input.value.length < NAME_MAX;
}

let rulesInfo = null;

/** GET /api/rules (cached): the options, their types and the bot levels. */
export async function rulesMeta() {
  if (rulesInfo) return rulesInfo;
  try {
    rulesInfo = await api("/api/rules");
  } catch {
    rulesInfo = { options: [] };
  }
  return rulesInfo;
}

/** The values an option of choices takes, as /api/rules gives them (the engine's list; null
 * until that answer has come, see rulesMeta). */
export function optionChoices(name) {
  return (rulesInfo?.options || []).find((o) => o.name === name)?.choices ?? null;
}

export async function botLevels() {
  const meta = await rulesMeta();
  const levels = meta.bot_levels ?? [];
  return levels.map((l) => (typeof l === "string" ? l : l.name ?? l.level)).filter(Boolean);
}

export function defaultLevel(levels) {
  return levels.includes("medium") ? "medium" : levels[levels.length - 1];
}

export function levelLabel(level) {
  return has(`level_${level}`) ? t(`level_${level}`) : level;
}

let presetsInfo = null;

export async function presets() {
  if (presetsInfo) return presetsInfo;
  try {
    presetsInfo = (await api("/api/presets")).presets ?? {};
  } catch {
    presetsInfo = {};
  }
  return presetsInfo;
}

export function presetLabel(name) {
  return has(`preset_${name}`) ? t(`preset_${name}`) : name;
}

export const OPTION_ORDER = [
  "target_points",
  "kot_points",
  "hakem_kot_points",
  "bam",
  "failed_bam",
  "first_hakem",
  "next_game_hakem",
  "hakem_may_redeal_weak_five",
  "redeal_if_player_has_no_trump",
  "trump_seconds",
  "turn_seconds",
  "grace_seconds",
];

export function optionLabel(name) {
  return has(`opt_${name}`) ? t(`opt_${name}`) : name;
}

export function optionValue(value) {
  if (value === true) return t("val_on");
  if (value === false) return t("val_off");
  if (typeof value === "number") return num(value);
  if (typeof value === "string" && has(`val_${value}`)) return t(`val_${value}`);
  return String(value);
}

/** The rules in force as a definition list. */
export function rulesList(rules, preset) {
  if (!rules) return null;
  return h(
    "dl.rules-list",
    {},
    preset ? [h("dt", {}, t("preset")), h("dd", {}, presetLabel(preset))] : null,
    // The failed-bam penalty means nothing without bam.
    OPTION_ORDER.filter((k) => k in rules && !(k === "failed_bam" && !rules.bam)).map((k) => [
      h("dt", {}, optionLabel(k)),
      h("dd", {}, optionValue(rules[k])),
    ]),
  );
}

const FALLBACK_PHRASES = [
  { id: "hi", fa: "سلام", en: "Hi" },
  { id: "gl", fa: "موفق باشید", en: "Good luck" },
  { id: "nice", fa: "آفرین!", en: "Nice!" },
  { id: "well_played", fa: "خوب بازی کردی", en: "Well played" },
  { id: "thanks", fa: "مرسی", en: "Thanks" },
  { id: "sorry", fa: "ببخشید", en: "Sorry" },
  { id: "oops", fa: "اوه!", en: "Oops!" },
  { id: "hurry", fa: "لطفاً سریع‌تر", en: "Please hurry" },
  { id: "gg", fa: "بازی خوبی بود", en: "Good game" },
  { id: "bye", fa: "خداحافظ", en: "Bye" },
];
export const EMOJI = ["👍", "👏", "😀", "😂", "😮", "😢", "🤔", "🙏", "❤️", "🔥", "🎉", "👋"];

let phraseInfo = null;

/** Chat phrases: [{id, en, fa}] from GET /api/chat/phrases, or built-in ones. */
export async function phrases() {
  if (phraseInfo) return phraseInfo;
  try {
    const data = await api("/api/chat/phrases");
    const list = data.phrases ?? data;
    if (Array.isArray(data.emoji) && data.emoji.length) EMOJI.splice(0, EMOJI.length, ...data.emoji.slice(0, 12));
    phraseInfo = Array.isArray(list)
      ? list.map((p) => (typeof p === "string" ? { id: p } : p))
      : Object.entries(list).map(([id, text]) => ({ id, ...(typeof text === "object" ? text : { en: text }) }));
  } catch {
    phraseInfo = FALLBACK_PHRASES;
  }
  return phraseInfo;
}

export function phraseText(id, list) {
  const p = (list || []).find((x) => x.id === id);
  if (p && (p[lang()] || p.en)) return p[lang()] || p.en;
  return has(`phrase_${id}`) ? t(`phrase_${id}`) : id;
}

export function teamOf(seat) {
  return seat % 2;
}

/** How far a game moved a rating, as "+12" / "−12" kept left to right (in a Persian line the
 * sign went after the digits). */
export function ratingDelta([before, after]) {
  const d = after - before;
  return h("bdi.rating-delta", { dir: "ltr" }, `${d > 0 ? "+" : d < 0 ? "−" : "±"}${num(Math.abs(d))}`);
}
