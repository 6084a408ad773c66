// Small inline SVG icons (no emoji font needed): the hakem's crown, the bot, chat and mute.
// An empty label makes an icon decorative (hidden from screen readers).
const NS = "http://www.w3.org/2000/svg";

function svg(paths, label, cls) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", "0 0 24 24");
  el.setAttribute("class", `icon ${cls}`);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    const title = document.createElementNS(NS, "title");
    title.textContent = label;
    el.append(title);
  } else {
    el.setAttribute("aria-hidden", "true"); // beside words that say it
  }
  for (const [tag, attrs] of paths) {
    const p = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) p.setAttribute(k, v);
    el.append(p);
  }
  return el;
}

export function crown(label) {
  return svg(
    [
      ["path", { d: "M3 18 L2 7 L7.5 11 L12 4 L16.5 11 L22 7 L21 18 Z", fill: "#f5b700", stroke: "#8a6500", "stroke-width": "1.2", "stroke-linejoin": "round" }],
      ["rect", { x: "3", y: "18.5", width: "18", height: "2.5", rx: "1", fill: "#d99a00" }],
    ],
    label,
    "crown-icon",
  );
}

export function robot(label) {
  return svg(
    [
      ["rect", { x: "4", y: "7", width: "16", height: "12", rx: "3", fill: "#8ea0b8", stroke: "#44546a", "stroke-width": "1.2" }],
      ["circle", { cx: "9", cy: "12.5", r: "1.8", fill: "#fff" }],
      ["circle", { cx: "15", cy: "12.5", r: "1.8", fill: "#fff" }],
      ["rect", { x: "9", y: "16", width: "6", height: "1.4", rx: ".7", fill: "#44546a" }],
      ["line", { x1: "12", y1: "7", x2: "12", y2: "3.5", stroke: "#44546a", "stroke-width": "1.4" }],
      ["circle", { cx: "12", cy: "3", r: "1.4", fill: "#e4572e" }],
    ],
    label,
    "robot-icon",
  );
}

export function chatIcon(label = "") {
  return svg(
    [["path", { d: "M4 5 H20 A2 2 0 0 1 22 7 V15 A2 2 0 0 1 20 17 H10 L5 21 V17 H4 A2 2 0 0 1 2 15 V7 A2 2 0 0 1 4 5 Z", fill: "#fff", stroke: "currentColor", "stroke-width": "1.6", "stroke-linejoin": "round" }],
     ["circle", { cx: "8", cy: "11", r: "1.2", fill: "currentColor" }],
     ["circle", { cx: "12", cy: "11", r: "1.2", fill: "currentColor" }],
     ["circle", { cx: "16", cy: "11", r: "1.2", fill: "currentColor" }]],
    label,
    "chat-icon",
  );
}

export function muteIcon(label = "") {
  return svg(
    [["path", { d: "M3 9 H7 L12 4 V20 L7 15 H3 Z", fill: "currentColor" }],
     ["line", { x1: "15", y1: "9", x2: "21", y2: "15", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }],
     ["line", { x1: "21", y1: "9", x2: "15", y2: "15", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }]],
    label,
    "mute-icon",
  );
}
