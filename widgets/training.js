// tensorviz training view: progress, loss and accuracy curves (training per batch, validation
// per pass, dashed), gradient norms per layer and per parameter,
// one optimizer step on a watched parameter, and what zero_grad left in .grad.  Plain ES
// module for anywidget, no bundler.  Every string from the kernel goes through textContent /
// setAttribute.

const SVG_NS = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {string} [cls] @param {string | number} [text] */
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function s(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** @param {number | null | undefined} v */
const fmt = (v) => (v === null || v === undefined ? "—" : Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : v.toFixed(4));
/** @param {any[] | null | undefined} xs */
const vec = (xs) => (xs ? `[${xs.map(fmt).join(", ")}${xs.length >= 6 ? ", …" : ""}]` : "None");

class TrainingView {
  /** @param {any} model @param {HTMLElement} el */
  constructor(model, el) {
    this.model = model;
    this.root = h("div", "tvt-root");
    this.root.tabIndex = 0;
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "training view: progress, loss and accuracy curves, gradient norms, optimizer step");
    el.appendChild(this.root);

    const head = h("div", "tvt-head");
    this.title = h("span", "tvt-title");
    this.bar = h("div", "tvt-bar");
    this.bar.setAttribute("role", "progressbar");
    this.bar.setAttribute("aria-valuemin", "0");
    this.bar.setAttribute("aria-valuemax", "100");
    this.fill = h("div", "tvt-fill");
    this.bar.appendChild(this.fill);
    this.where = h("span", "tvt-where");
    this.live = h("span", "tvt-live");
    this.live.setAttribute("aria-live", "polite");
    head.append(this.title, this.bar, this.where, this.live);
    this.banner = h("div", "tvt-banner");

    const charts = h("div", "tvt-charts");
    this.lossBox = this.chartBox("loss", "per batch; the thick line is a running mean");
    this.accBox = this.chartBox("accuracy", "per batch, on the batch the model just trained on");
    charts.append(this.lossBox.box, this.accBox.box);
    this.epochs = h("div", "tvt-epochs");

    const lower = h("div", "tvt-lower");
    this.gradBox = h("div", "tvt-panel tvt-grads");
    this.optBox = h("div", "tvt-panel tvt-optim");
    lower.append(this.gradBox, this.optBox);
    this.root.append(head, this.banner, charts, this.epochs, lower);

    this.onChange = () => this.render();
    for (const k of ["progress", "curves", "grads", "optim", "zero_grad", "status", "params", "watch"]) {
      model.on(`change:${k}`, this.onChange);
    }
    this.resize = new ResizeObserver(() => this.drawCharts());
    this.resize.observe(charts);
    this.render();
  }

  /** @param {string} name @param {string} note */
  chartBox(name, note) {
    const box = h("div", "tvt-chart");
    box.dataset.chart = name;
    const cap = h("div", "tvt-cap");
    const label = h("b", "", name);
    const value = h("span", "tvt-value");
    cap.append(label, value);
    const svg = s("svg", { class: "tvt-svg", role: "img" });
    svg.setAttribute("aria-label", `${name} curve, ${note}`);
    const foot = h("div", "tvt-note", note);
    box.append(cap, svg, foot);
    return { box, svg, value };
  }

  render() {
    const p = this.model.get("progress") || {};
    this.title.textContent = p.title || "training";
    const pct = p.fraction !== undefined ? Math.round(100 * p.fraction) : null;
    this.fill.style.width = pct === null ? "0%" : `${pct}%`;
    this.bar.hidden = pct === null;
    if (pct !== null) this.bar.setAttribute("aria-valuenow", String(pct));
    const epochs = p.epochs ? `/${p.epochs}` : "";
    const batches = p.batches ? `/${p.batches}` : "";
    this.where.textContent = `epoch ${p.epoch ?? 1}${epochs} · batch ${p.batch ?? 0}${batches} · step ${p.step ?? 0}`;
    this.where.dataset.step = String(p.step ?? 0);
    const parts = [];
    if (p.epoch_loss !== null && p.epoch_loss !== undefined) parts.push(`epoch loss ${fmt(p.epoch_loss)}`);
    if (p.epoch_accuracy !== null && p.epoch_accuracy !== undefined) parts.push(`accuracy ${(100 * p.epoch_accuracy).toFixed(1)}%`);
    this.live.textContent = parts.join(" · ");
    const status = this.model.get("status") || "";
    this.banner.textContent = status;
    this.banner.hidden = !status;
    const curves = this.model.get("curves") || {};
    this.epochs.textContent = "";
    for (const row of (curves.epochs || []).slice(-8)) {
      const acc = row.accuracy === undefined ? "" : `, accuracy ${(100 * row.accuracy).toFixed(1)}%`;
      const val = row.val_loss === undefined ? "" : ` · validation loss ${fmt(row.val_loss)}${row.val_accuracy === undefined ? "" : `, accuracy ${(100 * row.val_accuracy).toFixed(1)}%`}`;
      this.epochs.appendChild(h("span", "tvt-epoch", `epoch ${row.epoch}: mean loss ${fmt(row.loss)}${acc}${val}`));
    }
    this.renderGrads();
    this.renderOptim();
    this.drawCharts();
  }

  drawCharts() {
    const curves = this.model.get("curves") || {};
    this.drawChart(this.lossBox, curves.loss || [], false, curves.val_loss || []);
    this.drawChart(this.accBox, curves.accuracy || [], true, curves.val_accuracy || []);
  }

  /** @param {{svg: SVGSVGElement, value: HTMLElement, box: HTMLElement}} c @param {any[]} pts @param {boolean} unit @param {any[]} valPts */
  drawChart(c, pts, unit, valPts) {
    const w = Math.max(160, Math.floor(c.box.clientWidth || 300));
    const hgt = 130;
    const svg = c.svg;
    svg.setAttribute("width", String(w));
    svg.setAttribute("height", String(hgt));
    svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
    svg.textContent = "";
    const vals = pts.filter((q) => q[1] !== null).map((q) => q[1]);
    const val = valPts.filter((q) => q[1] !== null);
    const show = (/** @type {number} */ v) => (unit ? (100 * v).toFixed(1) + "%" : fmt(v));
    c.value.textContent = vals.length ? ` ${show(vals[vals.length - 1])}` : " (no data yet)";
    if (val.length) c.value.appendChild(h("span", "tvt-valkey", ` · ┄ validation ${show(val[val.length - 1][1])}`));
    c.box.dataset.validation = String(val.length);
    const L = 44, R = 8, T = 8, B = 18;
    svg.appendChild(s("rect", { x: L, y: T, width: w - L - R, height: hgt - T - B, class: "tvt-plot" }));
    if (!vals.length) return;
    const all = vals.concat(val.map((q) => q[1]));
    let lo = unit ? 0 : Math.min(...all), hi = unit ? 1 : Math.max(...all);
    if (!(hi > lo)) { hi = lo + 1; }
    const last = Math.max(pts[pts.length - 1][0], val.length ? val[val.length - 1][0] : 0), first = Math.min(pts[0][0], 1);
    const X = (/** @type {number} */ st) => L + (w - L - R) * (last > first ? (st - first) / (last - first) : 1);
    const Y = (/** @type {number} */ v) => T + (hgt - T - B) * (1 - (v - lo) / (hi - lo));
    for (const [v, anchor] of [[hi, "hi"], [lo, "lo"]]) {
      const t = s("text", { x: L - 4, y: Y(/** @type {number} */ (v)) + (anchor === "hi" ? 8 : 0), class: "tvt-axis", "text-anchor": "end" });
      t.textContent = unit ? `${Math.round(100 * /** @type {number} */ (v))}%` : fmt(/** @type {number} */ (v));
      svg.appendChild(t);
    }
    const xl = s("text", { x: w - R, y: hgt - 4, class: "tvt-axis", "text-anchor": "end" });
    xl.textContent = `step ${last}`;
    svg.appendChild(xl);
    const raw = pts.filter((q) => q[1] !== null).map((q) => `${X(q[0]).toFixed(1)},${Y(q[1]).toFixed(1)}`).join(" ");
    svg.appendChild(s("polyline", { points: raw, class: "tvt-line tvt-raw" + (unit ? " tvt-acc" : "") }));
    // a running mean over about 5% of the points: the trend through the batch-to-batch noise
    const k = Math.max(1, Math.round(pts.length / 20));
    /** @type {string[]} */
    const smooth = [];
    let sum = 0, n = 0;
    /** @type {number[]} */
    const win = [];
    for (const q of pts) {
      if (q[1] === null) continue;
      win.push(q[1]); sum += q[1]; n++;
      if (win.length > k) { sum -= /** @type {number} */ (win.shift()); n--; }
      smooth.push(`${X(q[0]).toFixed(1)},${Y(sum / n).toFixed(1)}`);
    }
    svg.appendChild(s("polyline", { points: smooth.join(" "), class: "tvt-line tvt-smooth" + (unit ? " tvt-acc" : "") }));
    if (!val.length) return;
    // validation: one point per pass, dashed, over the training curve it is compared with
    svg.appendChild(s("polyline", { points: val.map((q) => `${X(q[0]).toFixed(1)},${Y(q[1]).toFixed(1)}`).join(" "), class: "tvt-line tvt-val" }));
    for (const q of val) svg.appendChild(s("circle", { cx: X(q[0]).toFixed(1), cy: Y(q[1]).toFixed(1), r: 2.5, class: "tvt-valdot" }));
  }

  renderGrads() {
    const g = this.model.get("grads") || {};
    const z = this.model.get("zero_grad") || {};
    const box = this.gradBox;
    box.textContent = "";
    box.appendChild(h("div", "tvt-cap", "gradient norms per layer ‖grad‖, and per parameter (last batch, read as optimizer.step() starts)"));
    const names = g.names || [];
    const norms = g.norms || [];
    /** @type {{name: string, kind: string, norm: number | null, params: string[]}[]} */
    const layers = g.layers || [];
    const byName = new Map(names.map((/** @type {string} */ n, /** @type {number} */ i) => [n, norms[i]]));
    const max = Math.max(1e-12, ...norms.filter((/** @type {any} */ v) => v !== null),
      ...layers.map((l) => l.norm).filter((v) => v !== null));
    const list = h("div", "tvt-gradlist");
    /** @param {string} cls @param {string} label @param {number | null | undefined} v */
    const bar = (cls, label, v) => {
      const row = h("div", cls);
      const track = h("span", "tvt-track");
      const fill = h("span", "tvt-gbar");
      fill.style.width = `${v === null || v === undefined ? 0 : Math.max(1, (100 * v) / max)}%`;
      track.appendChild(fill);
      row.append(h("span", "tvt-pname", label), track, h("span", "tvt-num", fmt(v)));
      return row;
    };
    const listed = new Set();
    for (const layer of layers) {
      const row = bar("tvt-layerrow", `${layer.name || "(model)"} ${layer.kind}`, layer.norm);
      row.dataset.layer = layer.name;
      list.appendChild(row);
      for (const name of layer.params) {
        if (!byName.has(name)) continue;
        const sub = bar("tvt-gradrow tvt-sub", name.slice(layer.name ? layer.name.length + 1 : 0), byName.get(name));
        sub.dataset.param = name;
        list.appendChild(sub);
        listed.add(name);
      }
    }
    names.forEach((/** @type {string} */ name, /** @type {number} */ i) => {
      if (listed.has(name)) return;
      const row = bar("tvt-gradrow", name, norms[i]);
      row.dataset.param = name;
      list.appendChild(row);
    });
    if (!names.length) list.appendChild(h("div", "tvt-note", "no gradients yet: they appear after loss.backward()"));
    if (g.more) list.appendChild(h("div", "tvt-note", `… ${g.more} more parameters`));
    box.appendChild(list);
    // zero_grad: what .grad held when the forward pass started
    const zg = h("div", "tvt-zero");
    zg.dataset.zero = z.stale_count ? "stale" : z.total ? "none" : "";
    if (!z.total) {
      zg.textContent = "zero_grad: not seen yet (it shows what .grad holds as each forward pass starts)";
    } else if (z.stale_count) {
      zg.classList.add("tvt-warn");
      zg.textContent = `forward ${z.forward}: ${z.stale_count} of ${z.total} parameters still hold a .grad from before (${z.stale.join(", ")}): backward will ADD to it. Call optimizer.zero_grad() first.`;
    } else if (z.zeros) {
      zg.textContent = `forward ${z.forward}: .grad is a tensor of zeros for ${z.zeros} of ${z.total} parameters (zero_grad(set_to_none=False)), None for ${z.none}.`;
    } else {
      zg.classList.add("tvt-ok");
      zg.textContent = `zero_grad() → .grad is None for all ${z.total} parameters as forward ${z.forward} starts; backward creates fresh .grad tensors.`;
    }
    box.appendChild(zg);
  }

  renderOptim() {
    const o = this.model.get("optim") || {};
    const box = this.optBox;
    box.textContent = "";
    const cap = h("div", "tvt-cap");
    cap.append(h("span", "", "optimizer.step() on "));
    const select = document.createElement("select");
    select.className = "tvt-watch";
    select.setAttribute("aria-label", "parameter to watch");
    for (const name of this.model.get("params") || []) {
      const opt = document.createElement("option");
      opt.value = name;
      opt.textContent = name;
      select.appendChild(opt);
    }
    select.value = this.model.get("watch");
    select.addEventListener("change", () => { this.model.set("watch", select.value); this.model.save_changes(); });
    cap.appendChild(select);
    box.appendChild(cap);
    if (!o.after) {
      const has = (this.model.get("progress") || {}).optimizer;
      box.appendChild(h("div", "tvt-note", has
        ? `watching ${this.model.get("watch")}: the next optimizer.step() shows it before and after, with its state`
        : "no optimizer given: pass it, show_training(model, optimizer), to see its steps"));
      return;
    }
    const hyper = Object.entries(o.hyper || {}).filter(([k]) => ["lr", "momentum", "betas", "eps", "weight_decay", "dampening"].includes(k))
      .map(([k, v]) => `${k}=${Array.isArray(v) ? `(${v.join(", ")})` : v}`).join(", ");
    box.appendChild(h("div", "tvt-formula", `${o.optimizer}(${hyper})  —  ${o.formula || ""}`));
    const table = h("table", "tvt-table");
    const n = (o.after || []).length;
    const head = h("tr");
    head.appendChild(h("th", "", `${o.param}${o.shape ? " (" + o.shape.join("×") + ")" : ""}`));
    for (let i = 0; i < n; i++) head.appendChild(h("th", "", o.index ? `[${o.index[i].join(",")}]` : `[${i}]`));
    table.appendChild(head);
    /** @param {string} label @param {any[] | null} xs @param {string} [cls] */
    const row = (label, xs, cls) => {
      const tr = h("tr", cls);
      tr.dataset.row = label;
      tr.appendChild(h("td", "tvt-rowname", label));
      for (let i = 0; i < n; i++) tr.appendChild(h("td", "", xs ? fmt(xs[i]) : i === 0 ? "None" : ""));
      table.appendChild(tr);
    };
    row("before", o.before);
    row(".grad", o.grad, "tvt-gradrow2");
    for (const [k, v] of Object.entries(o.state || {})) {
      if (Array.isArray(v)) row(`state[${k}]`, v, "tvt-state");
    }
    row("after", o.after, "tvt-after");
    const delta = (o.after || []).map((/** @type {number} */ a, /** @type {number} */ i) => (a === null || !o.before || o.before[i] === null ? null : a - o.before[i]));
    row("after − before", delta, "tvt-delta");
    const scroll = h("div", "tvt-scroll");
    scroll.appendChild(table);
    box.appendChild(scroll);
    const scalars = Object.entries(o.state || {}).filter(([, v]) => !Array.isArray(v)).map(([k, v]) => `state['${k}'] = ${v}`);
    box.appendChild(h("div", "tvt-note", `optimizer.state[${o.param}] after step ${o.step}: ${Object.keys(o.state || {}).length ? Object.keys(o.state).map((k) => `'${k}'`).join(", ") : "empty (plain SGD keeps no state)"}${scalars.length ? "; " + scalars.join(", ") : ""}`));
  }

  destroy() {
    this.resize.disconnect();
    for (const k of ["progress", "curves", "grads", "optim", "zero_grad", "status", "params", "watch"]) {
      this.model.off(`change:${k}`, this.onChange);
    }
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const view = new TrainingView(model, el);
    return () => view.destroy();
  },
};
