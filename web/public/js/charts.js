// Small SVG charts with no library: grouped bars (dice totals against their
// expected share, resources gained, trades, robber moves) and stacked bars
// (points by source). Each chart carries a text summary for screen readers.

import { svg, el } from './util.js';
import { t, tn } from './i18n.js';

const W = 320;
const H = 170;
const PAD = { l: 28, r: 8, t: 10, b: 34 };

/**
 * Grouped bars. `series` = [{ name, colour, values[] }] over `labels`;
 * `line` (optional) = values drawn as a dashed marker per label (expected).
 */
export function barChart({ title, labels, series, line = null, lineName = t('chart.expected') }) {
  const max = Math.max(1, ...series.flatMap((s) => s.values), ...(line || []));
  const innerW = W - PAD.l - PAD.r;
  const innerH = H - PAD.t - PAD.b;
  const groupW = innerW / labels.length;
  const barW = Math.max(2, (groupW * 0.8) / series.length);
  const y = (v) => PAD.t + innerH - (v / max) * innerH;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': title });
  root.append(svg('line', { x1: PAD.l, y1: PAD.t + innerH, x2: W - PAD.r, y2: PAD.t + innerH, stroke: '#888' }));
  root.append(svg('text', { x: 2, y: PAD.t + 8, 'font-size': 9 }, String(Math.round(max * 10) / 10)));
  labels.forEach((label, i) => {
    const gx = PAD.l + i * groupW + groupW * 0.1;
    series.forEach((s, j) => {
      const v = s.values[i] || 0;
      root.append(svg('rect', { x: gx + j * barW, y: y(v), width: barW - 1, height: PAD.t + innerH - y(v), fill: s.colour, stroke: '#333', 'stroke-width': 0.5 },
        svg('title', {}, `${s.name} ${label}: ${v}`)));
    });
    if (line) {
      root.append(svg('line', { x1: gx - 1, x2: gx + groupW * 0.8 + 1, y1: y(line[i]), y2: y(line[i]), stroke: '#111', 'stroke-width': 2, 'stroke-dasharray': '3 2' },
        svg('title', {}, `${lineName} ${label}: ${line[i].toFixed(1)}`)));
    }
    root.append(svg('text', { x: PAD.l + i * groupW + groupW / 2, y: H - PAD.b + 12, 'text-anchor': 'middle', 'font-size': 9 }, String(label)));
  });
  const legend = el('div', { class: 'legend' },
    series.map((s) => el('span', {}, el('i', { style: `background:${s.colour}` }), s.name)),
    line ? el('span', {}, el('i', { class: 'dash' }), lineName) : null);
  return el('figure', { class: 'chart-figure' }, el('figcaption', {}, title), root, legend);
}

/** Stacked bars: `stacks` = [{ name, colour, values[] }] over `labels`. */
export function stackedChart({ title, labels, stacks }) {
  const totals = labels.map((_, i) => stacks.reduce((a, s) => a + (s.values[i] || 0), 0));
  const max = Math.max(1, ...totals);
  const innerW = W - PAD.l - PAD.r;
  const innerH = H - PAD.t - PAD.b;
  const groupW = innerW / labels.length;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': title });
  root.append(svg('line', { x1: PAD.l, y1: PAD.t + innerH, x2: W - PAD.r, y2: PAD.t + innerH, stroke: '#888' }));
  labels.forEach((label, i) => {
    let acc = 0;
    for (const s of stacks) {
      const v = s.values[i] || 0;
      if (!v) continue;
      const h = (v / max) * innerH;
      const yTop = PAD.t + innerH - ((acc + v) / max) * innerH;
      root.append(svg('rect', { x: PAD.l + i * groupW + groupW * 0.2, y: yTop, width: groupW * 0.6, height: h, fill: s.colour, stroke: '#333', 'stroke-width': 0.5 },
        svg('title', {}, `${label} ${s.name}: ${v}`)));
      acc += v;
    }
    root.append(svg('text', { x: PAD.l + i * groupW + groupW / 2, y: PAD.t + innerH - (acc / max) * innerH - 3, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 700 }, String(acc)));
    root.append(svg('text', { x: PAD.l + i * groupW + groupW / 2, y: H - PAD.b + 12, 'text-anchor': 'middle', 'font-size': 9 }, String(label).slice(0, 14)));
  });
  const legend = el('div', { class: 'legend' }, stacks.map((s) => el('span', {}, el('i', { style: `background:${s.colour}` }), s.name)));
  return el('figure', { class: 'chart-figure' }, el('figcaption', {}, title), root, legend);
}

/** How many of 36 rolls give each total 2..12. */
export const WAYS = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];

/** The dice chart: each total's count against its expected share. */
export function diceChart(counts) {
  const labels = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const values = labels.map((n) => counts[n] || 0);
  const rolls = values.reduce((a, b) => a + b, 0);
  return barChart({
    title: t('chart.dice', { rolls: tn('count.rolls', rolls) }),
    labels,
    series: [{ name: t('chart.rolled'), colour: '#56B4E9', values }],

    line: labels.map((n) => (rolls * WAYS[n]) / 36),
  });
}
