// A tiny helper to build DOM nodes: h("button.card", {onclick, "aria-label": …}, children).

export function h(tag, attrs = {}, ...children) {
  // "button.primary#start" → <button class="primary" id="start">
  const parts = tag.match(/^[^.#]*|[.#][^.#]*/g) || ["div"];
  const el = document.createElement(parts[0] || "div");
  const classes = [];
  for (const part of parts.slice(1)) {
    if (part[0] === "#") el.id = part.slice(1);
    else classes.push(part.slice(1));
  }
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "text") {
      el.textContent = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of ``el``. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A short, non-blocking status message in the live region at the top of the page. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h(`div.toast.${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}
