// tensorviz widgets: storage strips, logical grids, strides and views, linked on hover.
// Plain ES module for anywidget: no bundler, no dependencies.  Every string from the kernel
// is rendered with textContent / setAttribute, never parsed as HTML.

/**
 * @typedef {{select: number[], block: number[], grid: number[]}} Dims
 * @typedef {{
 *   label: string, tag: string, color: number, strip: number, kind: string, alive: boolean,
 *   shape: number[], stride: number[], offset: number, dtype: string, itemsize: number,
 *   device: string, numel: number, storage_size: number, contiguous: boolean, reason: string,
 *   extent: number[], byte_strides: number[] | null, note: string, dims: Dims,
 *   select: number[], starts: number[], counts: number[], values: DataView, wire: string,
 *   has_values: boolean, footprint: DataView, footprint_ok: boolean
 * }} TensorState
 * @typedef {{
 *   key: string, kind: string, dtype: string, itemsize: number, device: string, size: number,
 *   nbytes: number, start: number, count: number, values: DataView, wire: string,
 *   has_values: boolean, tensors: number[], alive: boolean, alias_of: number[]
 * }} StripState
 * @typedef {{text: string[], full: string[]}} Decoded
 * @typedef {{el: HTMLElement, t: number, index: number[], addr: number}} CellRef
 * @typedef {{type: "cell", t: number, index: number[]} | {type: "slot", strip: number, k: number}} Focus
 */

const SUB = "₀₁₂₃₄₅₆₇₈₉";
const LETTERS = ["i", "j", "k", "l", "m", "n", "p", "q"];
const SVG_NS = "http://www.w3.org/2000/svg";

/** @param {number} n */
const sub = (n) => String(n).split("").map((c) => SUB[+c] ?? c).join("");
/** @param {number} d */
const letter = (d) => LETTERS[d] ?? `i${sub(d)}`;
/** @param {number} n */
const num = (n) => Number(n).toLocaleString("en-US");
/** @param {number[]} xs */
const tuple = (xs) => `(${xs.join(", ")}${xs.length === 1 ? "," : ""})`;

/**
 * Create an element with a class and optional text (always textContent).
 * @param {string} tag @param {string} [cls] @param {string | number} [text]
 * @returns {HTMLElement}
 */
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// ------------------------------------------------------------------ values
const ARRAYS = {
  b1: Uint8Array, u1: Uint8Array, i1: Int8Array, i2: Int16Array, u2: Uint16Array,
  i4: Int32Array, u4: Uint32Array, i8: BigInt64Array, u8: BigUint64Array,
  f4: Float32Array, f8: Float64Array, c8: Float32Array, c16: Float64Array,
};

/**
 * Copy a received buffer (DataView / ArrayBuffer) into its own aligned ArrayBuffer.
 * @param {any} view @returns {ArrayBuffer}
 */
function ownBuffer(view) {
  if (!view) return new ArrayBuffer(0);
  if (view instanceof ArrayBuffer) return view.slice(0);
  if (ArrayBuffer.isView(view)) {
    return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
  }
  return new ArrayBuffer(0);
}

/**
 * Short cell text in PyTorch's print style (mirrors tensorviz.viz._static.format_value).
 * @param {number} f @returns {string}
 */
function fmtFloat(f) {
  if (Number.isNaN(f)) return "nan";
  if (!Number.isFinite(f)) return f > 0 ? "inf" : "-inf";
  if (Number.isInteger(f) && Math.abs(f) < 1e6) return `${f}.`;
  const a = Math.abs(f);
  if (a >= 1e-3 && a < 1e5) return String(Number(f.toPrecision(4)));
  return f.toExponential(2);
}

/**
 * Decode little-endian values of a wire type into short and full texts.
 * @param {any} view @param {string} wire @returns {Decoded}
 */
function decode(view, wire) {
  const Ctor = ARRAYS[/** @type {keyof typeof ARRAYS} */ (wire)];
  if (!Ctor) return { text: [], full: [] };
  const buf = ownBuffer(view);
  const arr = new Ctor(buf, 0, Math.floor(buf.byteLength / Ctor.BYTES_PER_ELEMENT));
  /** @type {string[]} */ const text = [];
  /** @type {string[]} */ const full = [];
  if (wire === "c8" || wire === "c16") {
    for (let i = 0; i + 1 < arr.length; i += 2) {
      const re = Number(arr[i]), im = Number(arr[i + 1]);
      text.push(`${fmtFloat(re)}${im < 0 ? "-" : "+"}${fmtFloat(Math.abs(im))}j`);
      const fullOf = (/** @type {number} */ x) => (Number.isFinite(x) ? String(x) : fmtFloat(x));
      full.push(`${fullOf(re)}${im < 0 ? "-" : "+"}${fullOf(Math.abs(im))}j`);
    }
    return { text, full };
  }
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (wire === "b1") {
      text.push(v ? "True" : "False");
      full.push(v ? "True" : "False");
    } else if (wire === "f4" || wire === "f8") {
      const f = Number(v);
      text.push(fmtFloat(f));
      full.push(!Number.isFinite(f) ? fmtFloat(f) : wire === "f4" ? String(Number(f.toPrecision(8))) : String(f));
    } else {
      text.push(String(v));
      full.push(String(v));
    }
  }
  return { text, full };
}

/** A column width that fits the longest short text (monospace digits are ~0.62em wide).
 * @param {string[]} texts @param {number} min */
function widthFor(texts, min, labels = 0) {
  let longest = labels; // characters of a smaller label in the box (index or @address)
  for (const t of texts) longest = Math.max(longest, t.length);
  return `${Math.min(Math.max(min, 0.62 * longest + 1.1), 9).toFixed(2)}em`;
}

/** @param {any} view @returns {Uint32Array} */
function decodeU32(view) {
  const buf = ownBuffer(view);
  return new Uint32Array(buf, 0, Math.floor(buf.byteLength / 4));
}

// ------------------------------------------------------------------ layout helpers
/** Storage address of a logical index: offset + sum(index[d] * stride[d]).
 * @param {TensorState} t @param {number[]} index */
function address(t, index) {
  let a = t.offset;
  for (let d = 0; d < index.length; d++) a += index[d] * t.stride[d];
  return a;
}

/** The address formula for one logical index, worked out: "offset + i·stride₀ … = 0 + 2·1 … = 6".
 * A 0-dim tensor has no index: its one element lives at storage_offset.
 * @param {TensorState} t @param {number[]} index @param {number} addr @returns {string} */
function formula(t, index, addr) {
  if (index.length === 0) return `storage_offset = ${t.offset}`;
  const sym = ["offset"], nums = [String(t.offset)];
  index.forEach((i, d) => {
    sym.push(`${letter(d)}·stride${sub(d)}`);
    nums.push(`${i}·${t.stride[d] < 0 ? `(${t.stride[d]})` : t.stride[d]}`);
  });
  return `${sym.join(" + ")} = ${nums.join(" + ")} = ${addr}`;
}

/** How the learner would write the element: `a.t()[2, 1]`; a 0-dim tensor is its own element.
 * @param {TensorState} t @param {number[]} index */
const indexText = (t, index) => (index.length ? `${t.label}[${index.join(", ")}]` : t.label);

/** "1 byte", "8 bytes". @param {number} n */
const bytesText = (n) => `${num(n)} byte${n === 1 ? "" : "s"}`;

// ------------------------------------------------------------------ the view
class View {
  /** @param {any} model @param {HTMLElement} el */
  constructor(model, el) {
    this.model = model;
    this.root = h("div", "tv-root");
    this.root.setAttribute("data-kind", model.get("kind") || "view");
    el.appendChild(this.root);
    this.controls = h("div", "tv-controls");
    this.body = h("div", "tv-body");
    this.readout = h("div", "tv-readout");
    this.readout.setAttribute("aria-live", "polite");
    this.root.append(this.controls, this.body);
    /** @type {Focus | null} */ this.focus = null;
    /** @type {Map<number, Map<number, CellRef[]>>} strip -> address -> cells */
    this.cellsByAddr = new Map();
    /** @type {Map<number, HTMLElement[]>} strip -> slot elements (window order) */
    this.slots = new Map();
    /** @type {Map<number, HTMLElement>} strip -> scroller */
    this.scrollers = new Map();
    /** @type {Map<string, number>} strip key -> scrollLeft */
    this.scrollMemory = new Map();
    /** @type {HTMLElement[]} */ this.lit = [];
    /** @type {Map<number, SVGSVGElement>} */ this.arrowLayers = new Map();
    this.bytes = false;
    /** @type {TensorState[]} */ this.tensors = [];
    /** @type {StripState[]} */ this.strips = [];
    /** @type {Decoded[]} */ this.tensorValues = [];
    /** @type {Uint32Array[]} */ this.footprints = [];
    /** @type {{strip: number, k: number} | null} a typed "go to slot" not drawn yet */
    this.jumpedSlot = null;
    /** @type {Map<string, number>} strip key -> versions stepped back from the latest */
    this.histBack = new Map();
    /** @type {Map<string, string>} strip key -> the latest version seen (new writes reset) */
    this.histLatest = new Map();
    /** @type {Map<number, {full: string[], text: string[], start: number, changed: Set<number>, past: boolean}>} */
    this.histView = new Map();
    this.pending = false;
    this.onChange = () => this.schedule();
    for (const name of ["strips", "tensors", "status", "byte_strides", "revision", "broadcast"]) {
      model.on(`change:${name}`, this.onChange);
    }
    this.root.addEventListener("mouseover", (e) => this.hover(e));
    this.root.addEventListener("mouseleave", () => this.setFocus(null));
    this.root.addEventListener("focusin", (e) => this.hover(e));
    this.root.addEventListener("click", (e) => this.click(e));
    this.root.addEventListener("keydown", (e) => this.keydown(e));
    this.onMsg = (/** @type {any} */ msg, /** @type {DataView[]} */ buffers) => this.received(msg, buffers);
    model.on("msg:custom", this.onMsg);
    this.buildControls();
    this.draw();
  }

  destroy() {
    for (const name of ["strips", "tensors", "status", "byte_strides", "revision", "broadcast"]) {
      this.model.off(`change:${name}`, this.onChange);
    }
    this.model.off("msg:custom", this.onMsg);
  }

  /** Messages from the kernel: an exported picture to download.
   * @param {any} msg @param {DataView[]} buffers */
  received(msg, buffers) {
    if (!msg || msg.type !== "export" || !buffers || !buffers.length) return;
    if (!this.exportPending) return; // another view of the same widget asked for it
    this.exportPending = false;
    const type = msg.format === "png" ? "image/png" : "image/svg+xml";
    const blob = new Blob([buffers[0].buffer.slice(buffers[0].byteOffset, buffers[0].byteOffset + buffers[0].byteLength)], { type });
    const a = /** @type {HTMLAnchorElement} */ (document.createElement("a"));
    a.href = URL.createObjectURL(blob);
    a.download = String(msg.name || `tensorviz.${msg.format}`);
    this.root.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.draw();
    });
  }

  /** The toolbar above the drawing (the playground adds its own). */
  buildControls() {
    const bar = h("div", "tv-toolbar");
    const label = h("label", "tv-toggle");
    const box = /** @type {HTMLInputElement} */ (h("input"));
    box.type = "checkbox";
    box.className = "tv-bytes-toggle";
    box.checked = !!this.model.get("byte_strides");
    box.addEventListener("change", () => {
      this.model.set("byte_strides", box.checked);
      this.model.save_changes();
    });
    this.bytesBox = box;
    label.append(box, document.createTextNode(" strides and offsets in bytes"));
    // the current picture as a file, for slides (drawn by the kernel with matplotlib)
    const exportBox = h("span", "tv-export");
    for (const fmt of ["svg", "png"]) {
      const b = h("button", "tv-btn", `export ${fmt.toUpperCase()}`);
      b.setAttribute("data-action", `export-${fmt}`);
      b.title = `download this picture as ${fmt.toUpperCase()} (for slides)`;
      b.addEventListener("click", () => { this.exportPending = true; this.send({ type: "export", format: fmt }); });
      exportBox.appendChild(b);
    }
    bar.append(label, h("span", "tv-hint",
      "Hover a cell: where it lives in storage. Hover a slot: every cell that reads it. Keyboard: Tab, then arrow keys."),
    exportBox);
    this.controls.appendChild(bar);
  }

  // ---------------------------------------------------------------- drawing
  draw() {
    this.tensors = this.model.get("tensors") || [];
    this.strips = this.model.get("strips") || [];
    this.bytes = !!this.model.get("byte_strides");
    if (this.bytesBox) this.bytesBox.checked = this.bytes;
    this.tensorValues = this.tensors.map((t) =>
      t.has_values ? decode(t.values, t.wire) : { text: [], full: [] });
    this.footprints = this.tensors.map((t) => decodeU32(t.footprint));
    this.cellsByAddr = new Map();
    this.histView = new Map();
    this.slots = new Map();
    this.scrollers = new Map();
    this.lit = [];
    this.arrowLayers = new Map();

    const body = h("div", "tv-body");
    const status = this.model.get("status");
    if (status) {
      const banner = h("div", "tv-banner", status);
      banner.setAttribute("role", "status");
      body.appendChild(banner);
    }
    const graphHint = this.model.get("graph_hint");
    if (graphHint) body.appendChild(h("div", "tv-graph-hint", graphHint));
    this.drawBeforeBody(body);
    const bc = this.model.get("broadcast");
    if (bc && bc.result) body.appendChild(this.drawBroadcast(bc));
    const strips = h("div", "tv-strips");
    this.strips.forEach((s, k) => strips.appendChild(this.drawStrip(s, k)));
    body.appendChild(strips);
    body.appendChild(this.readout); // right under the strips: near both the slots and the cells
    const cards = h("div", "tv-cards");
    this.tensors.forEach((t, k) => cards.appendChild(this.drawCard(t, k)));
    body.appendChild(cards);
    this.body.replaceWith(body);
    this.body = body;
    for (const [k, sc] of this.scrollers) {
      const s = this.strips[k];
      const left = s && this.scrollMemory.get(s.key);
      if (left) sc.scrollLeft = left;
    }
    if (this.focus && !this.applyFocus(this.focus)) this.focus = null;
    if (!this.focus) this.showIdleReadout();
    this.showJumpedSlot();
  }

  /** After "go to slot": once the window holding the slot has arrived, scroll the strip to it
   * and light it (with every cell that reads it), so the learner sees where it landed. */
  showJumpedSlot() {
    const p = this.jumpedSlot;
    const s = p && this.strips[p.strip];
    if (!p || !s || p.k < s.start || p.k >= s.start + s.count) return;
    this.jumpedSlot = null;
    const el = (this.slots.get(p.strip) || [])[p.k - s.start];
    const sc = this.scrollers.get(p.strip);
    if (el && sc) {
      sc.scrollLeft = Math.max(0, el.offsetLeft - sc.clientWidth / 2 + el.offsetWidth / 2);
      this.scrollMemory.set(s.key, sc.scrollLeft);
    }
    this.setFocus({ type: "slot", strip: p.strip, k: p.k });
  }

  /** The operands' shapes aligned from the right; stretched dims (stride 0) marked.
   * @param {{result: number[], operands: {label: string, dims: {size: number | null, to: number, broadcast: boolean}[]}[]}} bc */
  drawBroadcast(bc) {
    const box = h("div", "tv-bcast");
    const n = bc.result.length;
    const grid = h("div", "tv-bcast-grid");
    grid.style.gridTemplateColumns = `max-content repeat(${n}, max-content)`;
    grid.appendChild(h("div", "tv-bcast-head", "aligned from the right"));
    for (let d = 0; d < n; d++) grid.appendChild(h("div", "tv-bcast-head", `dim ${d}`));
    bc.operands.forEach((op, i) => {
      const t = this.tensors[i];
      grid.appendChild(t ? this.chip(t, "tv-chip-small") : h("div", "", op.label));
      for (const dim of op.dims) {
        const text = dim.size === null ? `– → ${dim.to}` : dim.broadcast ? `${dim.size} → ${dim.to}` : `${dim.size}`;
        const cell = h("div", `tv-bcast-cell${dim.broadcast ? " tv-bcast-grow" : ""}`, text);
        if (dim.broadcast) cell.title = `stretched to ${dim.to} with stride 0: every index reads the same storage slots`;
        grid.appendChild(cell);
      }
    });
    grid.appendChild(h("div", "tv-bcast-head", "result"));
    for (const size of bc.result) grid.appendChild(h("div", "tv-bcast-cell tv-bcast-result", String(size)));
    box.append(grid, h("div", "tv-muted",
      "A missing dim, or a dim of size 1, is stretched to the result's size with stride 0: the expanded views below read the operands' own storage, nothing is copied."));
    return box;
  }

  /** Hook for the playground: content above the strips. @param {HTMLElement} _body */
  drawBeforeBody(_body) {}

  /** @param {TensorState} t @param {string} extra */
  chip(t, extra = "") {
    const c = h("span", `tv-chip tv-c${t.color % 8} ${extra}`);
    c.append(h("span", "tv-tag", t.tag), h("span", "tv-label", t.label));
    c.title = `${t.tag}: ${t.label}`;
    return c;
  }

  /** One storage strip: slot indices, values, and one footprint row per tensor on it.
   * @param {StripState} s @param {number} k */
  drawStrip(s, k) {
    const sec = h("section", "tv-strip");
    sec.setAttribute("data-strip", String(k));
    const head = h("div", "tv-strip-head");
    const title = h("span", "tv-strip-title", `storage #${k + 1}`);
    // a freed strip keeps its last known facts (a strip freed before it was drawn has none)
    const known = s.itemsize > 0;
    const facts = known
      ? `${s.dtype} · ${num(s.size)} element${s.size === 1 ? "" : "s"} × ${bytesText(s.itemsize)} = ${bytesText(s.nbytes)} · ${s.device}`
      : "";
    head.append(title, h("span", "tv-strip-facts", facts));
    if (!s.alive) head.appendChild(freedBadge(s.temporary));
    const users = h("span", "tv-strip-users");
    users.append(document.createTextNode(s.tensors.length > 1 ? "shared by " : "used by "));
    s.tensors.forEach((ti) => { if (this.tensors[ti]) users.appendChild(this.chip(this.tensors[ti], "tv-chip-small")); });
    head.appendChild(users);
    if (s.alias_of && s.alias_of.length) {
      head.appendChild(h("span", "tv-note",
        `shares memory with ${s.alias_of.map((i) => `storage #${i + 1}` +
          (this.strips[i] && this.strips[i].dtype !== s.dtype ? " (read as another dtype)" : "")).join(", ")}`));
    }
    sec.appendChild(head);
    if (s.size > s.count) sec.appendChild(this.stripPager(s, k));
    if (!s.count) {
      sec.appendChild(h("div", "tv-empty", s.alive ? "this storage has no elements" : "no data"));
      return sec;
    }

    const scroller = h("div", "tv-strip-scroll");
    this.scrollers.set(k, scroller);
    // remember where the learner scrolled (read on scroll, never during a redraw: no forced layout)
    scroller.addEventListener("scroll", () => this.scrollMemory.set(s.key, scroller.scrollLeft), { passive: true });
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "tv-arrows");
    svg.setAttribute("aria-hidden", "true");
    this.arrowLayers.set(k, svg);
    const grid = h("div", "tv-strip-grid");
    let values = s.has_values ? decode(s.values, s.wire) : { text: [], full: [] };
    const version = this.version(s, k, values);
    if (version) {
      values = version;
      sec.insertBefore(this.historyBar(s, k), sec.children[1] || null);
      if (version.past) sec.classList.add("tv-past");
    }
    // the values' own width; CSS keeps a minimum (smaller in the compact layout)
    // slot indices (10px under 12px values) such as 461,548 must not run into each other
    const indexChars = String(s.start + s.count - 1).length * 0.85;
    grid.style.setProperty("--tv-slot-fit", widthFor(values.text, 0, indexChars));
    grid.style.gridTemplateColumns = `max-content repeat(${s.count}, var(--tv-slot-w))`;
    const members = s.tensors.filter((ti) => this.tensors[ti]);
    const usedAny = new Uint32Array(s.count);
    for (const ti of members) {
      const fp = this.footprints[ti];
      for (let i = 0; i < s.count && i < fp.length; i++) usedAny[i] += fp[i];
    }

    grid.appendChild(h("div", "tv-rowhead", "slot"));
    for (let i = 0; i < s.count; i++) grid.appendChild(h("div", "tv-slot-index", s.start + i));
    grid.appendChild(h("div", "tv-rowhead", "value"));
    /** @type {HTMLElement[]} */ const slotEls = [];
    for (let i = 0; i < s.count; i++) {
      const kk = s.start + i;
      const slot = h("div", "tv-slot", values.text[i] ?? "?");
      slot.setAttribute("data-strip", String(k));
      slot.setAttribute("data-k", String(kk));
      slot.tabIndex = i === 0 ? 0 : -1; // one tab stop per strip; arrow keys move along it
      if (!usedAny[i] && members.length) slot.classList.add("tv-unused");
      if (version && version.changed.has(kk)) slot.classList.add("tv-changed");
      slot.title = `storage[${kk}] = ${values.full[i] ?? "?"}` +
        (this.bytes ? ` · byte ${num(kk * s.itemsize)}` : "");
      slotEls.push(slot);
      grid.appendChild(slot);
    }
    this.slots.set(k, slotEls);
    for (const ti of members) {
      const t = this.tensors[ti];
      const fp = this.footprints[ti];
      const head = h("div", "tv-rowhead tv-fp-head");
      head.appendChild(this.chip(t, "tv-chip-small"));
      const off = this.bytes ? `${num(t.offset * t.itemsize)} B` : num(t.offset ?? 0);
      head.appendChild(h("span", "tv-fp-offset", `offset ${off}`));
      grid.appendChild(head);
      for (let i = 0; i < s.count; i++) {
        const kk = s.start + i;
        const n = fp[i] ?? 0;
        const cell = h("div", `tv-fp tv-c${t.color % 8}`);
        cell.setAttribute("data-strip", String(k));
        cell.setAttribute("data-k", String(kk));
        if (n) {
          const isOffset = kk === t.offset && t.numel > 0;
          cell.classList.add("tv-fp-on");
          cell.textContent = (isOffset ? "▲" : "●") + (n > 1 ? `×${n >= 4294967295 ? "many" : n}` : "");
          cell.title = `${t.tag} ${t.label}: ${n} element${n > 1 ? "s" : ""} read storage[${kk}]` +
            (isOffset ? ` · storage_offset = ${t.offset}: element [${t.shape.map(() => 0).join(", ")}] lives here` : "") +
            (n > 1 ? (t.stride.some((st, d) => st === 0 && t.shape[d] > 1) ? " (stride 0: broadcast)" : " (overlapping)") : "");
        } else if (!t.footprint_ok) {
          cell.textContent = "·";
          cell.title = "overlapping layout: too many elements to count here";
        }
        grid.appendChild(cell);
      }
    }
    const hint = h("div", "tv-arrow-hint",
      "hover a cell below: arrows here show how far storage jumps for +1 along each dim (its strides)");
    scroller.append(hint, svg, grid);
    sec.appendChild(scroller);
    const legend = h("div", "tv-legend",
      "● slot used by the tensor · ▲ its storage_offset (first element) · ×n slot shared by n elements (stride 0 or overlap) · faded: no tensor here uses the slot");
    sec.appendChild(legend);
    return sec;
  }

  /** The version of strip `k` to draw (the latest unless the learner stepped back) and the
   * slots that version changed, or null when no write has made a second version.
   * @param {StripState} s @param {number} k @param {{text: string[], full: string[]}} current */
  version(s, k, current) {
    const hist = /** @type {any[] | undefined} */ (s.history);
    if (!hist || hist.length < 2) return null;
    const latest = current.full.join("\u0001");
    if (this.histLatest.get(s.key) !== latest) this.histBack.set(s.key, 0); // a new write
    this.histLatest.set(s.key, latest);
    const back = Math.min(this.histBack.get(s.key) || 0, hist.length - 1);
    const pos = hist.length - 1 - back;
    const shown = back ? decode(hist[pos].values, hist[pos].wire) : current;
    const prev = pos > 0 ? decode(hist[pos - 1].values, hist[pos - 1].wire) : null;
    /** @type {Set<number>} */ const changed = new Set();
    if (prev) shown.full.forEach((v, i) => { if (prev.full[i] !== v) changed.add(s.start + i); });
    const view = { ...shown, start: s.start, changed, past: back > 0, pos, n: hist.length };
    this.histView.set(k, view);
    return view;
  }

  /** "◀ back · version 3 of 4 · forward ▶": step through the versions writes made.
   * @param {StripState} s @param {number} k */
  historyBar(s, k) {
    const view = /** @type {any} */ (this.histView.get(k));
    const bar = h("div", "tv-history");
    const back = /** @type {HTMLButtonElement} */ (h("button", "tv-btn", "◀ back"));
    const fwd = /** @type {HTMLButtonElement} */ (h("button", "tv-btn", "forward ▶"));
    back.setAttribute("data-action", "hist-back");
    fwd.setAttribute("data-action", "hist-forward");
    back.disabled = view.pos === 0;
    fwd.disabled = !view.past;
    const step = (/** @type {number} */ d) => {
      this.histBack.set(s.key, Math.max(0, (this.histBack.get(s.key) || 0) + d));
      this.draw();
    };
    back.addEventListener("click", () => step(1));
    fwd.addEventListener("click", () => step(-1));
    const what = view.past ? " (an earlier state: not the current values)" : " (now)";
    const text = h("span", "tv-history-text", `version ${view.pos + 1} of ${view.n}${what}`);
    const note = h("span", "tv-muted", view.changed.size
      ? ` · ${view.changed.size} slot${view.changed.size > 1 ? "s" : ""} changed by this write (dashed)`
      : view.pos ? " · this write changed no drawn slot" : " · as first drawn");
    bar.append(back, text, fwd, note);
    return bar;
  }

  /** @param {StripState} s @param {number} k */
  stripPager(s, k) {
    const bar = h("div", "tv-pager");
    const prev = h("button", "tv-btn", "◀ earlier");
    const next = h("button", "tv-btn", "later ▶");
    prev.setAttribute("data-action", "strip-prev");
    next.setAttribute("data-action", "strip-next");
    /** @type {HTMLButtonElement} */ (prev).disabled = s.start <= 0;
    /** @type {HTMLButtonElement} */ (next).disabled = s.start + s.count >= s.size;
    prev.addEventListener("click", () => this.send({ type: "page_strip", strip: k, start: Math.max(s.start - s.count, 0) }));
    next.addEventListener("click", () => this.send({ type: "page_strip", strip: k, start: s.start + s.count }));
    bar.append(prev, h("span", "tv-pager-text",
      `slots ${num(s.start)}–${num(s.start + s.count - 1)} of ${num(s.size)}`), next,
    this.jumpInput("go to slot", s.size, "strip-jump",
      (v) => {
        this.jumpedSlot = { strip: k, k: v };
        const start = Math.min(Math.max(0, v - Math.floor(s.count / 2)), Math.max(s.size - s.count, 0));
        if (start === s.start) this.showJumpedSlot(); // already drawn: no new window will come
        else this.send({ type: "page_strip", strip: k, start });
      }));
    return bar;
  }

  /** A number box: Enter moves the window so that index `v` is in the middle of it.
   * @param {string} label @param {number} size @param {string} action @param {(v: number) => void} go */
  jumpInput(label, size, action, go) {
    const input = /** @type {HTMLInputElement} */ (h("input", "tv-jump"));
    input.type = "number";
    input.min = "0";
    input.max = String(Math.max(size - 1, 0));
    input.placeholder = label;
    input.setAttribute("aria-label", label);
    input.setAttribute("data-action", action);
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const v = Math.floor(Number(input.value));
      if (input.value !== "" && Number.isFinite(v)) go(Math.min(Math.max(v, 0), size - 1));
    });
    return input;
  }

  /** @param {any} msg */
  send(msg) { this.model.send(msg); }

  /** The card of one tensor: metadata panel and logical view.
   * @param {TensorState} t @param {number} ti */
  drawCard(t, ti) {
    const card = h("section", `tv-card tv-c${t.color % 8}`);
    card.setAttribute("data-t", String(ti));
    const head = h("div", "tv-card-head");
    head.appendChild(this.chip(t));
    if (t.strip !== undefined) head.appendChild(h("span", "tv-badge", `storage #${t.strip + 1}`));
    if (!t.alive) head.appendChild(freedBadge(t.temporary));
    card.appendChild(head);
    if (!t.shape) {
      card.appendChild(h("div", "tv-empty", "This tensor was freed before it could be drawn."));
      return card;
    }
    card.appendChild(this.drawMeta(t));
    card.appendChild(this.drawLogical(t, ti));
    return card;
  }

  /** @param {TensorState} t */
  drawMeta(t) {
    const meta = h("div", "tv-meta");
    /** @param {string} k @param {string} v @param {string} [cls] */
    const row = (k, v, cls) => {
      meta.append(h("span", "tv-meta-key", k), h("span", `tv-meta-val ${cls || ""}`, v));
    };
    const unit = this.bytes ? "bytes" : "elements";
    const stride = this.bytes ? t.stride.map((s) => s * t.itemsize) : t.stride;
    row("shape", tuple(t.shape));
    row("stride", `${tuple(stride)} ${unit}`);
    row("storage_offset", this.bytes ? `${num(t.offset * t.itemsize)} bytes` : `${num(t.offset)}`);
    row("dtype", `${t.dtype} (itemsize ${bytesText(t.itemsize)})`);
    row("device", t.device);
    row("numel", `${num(t.numel)} of the storage's ${num(t.storage_size)}`);
    const [lo, hi] = t.extent;
    if (t.numel) row("reads", hi - lo === 1 ? `storage[${lo}]` : `storage[${lo}] … storage[${hi - 1}]`);
    if (t.byte_strides) row("NumPy strides", `${tuple(t.byte_strides)} bytes`);
    row("is_contiguous", t.contiguous ? "True" : "False", t.contiguous ? "tv-yes" : "tv-no");
    meta.appendChild(h("span", `tv-meta-reason ${t.contiguous ? "tv-yes" : "tv-no"}`, t.reason));
    if (t.note) meta.appendChild(h("span", "tv-meta-reason tv-note", t.note));
    return meta;
  }

  /** The logical view: grid (≤2-D), grid of grids (3-D/4-D), selectors above 4-D.
   * @param {TensorState} t @param {number} ti */
  drawLogical(t, ti) {
    const box = h("div", "tv-logical");
    const nd = t.shape.length;
    if (t.numel === 0) {
      box.appendChild(h("div", "tv-empty",
        `empty: shape ${tuple(t.shape)} has no elements, so it reads no storage slot`));
      return box;
    }
    if (!t.has_values) box.appendChild(h("div", "tv-note", "values unavailable (e.g. a meta tensor): layout only"));
    const dims = t.dims;
    const shown = [...dims.block, ...dims.grid];
    if (dims.select.length) box.appendChild(this.selectors(t, ti));
    // axis captions: what moving along each drawn dim does in storage
    const caption = h("div", "tv-axes");
    const strideText = (/** @type {number} */ d) => (this.bytes ? bytesText(t.stride[d] * t.itemsize) : String(t.stride[d]));
    if (nd === 0) {
      caption.textContent = "0-dim tensor: a single element at storage_offset";
    } else {
      dims.grid.forEach((d, i) => {
        const arrow = dims.grid.length === 2 && i === 0 ? "↓ rows" : "→ columns";
        caption.appendChild(h("span", "tv-axis",
          `${arrow}: ${letter(d)} = dim ${d}, stride ${strideText(d)}`));
      });
      dims.block.forEach((d, i) => {
        caption.appendChild(h("span", "tv-axis",
          `${i === dims.block.length - 1 ? "blocks →" : "block rows ↓"}: ${letter(d)} = dim ${d}, stride ${strideText(d)}`));
      });
    }
    box.appendChild(caption);

    const values = this.tensorValues[ti];
    const cellWidth = widthFor(values.text, 3.3);
    // the @address label (9px) in a cell's corner must fit too
    const addrChars = (String(t.storage_size || 0).length + 1) * 0.8;
    box.style.setProperty("--tv-cell-fit", widthFor(values.text, 0, addrChars));
    const counts = t.counts;
    const nb = dims.block.length;
    const blockCounts = counts.slice(0, nb);
    const gridCounts = counts.slice(nb);
    const rows = gridCounts.length === 2 ? gridCounts[0] : 1;
    const cols = gridCounts.length ? gridCounts[gridCounts.length - 1] : 1;
    // a scroller only for grids wider than a card can be (each scroller costs compositing)
    const across = (nb === 2 ? blockCounts[1] : 1) * (cols + 1) * parseFloat(cellWidth);
    if (across > 60) box.classList.add("tv-scroll-x");
    const cellsPerBlock = rows * cols;
    const blocks = h("div", nb === 2 ? "tv-blocks tv-blocks-2" : "tv-blocks");
    if (nb === 2) blocks.style.gridTemplateColumns = `repeat(${blockCounts[1]}, max-content)`;
    const nBlocks = blockCounts.reduce((a, b) => a * b, 1);
    for (let b = 0; b < nBlocks; b++) {
      // block index (row-major over block dims)
      const bidx = [];
      let rem = b;
      for (let i = nb - 1; i >= 0; i--) { bidx.unshift(rem % blockCounts[i]); rem = Math.floor(rem / blockCounts[i]); }
      const blockIndex = bidx.map((v, i) => t.starts[i] + v);
      const wrap = h("div", "tv-block");
      if (nb) {
        const lead = [...t.select, ...blockIndex].join(", ");
        wrap.appendChild(h("div", "tv-block-label", `${t.label}[${lead}${", :".repeat(gridCounts.length)}]`));
      }
      const grid = h("div", "tv-grid");
      grid.style.gridTemplateColumns = gridCounts.length ? `max-content repeat(${cols}, var(--tv-cell-w))` : "var(--tv-cell-w)";
      if (gridCounts.length) {
        grid.appendChild(h("div", "tv-corner", gridCounts.length === 2 ? `${letter(dims.grid[0])} \\ ${letter(dims.grid[1])}` : letter(dims.grid[0])));
        for (let c = 0; c < cols; c++) grid.appendChild(h("div", "tv-colhead", t.starts[shown.length - 1] + c));
      }
      for (let r = 0; r < rows; r++) {
        if (gridCounts.length === 2) grid.appendChild(h("div", "tv-rowhead", t.starts[nb] + r));
        else if (gridCounts.length === 1) grid.appendChild(h("div", "tv-rowhead", ""));
        for (let c = 0; c < cols; c++) {
          const local = gridCounts.length === 2 ? [r, c] : gridCounts.length === 1 ? [c] : [];
          const shownIndex = [...blockIndex, ...local.map((v, i) => t.starts[nb + i] + v)];
          const index = new Array(nd).fill(0);
          dims.select.forEach((d, i) => { index[d] = t.select[i]; });
          shown.forEach((d, i) => { index[d] = shownIndex[i]; });
          const flat = b * cellsPerBlock + r * cols + c;
          const addr = address(t, index);
          const cell = h("div", "tv-cell");
          const hv = this.histView.get(t.strip);
          let text = values.text[flat] ?? "?";
          if (hv) {
            if (hv.changed.has(addr)) cell.classList.add("tv-changed");
            const i = addr - hv.start;
            if (hv.past) text = i >= 0 && i < hv.text.length ? hv.text[i] : "…";
          }
          cell.tabIndex = flat === 0 ? 0 : -1; // one tab stop per tensor; arrow keys move
          cell.setAttribute("data-t", String(ti));
          cell.setAttribute("data-index", index.join(","));
          cell.append(h("span", "tv-v", text), h("span", "tv-addr", `@${addr}`));
          cell.title = `${indexText(t, index)} = ${values.full[flat] ?? "?"}\n${formula(t, index, addr)} → storage[${addr}]`;
          grid.appendChild(cell);
          const byAddr = this.cellsByAddr.get(t.strip) || new Map();
          this.cellsByAddr.set(t.strip, byAddr);
          const list = byAddr.get(addr) || [];
          list.push({ el: cell, t: ti, index, addr });
          byAddr.set(addr, list);
        }
      }
      wrap.appendChild(grid);
      blocks.appendChild(wrap);
    }
    box.appendChild(blocks);
    const pager = this.tensorPager(t, ti);
    if (pager) box.appendChild(pager);
    return box;
  }

  /** Index selectors for the dims above the drawn four. @param {TensorState} t @param {number} ti */
  selectors(t, ti) {
    const bar = h("div", "tv-selectors");
    t.dims.select.forEach((d, i) => {
      const wrap = h("span", "tv-selector");
      const prev = h("button", "tv-btn", "◀"), next = h("button", "tv-btn", "▶");
      prev.setAttribute("aria-label", `previous index of dim ${d}`);
      next.setAttribute("aria-label", `next index of dim ${d}`);
      /** @type {HTMLButtonElement} */ (prev).disabled = t.select[i] <= 0;
      /** @type {HTMLButtonElement} */ (next).disabled = t.select[i] >= t.shape[d] - 1;
      const go = (/** @type {number} */ delta) => {
        const sel = [...t.select];
        sel[i] += delta;
        this.send({ type: "page_tensor", tensor: ti, select: sel });
      };
      prev.addEventListener("click", () => go(-1));
      next.addEventListener("click", () => go(1));
      wrap.append(h("span", "", `dim ${d}: `), prev,
        h("span", "tv-selector-value", `${t.select[i]} of ${t.shape[d]}`), next);
      bar.appendChild(wrap);
    });
    return bar;
  }

  /** Paging for drawn dims that do not fit. @param {TensorState} t @param {number} ti */
  tensorPager(t, ti) {
    const shown = [...t.dims.block, ...t.dims.grid];
    const bar = h("div", "tv-pager");
    let any = false;
    shown.forEach((d, i) => {
      if (t.counts[i] >= t.shape[d]) return;
      any = true;
      const wrap = h("span", "tv-selector");
      const prev = h("button", "tv-btn", "◀"), next = h("button", "tv-btn", "▶");
      prev.setAttribute("aria-label", `earlier indices of dim ${d}`);
      next.setAttribute("aria-label", `later indices of dim ${d}`);
      /** @type {HTMLButtonElement} */ (prev).disabled = t.starts[i] <= 0;
      /** @type {HTMLButtonElement} */ (next).disabled = t.starts[i] + t.counts[i] >= t.shape[d];
      const go = (/** @type {number} */ delta) => {
        const st = [...t.starts];
        st[i] = Math.max(0, Math.min(st[i] + delta * t.counts[i], t.shape[d] - t.counts[i]));
        this.send({ type: "page_tensor", tensor: ti, starts: st });
      };
      prev.addEventListener("click", () => go(-1));
      next.addEventListener("click", () => go(1));
      wrap.append(h("span", "", `dim ${d}: `), prev,
        h("span", "tv-selector-value", `${num(t.starts[i])}–${num(t.starts[i] + t.counts[i] - 1)} of ${num(t.shape[d])}`), next,
        this.jumpInput("go to index", t.shape[d], `dim-jump-${d}`, (v) => {
          const st = [...t.starts];
          st[i] = Math.max(0, Math.min(v - Math.floor(t.counts[i] / 2), t.shape[d] - t.counts[i]));
          this.send({ type: "page_tensor", tensor: ti, starts: st });
        }));
      bar.appendChild(wrap);
    });
    return any ? bar : null;
  }

  // ---------------------------------------------------------------- linking
  /** @param {Event} e */
  hover(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (!target || !target.closest) return;
    const cell = /** @type {HTMLElement | null} */ (target.closest(".tv-cell"));
    if (cell) {
      const ti = Number(cell.getAttribute("data-t"));
      const index = (cell.getAttribute("data-index") || "").split(",").filter((x) => x !== "").map(Number);
      this.setFocus({ type: "cell", t: ti, index });
      return;
    }
    const slot = /** @type {HTMLElement | null} */ (target.closest(".tv-slot, .tv-fp"));
    if (slot) {
      this.setFocus({ type: "slot", strip: Number(slot.getAttribute("data-strip")), k: Number(slot.getAttribute("data-k")) });
    }
  }

  /** Keyboard: arrow keys move between cells (←→ last dim, ↑↓ the one before) and along a
   * strip; the focused element is explained as on hover.  Keys used here do not reach the
   * notebook (where arrows would select another cell). @param {KeyboardEvent} e */
  keydown(e) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = moves[/** @type {keyof typeof moves} */ (e.key)];
    const target = /** @type {HTMLElement} */ (e.target);
    if (!move || !target || !target.closest || e.altKey || e.ctrlKey || e.metaKey) return;
    /** @type {HTMLElement | null} */ let next = null;
    if (target.classList.contains("tv-cell")) {
      const index = (target.getAttribute("data-index") || "").split(",").filter((x) => x !== "").map(Number);
      const nd = index.length;
      const dim = move[0] ? nd - 1 : nd - 2;
      if (dim < 0) return;
      index[dim] += move[0] || move[1];
      next = this.root.querySelector(`.tv-cell[data-t="${target.getAttribute("data-t")}"][data-index="${index.join(",")}"]`);
    } else if (target.classList.contains("tv-slot")) {
      if (!move[0]) return;
      const k = Number(target.getAttribute("data-k")) + move[0];
      next = this.root.querySelector(`.tv-slot[data-strip="${target.getAttribute("data-strip")}"][data-k="${k}"]`);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (!next) return;
    target.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }

  /** Clicking a cell whose slot is outside the drawn window pages the strip to it. @param {Event} e */
  click(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    const cell = target && target.closest ? target.closest(".tv-cell") : null;
    if (!cell || !this.focus || this.focus.type !== "cell") return;
    const t = this.tensors[this.focus.t];
    const s = t && this.strips[t.strip];
    if (!s) return;
    const k = address(t, this.focus.index);
    if (k < s.start || k >= s.start + s.count) {
      this.send({ type: "page_strip", strip: t.strip, start: Math.max(0, k - Math.floor(s.count / 2)) });
    }
  }

  /** @param {Focus | null} focus */
  setFocus(focus) {
    const same = JSON.stringify(focus) === JSON.stringify(this.focus);
    if (same) return;
    this.focus = focus;
    this.clearFocus();
    if (!focus || !this.applyFocus(focus)) {
      this.focus = null;
      this.showIdleReadout();
    }
  }

  clearFocus() {
    for (const el of this.lit) el.classList.remove("tv-hl", "tv-hl-main", "tv-dim", "tv-hl-fp");
    this.lit = [];
    for (const svg of this.arrowLayers.values()) svg.replaceChildren();
    this.root.classList.remove("tv-focused");
  }

  /** @param {HTMLElement} el @param {...string} cls */
  light(el, ...cls) {
    el.classList.add(...cls);
    this.lit.push(el);
  }

  /** Highlight everything linked to the focus; false if it no longer exists. @param {Focus} f */
  applyFocus(f) {
    if (f.type === "cell") {
      const t = this.tensors[f.t];
      if (!t || !t.shape || f.index.length !== t.shape.length) return false;
      const addr = address(t, f.index);
      const cells = this.cellsByAddr.get(t.strip)?.get(addr) || [];
      const own = cells.find((c) => c.t === f.t && c.index.join(",") === f.index.join(","));
      if (!own) return false;
      this.root.classList.add("tv-focused");
      for (const c of cells) this.light(c.el, "tv-hl");
      this.light(own.el, "tv-hl-main");
      const s = this.strips[t.strip];
      const slotEls = this.slots.get(t.strip) || [];
      const inWindow = s && addr >= s.start && addr < s.start + s.count;
      if (inWindow) this.light(slotEls[addr - s.start], "tv-hl", "tv-hl-main");
      // dim the slots this tensor does not read
      const fp = this.footprints[f.t];
      slotEls.forEach((el, i) => { if (!fp[i]) this.light(el, "tv-dim"); });
      this.root.querySelectorAll(`.tv-fp.tv-fp-on[data-strip="${t.strip}"][data-k="${addr}"]`).forEach((el) => this.light(/** @type {HTMLElement} */ (el), "tv-hl-fp"));
      this.drawArrows(t, f.index, addr);
      this.cellReadout(t, f.index, addr, inWindow, cells.filter((c) => c !== own));
      const slotEl = inWindow ? slotEls[addr - s.start] : null;
      const sc = this.scrollers.get(t.strip);
      if (slotEl && sc) {
        const left = slotEl.offsetLeft, right = left + slotEl.offsetWidth;
        if (left < sc.scrollLeft || right > sc.scrollLeft + sc.clientWidth) {
          sc.scrollLeft = Math.max(0, left - sc.clientWidth / 2);
        }
      }
      return true;
    }
    const s = this.strips[f.strip];
    if (!s || f.k < s.start || f.k >= s.start + s.count) return false;
    this.root.classList.add("tv-focused");
    const slotEl = (this.slots.get(f.strip) || [])[f.k - s.start];
    if (slotEl) this.light(slotEl, "tv-hl", "tv-hl-main");
    this.root.querySelectorAll(`.tv-fp.tv-fp-on[data-strip="${f.strip}"][data-k="${f.k}"]`).forEach((el) => this.light(/** @type {HTMLElement} */ (el), "tv-hl-fp"));
    const cells = this.cellsByAddr.get(f.strip)?.get(f.k) || [];
    for (const c of cells) this.light(c.el, "tv-hl");
    this.slotReadout(s, f.strip, f.k, cells);
    return true;
  }

  /** Stride arrows on the strip: the jump for +1 along each dim from the hovered element.
   * @param {TensorState} t @param {number[]} index @param {number} addr */
  drawArrows(t, index, addr) {
    const svg = this.arrowLayers.get(t.strip);
    const s = this.strips[t.strip];
    const slotEls = this.slots.get(t.strip);
    if (!svg || !s || !slotEls || !slotEls.length) return;
    const scroller = /** @type {HTMLElement} */ (svg.parentElement);
    const box = scroller.getBoundingClientRect();
    /** @param {Element} el */
    const rect = (el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left - box.left + scroller.scrollLeft, right: r.right - box.left + scroller.scrollLeft, top: r.top - box.top };
    };
    svg.setAttribute("width", String(scroller.scrollWidth));
    svg.setAttribute("height", String(scroller.clientHeight));
    const baseY = rect(scroller.querySelector(".tv-slot-index") || slotEls[0]).top - 1; // land on the index row
    /** @param {number} k */
    const xOf = (k) => {
      const i = Math.max(0, Math.min(k - s.start, s.count - 1));
      const r = rect(slotEls[i]);
      if (k < s.start) return rect(slotEls[0]).left - 6;
      if (k >= s.start + s.count) return r.right + 6;
      return (r.left + r.right) / 2;
    };
    if (addr < s.start || addr >= s.start + s.count) return;
    const x0 = xOf(addr);
    const y = baseY;
    // one arc per dim that has a next index; longer jumps fly higher
    /** @type {{d: number, st: number, x1: number, height: number, text: string}[]} */
    const arcs = [];
    index.forEach((i, d) => {
      if (i + 1 >= t.shape[d]) return;
      const st = t.stride[d];
      const target = addr + st;
      const outside = st !== 0 && (target < s.start || target >= s.start + s.count) ? ` → slot ${target}` : "";
      const text = st === 0 ? `${letter(d)}+1: +0 (broadcast)` : `${letter(d)}+1: ${st > 0 ? "+" : ""}${st}${outside}`;
      arcs.push({ d, st, x1: st === 0 ? x0 : xOf(target), height: 0, text });
    });
    const bySpan = [...arcs].sort((p, q) => Math.abs(p.x1 - x0) - Math.abs(q.x1 - x0));
    bySpan.forEach((arc, rank) => {
      arc.height = arc.st === 0 ? 22 : Math.min(15 + rank * 9 + Math.abs(arc.x1 - x0) / 14, baseY - 16);
    });
    /** Height above the baseline of an arc's cubic at x (the label must clear it). */
    const heightAt = (/** @type {typeof arcs[0]} */ arc, /** @type {number} */ x) => {
      if (arc.st === 0) return Math.abs(x - x0) < 16 ? 20 : 0;
      const lo = Math.min(x0, arc.x1), hi = Math.max(x0, arc.x1);
      if (x < lo || x > hi) return 0;
      let a = 0, b = 1; // x(s) = x0 + (x1 - x0)(3s² - 2s³) is monotone: bisect for s
      for (let k = 0; k < 24; k++) {
        const m = (a + b) / 2;
        const xm = x0 + (arc.x1 - x0) * (3 * m * m - 2 * m * m * m);
        if ((xm < x) === (arc.x1 > x0)) a = m; else b = m;
      }
      const sm = (a + b) / 2;
      return 3 * sm * (1 - sm) * arc.height;
    };
    /** @type {{x: number, y: number, w: number}[]} */
    const placed = [];
    for (const arc of bySpan) {
      const g = document.createElementNS(SVG_NS, "g");
      g.setAttribute("class", `tv-arrow tv-arrow-d${arc.d % 4}`);
      const path = document.createElementNS(SVG_NS, "path");
      if (arc.st === 0) {
        path.setAttribute("d", `M ${x0 - 6} ${y} C ${x0 - 16} ${y - 24}, ${x0 + 16} ${y - 24}, ${x0 + 6} ${y}`);
      } else {
        path.setAttribute("d", `M ${x0} ${y} C ${x0} ${y - arc.height}, ${arc.x1} ${y - arc.height}, ${arc.x1} ${y}`);
      }
      g.appendChild(path);
      const head = document.createElementNS(SVG_NS, "path");
      head.setAttribute("class", "tv-arrow-head");
      const hx = arc.st === 0 ? x0 + 6 : arc.x1;
      head.setAttribute("d", `M ${hx - 4} ${y - 7} L ${hx} ${y} L ${hx + 4} ${y - 7} Z`);
      g.appendChild(head);
      // the label floats just above every arc passing under it, and above earlier labels
      const lx = (x0 + arc.x1) / 2;
      const w = 7 * arc.text.length;
      let clear = 0.75 * arc.height;
      for (const o of arcs) {
        for (const dx of [-w / 2, 0, w / 2]) clear = Math.max(clear, heightAt(o, lx + dx));
      }
      let ly = y - clear - 4;
      for (const p of placed) {
        if (Math.abs(p.x - lx) < (p.w + w) / 2 && Math.abs(p.y - ly) < 12) ly = p.y - 12;
      }
      placed.push({ x: lx, y: ly, w });
      const label = document.createElementNS(SVG_NS, "text");
      label.setAttribute("class", "tv-arrow-label");
      label.setAttribute("x", String(lx));
      label.setAttribute("y", String(ly));
      label.textContent = arc.text;
      g.appendChild(label);
      svg.appendChild(g);
    }
  }

  /** @param {TensorState} t @param {number[]} index @param {number} addr @param {boolean} inWindow @param {CellRef[]} others */
  cellReadout(t, index, addr, inWindow, others) {
    const r = this.readout;
    r.replaceChildren();
    const line1 = h("div", "tv-readout-line");
    line1.append(this.chip(t, "tv-chip-small"),
      h("code", "tv-readout-index", `${indexText(t, index)}`),
      document.createTextNode(" lives in "),
      h("code", "tv-readout-slot", `storage[${addr}]`));
    if (this.bytes) line1.appendChild(h("span", "tv-note", ` (byte ${num(addr * t.itemsize)} = ${addr} × ${t.itemsize})`));
    const line2 = h("div", "tv-formula");
    line2.append(h("code", "", formula(t, index, addr)));
    r.append(line1, line2);
    const steps = index.map((_, d) => t.stride[d] === 0
      ? `${letter(d)}+1 stays on the same slot (stride 0: broadcast)`
      : `${letter(d)}+1 moves ${t.stride[d]} slot${Math.abs(t.stride[d]) === 1 ? "" : "s"}`);
    if (steps.length) r.appendChild(h("div", "tv-readout-line tv-muted", `stride arrows: ${steps.join(" · ")}`));
    if (others.length) {
      const line = h("div", "tv-readout-line tv-muted");
      line.textContent = `same slot: ${others.map((c) => indexText(this.tensors[c.t], c.index)).slice(0, 8).join(", ")}${others.length > 8 ? " …" : ""}`;
      r.appendChild(line);
    }
    if (!inWindow) r.appendChild(h("div", "tv-readout-line tv-note", `storage[${addr}] is outside the slots drawn: click the cell to scroll the strip there`));
  }

  /** @param {StripState} s @param {number} si @param {number} k @param {CellRef[]} cells */
  slotReadout(s, si, k, cells) {
    const r = this.readout;
    r.replaceChildren();
    const values = s.has_values ? decode(s.values, s.wire) : { full: [], text: [] };
    const line1 = h("div", "tv-readout-line");
    line1.append(h("code", "tv-readout-slot", `storage[${k}] = ${values.full[k - s.start] ?? "?"}`));
    if (this.bytes) line1.appendChild(h("span", "tv-note", ` (bytes ${num(k * s.itemsize)}…${num((k + 1) * s.itemsize - 1)})`));
    r.appendChild(line1);
    for (const ti of s.tensors) {
      const t = this.tensors[ti];
      if (!t || !t.shape) continue;
      const n = this.footprints[ti][k - s.start] ?? 0;
      const mine = cells.filter((c) => c.t === ti).map((c) => indexText(t, c.index));
      const line = h("div", "tv-readout-line");
      line.appendChild(this.chip(t, "tv-chip-small"));
      if (!n) {
        line.appendChild(document.createTextNode(" does not read this slot"));
      } else {
        const shownText = mine.slice(0, 6).join(", ") + (mine.length > 6 ? " …" : "");
        const more = n - mine.length;
        line.appendChild(document.createTextNode(
          ` ${n} element${n > 1 ? "s" : ""} here${shownText ? `: ${shownText}` : ""}${more > 0 && mine.length ? ` (+${num(more)} not drawn)` : ""}`));
        if (n > 1 && t.stride.some((st, d) => st === 0 && t.shape[d] > 1)) {
          line.appendChild(h("span", "tv-note", " — stride 0 repeats this one value (broadcasting)"));
        }
      }
      r.appendChild(line);
    }
  }

  showIdleReadout() {
    const r = this.readout;
    r.replaceChildren();
    r.appendChild(h("div", "tv-readout-line tv-muted",
      "address of element [i, j, …] = storage_offset + i·stride₀ + j·stride₁ + …  (hover a cell to see it worked out)"));
  }
}

/** The badge of a tensor or strip whose memory is gone: a temporary (freed in the cell that
 * drew it: nothing could ever change it) is a calm "snapshot", a deleted variable "freed".
 * @param {boolean | undefined} temporary */
function freedBadge(temporary) {
  const b = temporary
    ? h("span", "tv-badge tv-badge-snapshot", "snapshot")
    : h("span", "tv-badge tv-badge-freed", "freed");
  b.title = temporary
    ? "A temporary: nothing else refers to it, so nothing can change it. This is its value."
    : "Nothing in the kernel refers to this memory any more: this is its last known state.";
  return b;
}

// ------------------------------------------------------------------ playground
class PlaygroundView extends View {
  buildControls() {
    const model = this.model;
    const pg = h("div", "tv-pg");
    const ops = h("div", "tv-pg-ops");
    ops.setAttribute("role", "toolbar");
    ops.setAttribute("aria-label", "operations");
    const form = h("div", "tv-pg-form");
    const prefix = h("code", "tv-pg-prefix");
    const input = /** @type {HTMLInputElement} */ (h("input", "tv-pg-input"));
    input.type = "text";
    input.spellcheck = false;
    input.setAttribute("aria-label", "arguments");
    const suffix = h("code", "tv-pg-suffix");
    const apply = h("button", "tv-btn tv-btn-primary", "Apply");
    const undo = h("button", "tv-btn", "Undo");
    const reset = h("button", "tv-btn", "Reset");
    form.append(prefix, input, suffix, apply, undo, reset);
    const desc = h("div", "tv-pg-desc");
    this.pgError = h("div", "tv-pg-error");
    this.pgError.setAttribute("role", "alert");
    this.pgChain = h("ol", "tv-pg-chain");
    this.pgCode = h("pre", "tv-pg-code");
    /** @type {string} */ this.op = "transpose";
    const select = (/** @type {any} */ op) => {
      // another op's arguments never carry over (view's "12" is not contiguous()'s)
      if (this.op !== op.name) input.value = "";
      this.op = op.name;
      ops.querySelectorAll(".tv-btn").forEach((b) => b.classList.toggle("tv-selected", b.getAttribute("data-op") === op.name));
      const n = (model.get("steps") || []).length;
      prefix.textContent = op.name === "index" ? `x${n}[` : `x${n}.${op.name}(`;
      suffix.textContent = op.name === "index" ? "]" : ")";
      input.placeholder = op.hint;
      input.disabled = !op.takes_args;
      desc.textContent = op.description;
    };
    const run = () => {
      const op = (model.get("ops") || []).find((/** @type {any} */ o) => o.name === this.op);
      this.send({ type: "apply", op: this.op, args: op && !op.takes_args ? "" : input.value });
    };
    for (const op of model.get("ops") || []) {
      const b = h("button", "tv-btn tv-op", op.name === "index" ? "[ ] index / slice" : op.name);
      b.setAttribute("data-op", op.name);
      b.title = op.description;
      b.addEventListener("click", () => {
        select(op);
        if (!op.takes_args) run();
        else input.focus();
      });
      ops.appendChild(b);
    }
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") run(); });
    apply.addEventListener("click", run);
    undo.addEventListener("click", () => this.send({ type: "undo" }));
    reset.addEventListener("click", () => this.send({ type: "reset" }));
    this.pgSelect = () => {
      const op = (model.get("ops") || []).find((/** @type {any} */ o) => o.name === this.op);
      if (op) select(op);
    };
    this.pgInput = input;
    pg.append(ops, form, desc, this.pgError, this.pgChain, this.pgCode);
    this.controls.appendChild(pg);
    for (const name of ["steps", "error", "code"]) model.on(`change:${name}`, this.onChange);
    this.pgSelect();
    super.buildControls();
  }

  destroy() {
    for (const name of ["steps", "error", "code"]) this.model.off(`change:${name}`, this.onChange);
    super.destroy();
  }

  /** @param {HTMLElement} _body */
  drawBeforeBody(_body) {
    const error = this.model.get("error") || "";
    this.pgError.textContent = error;
    this.pgError.hidden = !error;
    const steps = this.model.get("steps") || [];
    if (this.lastSteps !== steps.length && !error) this.pgInput.value = "";
    this.lastSteps = steps.length;
    this.pgSelect();
    this.pgChain.replaceChildren();
    this.tensors.forEach((t, k) => {
      const li = h("li", "tv-pg-step");
      li.appendChild(this.chip(t, "tv-chip-small"));
      const step = k ? steps[k - 1] : null;
      li.appendChild(h("code", "", k ? `x${k} = x${k - 1}${step ? step.code : ""}` : `x0 = ${t.label}`));
      if (!k) li.appendChild(h("span", "tv-badge", `original · storage #${t.strip + 1}`));
      else if (step && step.copied) li.appendChild(h("span", "tv-badge tv-badge-copy", `COPY → new storage #${t.strip + 1}`));
      else li.appendChild(h("span", "tv-badge tv-badge-view", `view · same storage #${t.strip + 1}`));
      if (t.shape) li.appendChild(h("span", "tv-muted", ` shape ${tuple(t.shape)} stride ${tuple(t.stride)} offset ${t.offset}`));
      this.pgChain.appendChild(li);
    });
    this.pgCode.textContent = this.model.get("code") || "";
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const view = model.get("kind") === "playground" ? new PlaygroundView(model, el) : new View(model, el);
    return () => view.destroy();
  },
};
