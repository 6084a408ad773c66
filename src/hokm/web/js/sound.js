import { settings } from "./settings.js";

/** The chime when a decision of the player's begins: two short soft notes made with the Web
 * Audio API (no file to load), unless the ☰ menu's «صدای نوبت» is off. A browser lets a page
 * make sound only after the player touched it, which a player at a table has done. */
let audio = null;

export function soundOn() {
  return settings().sound !== false;
}

export function chime() {
  if (!soundOn()) return;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio ??= new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    for (const [freq, at] of [[660, 0], [880, 0.13]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.08, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.22);
    }
  } catch {
    /* no sound on this device: the title and the prompt still say it */
  }
}
