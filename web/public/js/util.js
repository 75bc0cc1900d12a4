// Small shared helpers: resource names, player colours and shapes, DOM
// building without innerHTML (so names typed by players can never inject
// markup), and number formatting.

import { has, t } from './i18n.js';

/** Resources in the engine's order. */
export const RESOURCES = ['brick', 'wood', 'wool', 'wheat', 'ore'];
/** Development cards in the engine's order. */
export const DEV_CARDS = ['knight', 'road_building', 'invention', 'monopoly', 'victory_point'];
/** A development card's name ("Road Building"), in the chosen language. */
export const devName = (card) => t(`dev.${card}`);
/** What a development card does, in a sentence. */
export const devEffect = (card) => t(`devEffect.${card}`);
/** A resource's name ("wood"), in the chosen language. */
export const resName = (r) => t(`res.${r}`);
/** Terrain → resource. */
export const TERRAIN_RESOURCE = {
  hills: 'brick', forest: 'wood', pasture: 'wool', fields: 'wheat', mountains: 'ore', desert: null,
};
/** Colour-blind-safe player colours (Okabe-Ito), by seat. */
export const SEAT_COLOURS = ['#0072B2', '#D55E00', '#F2F2F2', '#CC79A7'];
/** A second cue besides colour, by seat: the building and road shape. */
export const SEAT_SHAPES = ['square', 'circle', 'triangle', 'diamond'];
/** Shape names as a word for screen readers and legends. */
export const SHAPE_SYMBOL = { square: '■', circle: '●', triangle: '▲', diamond: '◆' };
/** Building costs (RULES.md R21). */
export const COSTS = {
  road: { brick: 1, wood: 1 },
  settlement: { brick: 1, wood: 1, wool: 1, wheat: 1 },
  city: { wheat: 2, ore: 3 },
  dev: { wool: 1, wheat: 1, ore: 1 },
};

/**
 * Creates an element: `el('button', { class: 'x', onclick: f }, 'text', child)`.
 * Attributes starting with `on` become listeners; `null`/`false` are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Like {@link el} for SVG elements. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Sum of a resource map. */
export function total(set) {
  return set ? Object.values(set).reduce((a, b) => a + b, 0) : 0;
}

/** An empty resource map. */
export function emptySet() {
  return { brick: 0, wood: 0, wool: 0, wheat: 0, ore: 0 };
}

/** "2 brick, 1 ore" (or "nothing"), in the chosen language. */
export function setText(set) {
  const parts = RESOURCES.filter((r) => set && set[r] > 0).map((r) => `${set[r]} ${t(`res.${r}`)}`);
  return parts.length ? parts.join(', ') : t('set.nothing');
}

/** Whether `hand` holds at least `cost`. */
export function covers(hand, cost) {
  return !!hand && Object.entries(cost).every(([r, n]) => (hand[r] || 0) >= n);
}

/** Deep-ish equality for small JSON values (actions). */
export function sameJson(a, b) {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  }
  return v;
}

/** The seat number of a `Viewer` (`{kind:'seat', seat}`), else null. */
export function viewerSeat(viewer) {
  return viewer && viewer.kind === 'seat' ? viewer.seat : null;
}

/** A phase's name for the banner ("trade and build"). */
export const phaseText = (phase) => t(`phase.${phase}`);

/** Replaces `root`'s children, skipping null/false (unlike replaceChildren, which prints "null"). */
export function fill(root, ...children) {
  root.replaceChildren();
  append(root, children);
  return root;
}

/**
 * A refusal (`{ code, message }` from the server or the page) as one plain
 * sentence: never a code, never raw JSON or markup. Codes the catalogue
 * words (`err.CODE`) are said in the chosen language; other refusals use the
 * server's own message (written for a person, in English).
 */
export function plainError(e) {
  const code = e && typeof e.code === 'string' ? e.code : '';
  if (/^[a-z_]+$/.test(code) && has(`err.${code}`)) return t(`err.${code}`);
  let text = e && typeof e.message === 'string' ? e.message.trim() : '';
  if (!text || /^[[{<]/.test(text)) text = t('err.refused');

  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
