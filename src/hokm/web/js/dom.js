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
      // a property handler, so that patch() can move it to the element it keeps
      el[key.toLowerCase()] = value;
      (el._handlers ||= []).push(key.toLowerCase());
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

/**
 * Update ``container`` so that its children look like ``children``, keeping the elements that
 * are already there (matched by id or data-card, else by position and tag). A button under
 * the pointer, the focused card and a half-typed message survive every re-render.
 */
export function patch(container, ...children) {
  const next = document.createElement(container.nodeName);
  append(next, children);
  const copy = [...next.childNodes];
  const focused = document.activeElement;
  const inside = focused && focused !== document.body && container.contains(focused);
  try {
    morphChildren(container, next);
  } catch (err) {
    console.error("patch failed; re-rendering", err?.stack || err);
    container.replaceChildren(...copy.map((n) => (n.isConnected ? n.cloneNode(true) : n)));
  }
  if (inside && !focused.isConnected) refocus(container, focused);
  return container;
}

/** The focused element went away (its button was used up, the page moved on): focus its
 * replacement if there is one, else the first control of the decision now asked for (an
 * element marked ``data-decision``), else the main region, so that keyboard and
 * screen-reader users do not fall back to the top of the page. */
function refocus(container, gone) {
  const key = keyOf(gone);
  const again = key?.startsWith("#") ? container.querySelector(key) : null;
  // A control that became another in the same place (a seat's «ربات» became «برداشتن ربات»)
  // says so with the same data-focus-slot.
  const slot = gone.dataset?.focusSlot;
  const sibling = slot ? container.querySelector(`[data-focus-slot="${CSS.escape(slot)}"]`) : null;
  const target =
    again ||
    sibling ||
    container.querySelector("[data-decision] button:not(:disabled), [data-decision] a") ||
    document.getElementById("main");
  target?.focus({ preventScroll: true });
}

/** Focus ``el`` without the browser's jump; if it is not on screen (a page zoomed to 200 %,
 * the hand below the fold), bring it into view as little as needed. */
export function focusInView(el) {
  if (!el) return;
  el.focus({ preventScroll: true });
  const r = el.getBoundingClientRect();
  const w = window.innerWidth || document.documentElement.clientWidth;
  const hgt = window.innerHeight || document.documentElement.clientHeight;
  if (r.top < 0 || r.left < 0 || r.bottom > hgt || r.right > w) el.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function keyOf(node) {
  if (node.nodeType !== 1) return null;
  return node.id ? `#${node.id}` : node.dataset?.card ? `c:${node.dataset.card}` : null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function morphChildren(oldParent, newParent) {
  const wanted = [...newParent.childNodes];
  const keyed = new Map();
  for (const child of oldParent.childNodes) {
    const key = keyOf(child);
    if (key) keyed.set(key, child);
  }
  const wantedKeys = new Set(wanted.map(keyOf).filter(Boolean));
  for (let i = 0; i < wanted.length; i++) {
    const fresh = wanted[i];
    const key = keyOf(fresh);
    let old = oldParent.childNodes[i] ?? null;
    if (key && keyed.has(key) && keyed.get(key) !== old) {
      old = keyed.get(key);
      oldParent.insertBefore(old, oldParent.childNodes[i] ?? null);
    }
    if (!old) {
      oldParent.append(fresh);
    } else if (sameKind(old, fresh)) {
      morph(old, fresh);
    } else if (keyOf(old) && wantedKeys.has(keyOf(old))) {
      // A new element before one that stays (a button added before the focused one): put it
      // in front; removing the kept one, even for a moment, would drop the focus to the page.
      oldParent.insertBefore(fresh, old);
    } else {
      oldParent.replaceChild(fresh, old);
    }
  }
  while (oldParent.childNodes.length > wanted.length) oldParent.lastChild.remove();
}

function morph(old, fresh) {
  if (old.nodeType === 3 || old.nodeType === 8) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return;
  }
  if (old.nodeType !== 1) return;
  // The reader opens and closes <details>; a new `data-stage` (e.g. the game began) puts
  // the default back.
  const keepOpen = old.nodeName === "DETAILS" && old.dataset.stage === fresh.dataset.stage;
  for (const attr of [...old.attributes]) {
    if (keepOpen && attr.name === "open") continue;
    if (!fresh.hasAttribute(attr.name)) old.removeAttribute(attr.name);
  }
  for (const attr of fresh.attributes) {
    if (keepOpen && attr.name === "open") continue;
    if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
  }
  for (const name of old._handlers || []) old[name] = null;
  for (const name of fresh._handlers || []) old[name] = fresh[name];
  old._handlers = fresh._handlers;
  if (old.nodeName === "INPUT" || old.nodeName === "SELECT" || old.nodeName === "TEXTAREA") {
    if (document.activeElement !== old) {
      if (old.type === "checkbox" || old.type === "radio") old.checked = fresh.hasAttribute("checked");
      else if (old.nodeName !== "SELECT" && old.value !== fresh.value) old.value = fresh.value;
    }
    if (old.nodeName === "SELECT") {
      morphChildren(old, fresh);
      const chosen = [...fresh.options].findIndex((o) => o.hasAttribute("selected"));
      if (chosen >= 0 && document.activeElement !== old) old.selectedIndex = chosen;
      return;
    }
    return;
  }
  if (old.namespaceURI === "http://www.w3.org/2000/svg" && old.nodeName === "svg") {
    if (old.innerHTML !== fresh.innerHTML) old.innerHTML = fresh.innerHTML;
    return;
  }
  morphChildren(old, fresh);
}

/** Remove the error toasts shown so far (the thing they complained about is now fixed). */
export function clearErrors() {
  for (const el of document.querySelectorAll("#toasts .toast.error")) el.remove();
}

/**
 * A keydown handler moving the focus among the ``selector`` elements inside the element it is
 * set on, with the arrow keys: left and right as the rows read (mirrored right to left), up
 * and down by a row of ``columns`` (one row: to the previous and next), Home and End to the
 * ends of the row. Disabled elements are passed over.
 */
export function arrowFocus(selector, columns = Infinity) {
  return (e) => {
    const all = [...e.currentTarget.querySelectorAll(selector)];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const side = getComputedStyle(e.currentTarget).direction === "rtl" ? -1 : 1;
    const width = Math.min(columns, all.length);
    const row = i - (i % width);
    const to = {
      ArrowRight: i + side,
      ArrowLeft: i - side,
      ArrowDown: i + (columns === Infinity ? 1 : width),
      ArrowUp: i - (columns === Infinity ? 1 : width),
      Home: row,
      End: Math.min(all.length, row + width) - 1,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const towardI = e.key === "Home" || e.key === "End";
    const step = (towardI ? -1 : 1) * (Math.sign(to - i) || 1);
    let j = Math.max(0, Math.min(all.length - 1, to));
    while (all[j]?.disabled && j !== i) j += step;
    all[j]?.focus();
  };
}

/** An element read by screen readers as ``label`` (a plain div's aria-label is not read),
 * showing ``children`` to the eye only. */
export function labelled(tag, label, ...children) {
  return h(tag, {}, h("span.sr-only", {}, label), h("span.shown", { "aria-hidden": "true" }, ...children));
}

/** A short, non-blocking status message at the top of the page; one ``about`` a thing (a
 * key) takes the place of the last one about it still up. An error is an alert (read at
 * once); other words are said politely in #announce, unless ``say`` is false (a banner says
 * them). #toasts is no live region itself: a toast's own role inside it nested two regions,
 * read twice by some screen readers. */
export function toast(text, kind = "info", { lobby = false, about = "", say = true } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return;
  // A newer word ``about`` the same thing replaces the older (three renames: one toast).
  if (about) for (const el of box.querySelectorAll(".toast")) if (el.dataset.about === about && el.textContent !== text) el.remove();
  // The same words already on screen are not stacked again (two timeouts in a row).
  if ([...box.children].some((el) => el.textContent === text)) return;
  // A lobby toast ("the new rules are in force") goes when the game begins: dropLobbyToasts.
  const item = h(`div.toast.${kind}${lobby ? ".lobby" : ""}`, { role: kind === "error" ? "alert" : null, dataset: about ? { about } : {} }, text);
  box.append(item);
  if (kind !== "error" && say) announce(text);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** Remove the toast saying ``text``, if it is up (its question was answered). */
export function dropToast(text) {
  for (const el of document.querySelectorAll("#toasts .toast")) if (el.textContent === text) el.remove();
}

/** Say ``text`` once to screen readers, politely: a line added to the hidden live region
 * outside <main> (#announce), which patch() never re-renders, so nothing is read twice. */
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box || !text) return;
  const line = h("div", {}, text);
  box.append(line);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => line.remove(), 10000);
}

/** Remove the toasts about the lobby (the table is on screen now). */
export function dropLobbyToasts() {
  for (const el of document.querySelectorAll("#toasts .toast.lobby")) el.remove();
}
