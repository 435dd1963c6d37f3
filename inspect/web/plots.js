// plots.js: a small live line plot on a 2D canvas, over the last minute.
// Each series is a list of [time, value]; the vertical scale follows the
// largest value in sight.

const WINDOW = 60_000; // ms shown

export class Plot {
  /** series: [{label, color}]; unit: shown after values. */
  constructor(canvas, title, series, unit, digits) {
    this.canvas = canvas;
    this.title = title;
    this.series = series.map((s) => ({ ...s, points: [] }));
    this.unit = unit;
    this.digits = digits;
    // The page's colours, read once per resize: reading them at each
    // draw made the browser work out the page's styles again.
    this.css = null;
    new ResizeObserver(() => { this.css = null; this.draw(); }).observe(canvas);
  }

  /** Add one value per series, taken at time t (ms). */
  push(t, values) {
    this.series.forEach((s, i) => {
      s.points.push([t, values[i]]);
      while (s.points.length && s.points[0][0] < t - WINDOW) s.points.shift();
    });
    this.draw();
  }

  draw() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth;
    const h = c.clientHeight;
    if (!w || !h) return;
    if (c.width !== Math.round(w * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    if (!this.css) {
      const style = getComputedStyle(c);
      this.css = Object.fromEntries(['--grid', '--text', '--dim'].map((k) => [k, style.getPropertyValue(k)]));
    }
    const css = this.css;
    const top = 18;
    const bottom = h - 4;
    let max = 0;
    for (const s of this.series) for (const [, v] of s.points) max = Math.max(max, v);
    max = niceCeil(max);
    // Scale lines at half and full height.
    g.strokeStyle = css['--grid'] || '#2a2f38';
    g.lineWidth = 1;
    g.beginPath();
    for (const f of [0.5, 1]) {
      const y = Math.round(bottom - f * (bottom - top)) + 0.5;
      g.moveTo(0, y);
      g.lineTo(w, y);
    }
    g.stroke();
    const now = performance.now();
    for (const s of this.series) {
      g.strokeStyle = s.color;
      g.lineWidth = 1.5;
      g.beginPath();
      s.points.forEach(([t, v], i) => {
        const x = w - ((now - t) / WINDOW) * w;
        const y = bottom - (max ? v / max : 0) * (bottom - top);
        if (i) g.lineTo(x, y); else g.moveTo(x, y);
      });
      g.stroke();
    }
    // The title, the current values, and the scale.
    g.font = '12px system-ui, sans-serif';
    g.textBaseline = 'top';
    g.fillStyle = css['--text'] || '#ccc';
    g.fillText(this.title, 6, 3);
    let x = 6 + g.measureText(this.title).width + 12;
    for (const s of this.series) {
      const last = s.points.length ? s.points[s.points.length - 1][1] : 0;
      const text = `${s.label ? `${s.label} ` : ''}${fmt(last, this.digits)}${this.unit}`;
      g.fillStyle = s.color;
      g.fillText(text, x, 3);
      x += g.measureText(text).width + 12;
    }
    // The scale on the right, as long as fits beside the legend: in full,
    // or the top value alone, or not at all (a narrow plot).
    const scale = [`${fmt(max, this.digits)} · last 60 s`, fmt(max, this.digits)]
      .find((t) => x + g.measureText(t).width <= w - 6);
    this.legendEnd = x; // for the browser tests
    this.scaleShown = scale ?? '';
    if (scale) {
      g.fillStyle = css['--dim'] || '#888';
      g.textAlign = 'right';
      g.fillText(scale, w - 6, 3);
      g.textAlign = 'left';
    }
  }
}

function fmt(v, digits) {
  return v.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A round number at or above v, so the scale does not jitter. */
function niceCeil(v) {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
