// tensorviz batch view: sampler indices → dataset[i] samples → collate_fn → batch, and the
// worker process that made it.  Plain ES module for anywidget, no bundler.  Every string from
// the kernel goes through textContent / setAttribute.

/** @param {string} tag @param {string} [cls] @param {string | number} [text] */
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** @param {number[]} xs */
const tuple = (xs) => `(${xs.join(", ")}${xs.length === 1 ? "," : ""})`;
/** @param {number} v */
const num = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

/** @param {any} d @returns {string} */
function describe(d) {
  if (!d) return "";
  if (d.kind === "tensor") {
    const vals = d.numel <= 8 ? ` [${d.values.map(num).join(", ")}]` : "";
    return `tensor${tuple(d.shape)} ${d.dtype}${vals}`;
  }
  if (d.kind === "dict") return `{${d.keys.map((/** @type {string} */ k, /** @type {number} */ i) => `${k}: ${describe(d.items[i])}`).join(", ")}}`;
  if (d.kind === "tuple" || d.kind === "list") {
    const inner = d.items.map(describe).join(", ");
    return d.kind === "tuple" ? `(${inner})` : `[${inner}]`;
  }
  return d.text || "";
}

/** @param {any} d the parts of a sample: its items if it is a tuple, list or dict */
const parts = (d) => (d && d.items && d.kind !== "dict" ? d.items : [d]);

/** @param {any} d a compact form for a sample card: a scalar's value, else shape and dtype */
function short(d) {
  if (!d) return "";
  if (d.kind === "tensor") {
    const dtype = d.dtype.replace("torch.", "");
    return d.numel === 1 ? `${num(d.values[0])} (${dtype})` : `${tuple(d.shape)} ${dtype}`;
  }
  return describe(d);
}

/** @param {any} d */
function image(d) {
  const side = d.image;
  const grid = h("div", "tvb-img");
  grid.style.gridTemplateColumns = `repeat(${side}, 5px)`;
  const vals = d.values;
  const lo = Math.min(...vals), hi = Math.max(...vals);
  for (const v of vals) {
    const px = h("span", "tvb-px");
    const t = hi > lo ? (v - lo) / (hi - lo) : 0;
    const g = Math.round(255 * (1 - t));  // dark ink on light paper, in either theme
    px.style.background = `rgb(${g}, ${g}, ${g})`;
    grid.appendChild(px);
  }
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", `${side}×${side} image`);
  return grid;
}

/** @param {any} d the first image-like tensor of a sample, if any */
function findImage(d) {
  if (!d) return null;
  if (d.kind === "tensor") return d.image ? d : null;
  for (const item of d.items || []) {
    const found = findImage(item);
    if (found) return found;
  }
  return null;
}

class BatchView {
  /** @param {any} model @param {HTMLElement} el */
  constructor(model, el) {
    this.model = model;
    this.root = h("div", "tvt-root tvb-root");
    this.root.tabIndex = -1;
    el.appendChild(this.root);
    this.head = h("div", "tvt-cap");
    this.tabs = h("div", "tvb-tabs");
    this.tabs.setAttribute("role", "tablist");
    this.tabs.setAttribute("aria-label", "batches: ← → to move between them");
    this.body = h("div", "tvb-body");
    this.body.setAttribute("role", "tabpanel");
    this.root.append(this.head, this.tabs, this.body);
    this.tabs.addEventListener("keydown", (ev) => {
      const n = (this.model.get("batches") || []).length;
      const k = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
      if (!k || !n) return;
      this.select((this.model.get("selected") + k + n) % n, true);
      ev.preventDefault();
      ev.stopPropagation();
    });
    this.onChange = () => this.render();
    for (const k of ["loader", "batches", "selected", "status"]) model.on(`change:${k}`, this.onChange);
    this.render();
  }

  /** @param {number} i @param {boolean} focus */
  select(i, focus) {
    this.model.set("selected", i);
    this.model.save_changes();
    this.render();
    if (focus) /** @type {HTMLElement | null} */ (this.tabs.children[i])?.focus();
  }

  render() {
    const L = this.model.get("loader") || {};
    const batches = this.model.get("batches") || [];
    const sel = Math.min(Math.max(this.model.get("selected") || 0, 0), Math.max(batches.length - 1, 0));
    this.head.textContent = "";
    this.head.append(h("b", "", "DataLoader"), h("span", "tvb-batch",
      L.stream
        ? `(${L.dataset}: an iterable dataset, batch_size=${L.batch_size}, num_workers=${L.num_workers}, collate_fn=${L.collate_fn}${L.drop_last ? ", drop_last=True" : ""}) · ${L.batches ?? "no length: batches until the stream ends"}`
        : `(${L.dataset} of ${L.size ?? "?"} samples, batch_size=${L.batch_size}, sampler=${L.sampler}, num_workers=${L.num_workers}, collate_fn=${L.collate_fn}${L.drop_last ? ", drop_last=True" : ""}) · ${L.batches ?? "?"} batches per epoch`));
    this.tabs.textContent = "";
    batches.forEach((/** @type {any} */ b, /** @type {number} */ i) => {
      const tab = h("button", "tvb-tab");
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-selected", String(i === sel));
      tab.tabIndex = i === sel ? 0 : -1;
      tab.dataset.batch = String(b.number);
      tab.append(`batch ${b.number} `, this.workerBadge(b, true));
      tab.addEventListener("click", () => this.select(i, false));
      this.tabs.appendChild(tab);
    });
    this.body.textContent = "";
    const b = batches[sel];
    if (!b) {
      this.body.appendChild(h("div", "tvt-note", "no batch traced yet: iterate the view (for xb, yb in view: …)"));
      return;
    }
    this.body.dataset.batch = String(b.number);
    const where = b.worker === null ? "the main process" : "worker " + b.worker;
    this.stage(b.stream ? "1 · iter(dataset)" : "1 · sampler", b.stream
      ? `no sampler: the next ${b.count} samples of the stream ${where} iterates (their positions in it)`
      : "the indices of this batch", () => {
      const row = h("div", "tvb-row");
      for (const i of b.indices.slice(0, 64)) row.appendChild(h("span", "tvb-index", b.stream ? `#${i}` : i));
      if (b.count > 64) row.appendChild(h("span", "tvt-note", `… ${b.count - 64} more`));
      return row;
    });
    this.arrow(b.stream
      ? `next(it) ${b.count} times, in ${where}${b.worker === null ? "" : `: each worker iterates its own copy of the dataset (split the stream with get_worker_info(), or every worker yields the same samples)`}`
      : `dataset[i] for each index, in ${where}`);
    this.stage(b.stream ? "2 · next(it)" : "2 · dataset[i]", `${b.count} samples, one by one`, () => {
      const row = h("div", "tvb-row");
      b.samples.forEach((/** @type {any} */ sm, /** @type {number} */ k) => {
        const card = h("div", "tvb-sample");
        card.dataset.index = String(b.indices[k]);
        card.appendChild(h("div", "tvt-note", b.stream ? `sample #${b.indices[k]}` : `dataset[${b.indices[k]}]`));
        const img = findImage(sm);
        if (img) card.appendChild(image(img));
        for (const part of parts(sm)) {
          const line = h("div", "tvb-part", short(part));
          line.title = describe(part);
          card.appendChild(line);
        }
        row.appendChild(card);
      });
      if (b.count > b.samples.length) row.appendChild(h("span", "tvt-note", `… ${b.count - b.samples.length} more samples`));
      return row;
    });
    this.arrow(`collate_fn(list of ${b.count} samples): tensors stacked along a new first dim`);
    this.stage("3 · collate_fn", "one batch", () => h("div", "tvb-batch", describe(b.batch)));
    this.stage("4 · made by", "the process that ran 2 and 3", () => {
      const row = h("div", "tvb-row");
      row.appendChild(this.workerBadge(b, false));
      const text = b.worker === null
        ? `the main process, pid ${b.pid} (num_workers=0: no worker processes)`
        : `worker ${b.worker} of ${b.num_workers}: a separate process, pid ${b.pid} (this kernel is pid ${L.parent_pid}); get_worker_info().id == ${b.worker} there`;
      row.appendChild(h("span", "", text));
      return row;
    });
  }

  /** @param {any} b @param {boolean} short */
  workerBadge(b, short) {
    const w = b.worker;
    const badge = h("span", `tvb-worker ${w === null ? "tvb-wmain" : "tvb-w" + (w % 4)}`,
      w === null ? "main" : short ? `w${w}` : `worker ${w}`);
    badge.dataset.worker = w === null ? "main" : String(w);
    return badge;
  }

  /** @param {string} label @param {string} sub @param {() => HTMLElement} make */
  stage(label, sub, make) {
    const st = h("div", "tvb-stage");
    const lab = h("div", "tvb-label", label);
    lab.appendChild(h("small", "", sub));
    st.append(lab, make());
    this.body.appendChild(st);
  }

  /** @param {string} text */
  arrow(text) {
    const st = h("div", "tvb-stage");
    st.append(h("div"), h("div", "tvb-arrow", `↓ ${text}`));
    this.body.appendChild(st);
  }

  destroy() {
    for (const k of ["loader", "batches", "selected", "status"]) this.model.off(`change:${k}`, this.onChange);
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const view = new BatchView(model, el);
    return () => view.destroy();
  },
};
