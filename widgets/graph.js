// tensorviz autograd-graph widget: nodes, edges labelled with input_nr, saved tensors with
// their version stamps, and a step-through replay of backward.  Plain ES module for anywidget,
// no bundler.  Every string from the kernel goes through textContent / setAttribute.

const SVG_NS = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {string} [cls] @param {string | number} [text] */
function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** @param {number[]} xs */
const tuple = (xs) => `(${xs.join(", ")}${xs.length === 1 ? "," : ""})`;
/** @param {any} g */
const gtext = (g) => (g ? g.text : "None");
const shortName = (/** @type {string} */ n) => n.replace("torch::autograd::", "");

/** A learner's hook or retain_grad tap, and what it sees when it fires (ev: the node's event).
 * @param {any} t @param {any} ev @returns {string} */
function tapText(t, ev) {
  const on = t.tensor ? ` on ${t.tensor}` : "";
  const gin = ev ? (ev.grads_in || [])[t.output || 0] : undefined;
  if (t.kind === "retain_grad") {
    const who = t.tensor || `output ${t.output}`;
    return ev ? `retain_grad: ${who}.grad = ${gtext(gin)}` : `retain_grad: ${who}.grad`;
  }
  if (!ev) return `${t.kind}${on}: ${t.fn}`;
  if (t.kind === "tensor hook") return `${t.kind}${on}: ${t.fn}(${gtext(gin)}) fires`;
  if (t.kind === "pre-hook") return `pre-hook ${t.fn}(${(ev.grads_in || []).map(gtext).join(", ")}) fires`;
  if (t.kind === "hook") return `hook ${t.fn}(grad_inputs=${(ev.grads_out || []).map(gtext).join(", ")}) fires`;
  if (t.kind === "post-accumulate hook") return `post-accumulate hook ${t.fn} fires (.grad = ${gtext(ev.grad_after)})`;
  return `${t.kind}: ${t.fn}`;
}

class GraphView {
  /** @param {any} model @param {HTMLElement} el */
  constructor(model, el) {
    this.model = model;
    this.el = el;
    this.timer = 0;
    this.root = h("div", "tvg-root");
    this.root.tabIndex = 0;
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "autograd graph: → steps backward, ← steps back, Home resets");
    el.appendChild(this.root);
    this.bar = h("div", "tvg-bar");
    this.title = h("span", "tvg-title");
    this.btnReset = h("button", "tvg-btn tvg-reset", "↺ reset");
    this.btnBack = h("button", "tvg-btn tvg-back", "◀ back");
    this.btnStep = h("button", "tvg-btn tvg-step", "step ▶");
    this.btnPlay = h("button", "tvg-btn tvg-play", "▶ play");
    this.counter = h("span", "tvg-counter");
    this.bar.append(this.title, this.btnReset, this.btnBack, this.btnStep, this.btnPlay, this.counter);
    this.banner = h("div", "tvg-banner");
    this.error = h("div", "tvg-error");
    this.canvas = h("div", "tvg-canvas");
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("class", "tvg-edges");
    this.layers = h("div", "tvg-layers");
    this.canvas.append(this.svg, this.layers);
    this.explain = h("div", "tvg-explain");
    this.explain.setAttribute("aria-live", "polite");
    this.modes = h("div", "tvg-modes");
    this.root.append(this.bar, this.banner, this.error, this.canvas, this.explain, this.modes);

    this.btnReset.addEventListener("click", () => this.go(-1));
    this.btnBack.addEventListener("click", () => this.go(this.step() - 1));
    this.btnStep.addEventListener("click", () => this.go(this.step() + 1));
    this.btnPlay.addEventListener("click", () => this.togglePlay());
    this.root.addEventListener("keydown", (ev) => {
      const keys = { ArrowRight: 1, ArrowLeft: -1 };
      if (ev.key in keys) this.go(this.step() + keys[/** @type {"ArrowRight"} */ (ev.key)]);
      else if (ev.key === "Home") this.go(-1);
      else if (ev.key === "End") this.go(this.events().length);
      else return;
      ev.preventDefault();
      ev.stopPropagation();
    });
    this.onChange = () => this.render();
    model.on("change:graph", this.onChange);
    model.on("change:trace", this.onChange);
    model.on("change:step", this.onChange);
    model.on("change:status", this.onChange);
    this.resize = new ResizeObserver(() => this.drawEdges());
    this.resize.observe(this.canvas);
    this.render();
  }

  step() { return this.model.get("step"); }
  events() { return (this.model.get("trace") || {}).events || []; }

  /** @param {number} s */
  go(s) {
    const n = this.events().length;
    s = Math.max(-1, Math.min(n, s));
    if (s === this.step()) return;
    this.model.set("step", s);
    this.model.save_changes();
  }

  togglePlay() {
    if (this.timer) { this.stopPlay(); return; }
    if (this.step() >= this.events().length) this.go(-1);
    this.btnPlay.textContent = "⏸ pause";
    this.timer = window.setInterval(() => {
      if (this.step() >= this.events().length) { this.stopPlay(); return; }
      this.go(this.step() + 1);
    }, 700);
  }

  stopPlay() {
    window.clearInterval(this.timer);
    this.timer = 0;
    this.btnPlay.textContent = "▶ play";
  }

  render() {
    const g = this.model.get("graph") || {};
    const trace = this.model.get("trace") || {};
    const events = trace.events || [];
    const step = this.step();
    const nodes = g.nodes || [];
    const roots = g.roots || [];
    this.title.textContent = `${g.torch ? "PyTorch " : ""}autograd graph of ${roots.map((/** @type {any} */ r) => r.label).join(", ")}`;
    const status = this.model.get("status") || "";
    this.banner.textContent = status;
    this.banner.hidden = !status;
    this.error.textContent = trace.error ? `backward would raise now: ${trace.error}` : "";
    this.error.hidden = !trace.error;
    this.counter.textContent = `step ${Math.max(step, 0)} / ${events.length}` + (step < 0 ? " (not started)" : "");
    this.btnBack.disabled = step < 0;
    this.btnReset.disabled = step < 0;
    this.btnStep.disabled = step >= events.length;

    // which node ran at which step; the active one is the last event done
    /** @type {Map<number, any>} */
    const done = new Map();
    for (let i = 0; i < Math.min(step, events.length); i++) done.set(events[i].node, events[i]);
    const active = step >= 1 && step <= events.length ? events[step - 1] : null;

    this.layers.textContent = "";
    /** @type {Map<number, any[]>} */
    const rows = new Map();
    for (const n of nodes) {
      if (!rows.has(n.depth)) rows.set(n.depth, []);
      rows.get(n.depth)?.push(n);
    }
    /** @type {Map<number, HTMLElement>} */
    this.cards = new Map();
    /** @type {HTMLElement[]} */
    this.stubs = [];
    // a None input's stub sits in the row below the node that has it
    /** @type {Map<number, any[]>} */
    const stubsAt = new Map();
    for (const e of g.edges || []) {
      if (e.dst !== null || !nodes[e.src]) continue;
      const d = nodes[e.src].depth + 1;
      if (!stubsAt.has(d)) stubsAt.set(d, []);
      stubsAt.get(d)?.push(e);
      if (!rows.has(d)) rows.set(d, []);
    }
    const depths = [...rows.keys()].sort((a, b) => a - b);
    for (const d of depths) {
      const row = h("div", "tvg-row");
      for (const n of rows.get(d) || []) row.appendChild(this.card(n, done, active, roots, trace, step));
      for (const e of stubsAt.get(d) || []) {
        const stub = h("div", "tvg-stub", "None");
        stub.title = `input ${e.slot} of ${nodes[e.src].name} needs no gradient: next_functions[${e.slot}] = (None, ${e.input_nr})`;
        stub.dataset.stub = String(e.stub);
        row.appendChild(stub);
        this.stubs[e.stub] = stub;
      }
      this.layers.appendChild(row);
    }
    if (g.more) this.layers.appendChild(h("div", "tvg-more", `… ${g.more} more nodes not drawn`));
    this.explain.textContent = this.explainText(nodes, events, step, trace, roots);
    this.renderModes(g);
    requestAnimationFrame(() => this.drawEdges());
  }

  /**
   * @param {any} n @param {Map<number, any>} done @param {any} active @param {any[]} roots
   * @param {any} trace @param {number} step
   */
  card(n, done, active, roots, trace, step) {
    const c = h("div", `tvg-node tvg-${n.kind}`);
    c.dataset.node = String(n.id);
    c.dataset.name = n.name;
    c.tabIndex = 0;
    if (done.has(n.id)) c.classList.add("tvg-done");
    if (active && active.node === n.id) c.classList.add("tvg-active");
    const head = h("div", "tvg-name", shortName(n.name));
    c.appendChild(head);
    if (n.kind === "leaf") {
      const lab = h("div", "tvg-leafname", `${n.label || "leaf"} ${tuple(n.shape)}`);
      if (n.param) lab.appendChild(h("span", "tvg-badge tvg-param", "parameter"));
      c.appendChild(lab);
      const ev = done.get(n.id);
      const grad = h("div", "tvg-grad");
      if (ev && ev.grad_after) {
        grad.textContent = `.grad ${gtext(ev.grad_before)} += ${gtext(ev.grads_in[0])} → ${gtext(ev.grad_after)}`;
        grad.classList.add("tvg-acc");
      } else {
        grad.textContent = `.grad = ${gtext(n.grad)}`;
      }
      c.appendChild(grad);
    }
    for (const r of roots) {
      if (r.node === n.id) {
        const seed = h("div", "tvg-seed", `${r.label} (output ${r.output_nr})`);
        if (step >= 0) {
          const s = (trace.seeds || [])[roots.indexOf(r)];
          seed.textContent = s ? `seed gradient= ${s.text}` : `seed 1.0 (${r.label} is a scalar)`;
          seed.classList.add("tvg-seeded");
        }
        c.insertBefore(seed, head);
      }
    }
    const badges = h("div", "tvg-badges");
    if (n.hooks) badges.appendChild(h("span", "tvg-badge", "hook"));
    if (n.retains.length) badges.appendChild(h("span", "tvg-badge", "retain_grad"));
    if (badges.childElementCount) c.appendChild(badges);
    for (const s of n.saved || []) c.appendChild(this.saved(s));
    const ev = done.get(n.id);
    for (const t of n.taps || []) {
      const tap = h("div", "tvg-tap" + (ev ? " tvg-fired" : ""), (ev ? "⚡ " : "") + tapText(t, ev));
      tap.dataset.kind = t.kind;
      c.appendChild(tap);
    }
    if (ev && n.kind !== "leaf") c.appendChild(h("div", "tvg-in", `grad in: ${ev.grads_in.map(gtext).join(", ")}`));
    c.setAttribute("aria-label", `${n.name}${n.label ? " " + n.label : ""}, ${(n.saved || []).length} saved`);
    return c;
  }

  /** The notebook's tensors around the graph (detach / .data / inference) and the
   * no_grad / inference_mode blocks run since it was drawn.  @param {any} g */
  renderModes(g) {
    this.modes.textContent = "";
    const family = g.family || [];
    const regions = g.regions || [];
    this.modes.hidden = !family.length && !regions.length;
    for (const f of family) {
      const row = h("div", `tvg-fam tvg-fam-${f.kind}`);
      row.dataset.name = f.name;
      row.appendChild(h("span", "tvg-badge tvg-mode-badge", f.kind === "shared" ? "same counter" : f.kind === "own" ? "own counter" : "inference"));
      row.appendChild(h("span", "", f.text));
      this.modes.appendChild(row);
    }
    for (const r of regions) {
      const box = h("div", `tvg-region tvg-region-${r.mode}`);
      box.dataset.mode = r.mode;
      box.appendChild(h("div", "tvg-region-head", `with torch.${r.mode}(): — autograd recorded nothing inside`));
      for (const m of r.made) box.appendChild(h("div", "tvg-region-made", `made ${m.text}`));
      for (const w of r.written) box.appendChild(h("div", "tvg-region-written", w.text));
      this.modes.appendChild(box);
    }
  }

  /** @param {any} s */
  saved(s) {
    const row = h("div", "tvg-saved");
    row.dataset.saved = s.name;
    if (!("version" in s)) {
      row.textContent = `saved ${s.name} = ${s.text}`;
      return row;
    }
    row.appendChild(h("span", "tvg-saved-name", `saved ${s.name} ${tuple(s.shape)}`));
    const stamp = h("span", "tvg-stamp", `v${s.version} at save · v${s.live} now`);
    if (s.stale) {
      stamp.classList.add("tvg-stale");
      stamp.title = "an in-place write changed this saved tensor after it was saved: backward through this node would raise";
    }
    if (s.released) {
      stamp.textContent = "freed by backward";
      stamp.classList.add("tvg-freed");
    }
    row.appendChild(stamp);
    if (s.strip && !s.released) {
      const strip = h("div", "tvg-strip");
      strip.title = `its storage from slot ${s.strip.start} (of ${s.strip.size})`;
      s.strip.values.forEach((/** @type {string} */ v, /** @type {number} */ k) => {
        const slot = h("span", "tvg-slot" + (s.strip.on[k] ? " tvg-on" : ""), v);
        slot.title = `storage[${s.strip.start + k}]`;
        strip.appendChild(slot);
      });
      if (s.strip.start + s.strip.values.length < s.strip.size) strip.appendChild(h("span", "tvg-slot tvg-ellipsis", "…"));
      row.appendChild(strip);
    }
    return row;
  }

  /** @param {any[]} nodes @param {any[]} events @param {number} step @param {any} trace @param {any[]} roots */
  explainText(nodes, events, step, trace, roots) {
    if (trace.note) return trace.note;
    if (step < 0) return "Press step ▶ (or → with the graph focused) to replay backward node by node, in PyTorch's engine order. The replay runs on the same graph with retain_graph=True and leaves .grad alone.";
    if (step === 0) {
      const parts = roots.map((r, i) => {
        const s = (trace.seeds || [])[i];
        return s ? `${r.label}: gradient= ${s.text} — backward computes the vector–Jacobian product vᵀ·J with this v`
          : `${r.label}: a scalar, so backward() starts from 1.0 (d${r.label}/d${r.label})`;
      });
      return `Seed. ${parts.join("; ")}.`;
    }
    if (step > events.length) return "";
    const ev = events[step - 1];
    const n = nodes[ev.node];
    if (!n) return "";
    const taps = (n.taps || []).map((/** @type {any} */ t) => tapText(t, ev));
    const fired = taps.length ? ` Fires: ${taps.join("; ")} (the replay shows where your hooks fire; it does not call them).` : "";
    if (n.kind === "leaf") {
      return `${step}/${events.length} · AccumulateGrad of ${n.label || "a leaf"}: .grad ${gtext(ev.grad_before)} += ${gtext(ev.grads_in[0])} → ${gtext(ev.grad_after)} (the same .grad tensor, updated in place on later calls).${fired}`;
    }
    const edges = (this.model.get("graph").edges || []).filter((/** @type {any} */ e) => e.src === ev.node);
    const outs = edges.map((/** @type {any} */ e) => {
      const to = e.dst === null ? "None (no gradient needed)" : shortName(nodes[e.dst].name) + (nodes[e.dst].label ? ` (${nodes[e.dst].label})` : "");
      return `input ${e.slot} → ${to}: ${gtext(ev.grads_out[e.slot])}`;
    });
    const tail = step === events.length ? (trace.error ? " Then backward raises (see above)." : " Done.") : "";
    return `${step}/${events.length} · ${shortName(n.name)} receives ${ev.grads_in.map(gtext).join(", ")} and sends ${outs.join("; ") || "nothing"}.${fired}${tail}`;
  }

  drawEdges() {
    const g = this.model.get("graph") || {};
    const events = this.events();
    const step = this.step();
    const box = this.canvas.getBoundingClientRect();
    // screen pixels per CSS pixel of the canvas: not 1 inside a zoomed page (the classroom
    // demo's `zoom: 1.5`), where client rectangles are scaled and the SVG's units are not
    const k = this.canvas.offsetWidth ? box.width / this.canvas.offsetWidth || 1 : 1;
    this.svg.setAttribute("width", String(this.canvas.scrollWidth));
    this.svg.setAttribute("height", String(this.canvas.scrollHeight));
    this.svg.textContent = "";
    /** @type {Map<number, any>} */
    const done = new Map();
    for (let i = 0; i < Math.min(step, events.length); i++) done.set(events[i].node, events[i]);
    for (const e of g.edges || []) {
      const a = this.cards?.get(e.src) ?? this.layers.querySelector(`[data-node="${e.src}"]`);
      const b = e.dst === null ? this.stubs?.[e.stub] : this.layers.querySelector(`[data-node="${e.dst}"]`);
      if (!a || !b) continue;
      const ra = a.getBoundingClientRect();
      const rb = b.getBoundingClientRect();
      const x1 = (ra.left + ra.width / 2 - box.left) / k, y1 = (ra.bottom - box.top) / k;
      const x2 = (rb.left + rb.width / 2 - box.left) / k, y2 = (rb.top - box.top) / k;
      const my = (y1 + y2) / 2;
      const path = document.createElementNS(SVG_NS, "path");
      path.setAttribute("d", `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`);
      const ev = done.get(e.src);
      const flow = ev && ev.grads_out && ev.grads_out[e.slot];
      path.setAttribute("class", "tvg-edge" + (flow ? " tvg-flow" : "") + (e.dst === null ? " tvg-edge-stub" : ""));
      path.setAttribute("marker-end", "");
      this.svg.appendChild(path);
      if (e.dst === null) continue;  // (a None stub says its input_nr in its own tooltip)
      const label = document.createElementNS(SVG_NS, "text");
      // near the input's end, so two edges leaving one node keep their labels apart
      label.setAttribute("x", String(x1 + 0.7 * (x2 - x1) + 4));
      label.setAttribute("y", String(y1 + 0.7 * (y2 - y1)));
      label.setAttribute("class", "tvg-edge-label" + (flow ? " tvg-flow" : ""));
      const full = flow ? `${gtext(flow)}` : `input_nr ${e.input_nr}`;
      // (long gradients are cut on the edge, whole in the tooltip and the explanation)
      label.textContent = full.length > 26 ? `${full.slice(0, 24)}…]` : full;
      label.dataset.full = full;
      label.dataset.edge = `${e.src}:${e.slot}`;
      this.svg.appendChild(label);
    }
  }

  destroy() {
    this.stopPlay();
    this.resize.disconnect();
    for (const k of ["graph", "trace", "step", "status"]) this.model.off(`change:${k}`, this.onChange);
  }
}

export default {
  /** @param {{model: any, el: HTMLElement}} ctx */
  render({ model, el }) {
    const view = new GraphView(model, el);
    return () => view.destroy();
  },
};
