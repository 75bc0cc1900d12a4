// The board as SVG, drawn from the shared geometry: terrain colours with a
// pattern each (so terrains differ without colour), number tokens with pips
// (6 and 8 in red), harbours with their rates, roads/settlements/cities in
// player colours with a distinct shape per player, the robber, and the
// clickable targets (vertices, edges, hexes) the page asks to highlight.

import { GEO, toPixel } from './geometry.js';
import { resName, svg, SEAT_COLOURS, SEAT_SHAPES, TERRAIN_RESOURCE, fill } from './util.js';
import { edgePlace, hexName, vertexPlace } from './words.js';
import { t } from './i18n.js';

const SIZE = 50;
const TERRAIN_COLOURS = {
  hills: '#C8643B', forest: '#2F7D32', pasture: '#9CCC65', fields: '#F2C94C', mountains: '#8D8F99', desert: '#E8D8A8',
};

const px = (x, y) => toPixel(x, y, SIZE);
const vpos = (v) => px(GEO.vertices[v].x, GEO.vertices[v].y);
const hpos = (h) => px(GEO.hexes[h].x, GEO.hexes[h].y);

/** Pips under a number token: how many of the 36 rolls make it. */
export const pips = (n) => 6 - Math.abs(7 - n);

function patterns() {
  const p = (id, ...children) => svg('pattern', { id, width: 12, height: 12, patternUnits: 'userSpaceOnUse' }, ...children);
  const ink = { stroke: 'rgba(0,0,0,0.28)', 'stroke-width': 1.5, fill: 'none' };
  return svg('defs', {},
    p('pat-hills', svg('path', { d: 'M0 4h12M0 10h12M4 0v4M10 4v6M4 10v2', ...ink })),
    p('pat-forest', svg('path', { d: 'M6 1l4 7H2z', fill: 'rgba(0,0,0,0.25)' })),
    p('pat-pasture', svg('circle', { cx: 3, cy: 3, r: 1.4, fill: 'rgba(255,255,255,0.6)' }),
      svg('circle', { cx: 9, cy: 9, r: 1.4, fill: 'rgba(255,255,255,0.6)' })),
    p('pat-fields', svg('path', { d: 'M0 12L12 0M-3 3L3 -3M9 15L15 9', ...ink })),
    p('pat-mountains', svg('path', { d: 'M0 10l6-7 6 7', ...ink })),
    p('pat-desert', svg('circle', { cx: 6, cy: 6, r: 0.9, fill: 'rgba(0,0,0,0.25)' })),
  );
}

/** A closed SVG path of one player's shape around (cx, cy). */
export function shapePath(shape, cx, cy, r) {
  switch (shape) {
    case 'circle':
      return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
    case 'triangle':
      return `M${cx} ${cy - r * 1.15}L${cx + r * 1.1} ${cy + r * 0.8}L${cx - r * 1.1} ${cy + r * 0.8}z`;
    case 'diamond':
      return `M${cx} ${cy - r * 1.25}L${cx + r * 1.05} ${cy}L${cx} ${cy + r * 1.25}L${cx - r * 1.05} ${cy}z`;
    default:
      return `M${cx - r} ${cy - r}h${2 * r}v${2 * r}h${-2 * r}z`;
  }
}

function hexPoints(h) {
  return GEO.hexes[h].vertices.map((v) => {
    const p = vpos(v);
    return `${p.px.toFixed(1)},${p.py.toFixed(1)}`;
  }).join(' ');
}

function token(h, number) {
  const { px: cx, py: cy } = hpos(h);
  const red = number === 6 || number === 8;
  const g = svg('g', { class: 'token' + (red ? ' hot' : ''), 'aria-hidden': 'true' },
    svg('circle', { cx, cy, r: 16, fill: '#FFF8E7', stroke: '#5b4a2f', 'stroke-width': 1.5 }),
    svg('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', 'font-size': 15, 'font-weight': 700, fill: red ? '#C62828' : '#222' }, String(number)));
  const n = pips(number);
  for (let i = 0; i < n; i++) {
    g.append(svg('circle', { cx: cx + (i - (n - 1) / 2) * 4, cy: cy + 10, r: 1.4, fill: red ? '#C62828' : '#222' }));
  }
  return g;
}

function harbour(hb) {
  const e = GEO.edges[hb.edge];
  const [a, b] = e.vertices.map(vpos);
  const c = hpos(e.hexes[0]);
  const mx = (a.px + b.px) / 2;
  const my = (a.py + b.py) / 2;
  const dx = mx - c.px;
  const dy = my - c.py;
  const len = Math.hypot(dx, dy) || 1;
  const hx = mx + (dx / len) * 30;
  const hy = my + (dy / len) * 30;
  const generic = hb.kind === '3:1';
  const label = generic ? '3:1' : '2:1';
  const sub = generic ? t('harbour.any') : resName(hb.kind);
  return svg('g', { class: 'harbour', 'data-edge': hb.edge },
    svg('title', {}, generic ? t('harbour.generic') : t('harbour.special', { res: resName(hb.kind) })),
    svg('line', { x1: a.px, y1: a.py, x2: hx, y2: hy, stroke: '#7a5c3a', 'stroke-width': 3 }),
    svg('line', { x1: b.px, y1: b.py, x2: hx, y2: hy, stroke: '#7a5c3a', 'stroke-width': 3 }),
    svg('circle', { cx: hx, cy: hy, r: 17, fill: generic ? '#fff' : TERRAIN_COLOURS[terrainOf(hb.kind)], stroke: '#333', 'stroke-width': 1.5 }),
    svg('text', { x: hx, y: hy - 1, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 700 }, label),
    svg('text', { x: hx, y: hy + 10, 'text-anchor': 'middle', 'font-size': 8 }, sub));
}

function terrainOf(resource) {
  return Object.keys(TERRAIN_RESOURCE).find((k) => TERRAIN_RESOURCE[k] === resource) || 'desert';
}

function road(seat, edge) {
  const [a, b] = GEO.edges[edge].vertices.map(vpos);
  const sx = a.px + (b.px - a.px) * 0.14;
  const sy = a.py + (b.py - a.py) * 0.14;
  const ex = b.px - (b.px - a.px) * 0.14;
  const ey = b.py - (b.py - a.py) * 0.14;
  const mx = (a.px + b.px) / 2;
  const my = (a.py + b.py) / 2;
  return svg('g', { class: `road seat-${seat}`, 'data-edge': edge },
    svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: '#1b1b1b', 'stroke-width': 10, 'stroke-linecap': 'round' }),
    svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: SEAT_COLOURS[seat], 'stroke-width': 6, 'stroke-linecap': 'round' }),
    svg('path', { d: shapePath(SEAT_SHAPES[seat], mx, my, 2.6), fill: '#1b1b1b' }));
}

/** A house (settlement) or a hall with a tower (city) standing on (cx, cy). */
function buildingPath(cx, cy, city) {
  if (!city) return `M${cx - 10} ${cy + 9}V${cy - 2}L${cx} ${cy - 12}L${cx + 10} ${cy - 2}V${cy + 9}z`;
  return `M${cx - 15} ${cy + 11}V${cy - 2}H${cx - 3}V${cy - 9}L${cx + 5} ${cy - 17}L${cx + 13} ${cy - 9}V${cy + 11}z`;
}

/**
 * A settlement is a house, a city a hall with a tower, both in the
 * player's colour with the player's shape marked on them, so that seats
 * differ by shape as well as colour.
 */
function building(seat, vertex, city) {
  const { px: cx, py: cy } = vpos(vertex);
  const shape = SEAT_SHAPES[seat];
  return svg('g', { class: `${city ? 'city' : 'settlement'} seat-${seat}`, 'data-vertex': vertex },
    svg('path', { class: 'house', d: buildingPath(cx, cy, city), fill: SEAT_COLOURS[seat], stroke: '#1b1b1b', 'stroke-width': city ? 2.5 : 2, 'stroke-linejoin': 'round' }),
    svg('path', { class: 'mark', d: shapePath(shape, city ? cx + 5 : cx, cy + (city ? 3 : 2), city ? 4.2 : 3.8), fill: '#1b1b1b' }));
}

function robber(h) {
  const { px: cx, py: cy } = hpos(h);
  const x = cx - 27;
  return svg('g', { class: 'robber', 'data-hex': h },
    svg('title', {}, t('board.robber')),
    svg('path', { d: `M${x - 8} ${cy + 14}q8 -30 16 0z`, fill: '#2b2b2b', stroke: '#eee', 'stroke-width': 1 }),
    svg('circle', { cx: x, cy: cy - 12, r: 6, fill: '#2b2b2b', stroke: '#eee', 'stroke-width': 1 }));
}

/**
 * The hit area of a road spot: a rhombus from end to end of the edge and
 * part of the way to the hex centres on both sides. The rhombi of
 * neighbouring edges never overlap, and on a phone each is over 32 CSS px
 * across (the drawn highlight stays a thin line).
 */
function edgeHitArea(e) {
  const [a, b] = GEO.edges[e].vertices.map(vpos);
  const dx = b.px - a.px;
  const dy = b.py - a.py;
  const len = Math.hypot(dx, dy);
  // Half the distance between the two hex centres is SIZE * sqrt(3) / 2.
  const w = SIZE * 0.866 * 0.7;
  const nx = (-dy / len) * w;
  const ny = (dx / len) * w;
  const mx = (a.px + b.px) / 2;
  const my = (a.py + b.py) / 2;
  const s = 0.02;
  return [[a.px + dx * s, a.py + dy * s], [mx + nx, my + ny], [b.px - dx * s, b.py - dy * s], [mx - nx, my - ny]]
    .map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ');
}

/** The drawn highlight of a road spot: a short line in the highlight colour. */
function edgeMark(e) {
  const [a, b] = GEO.edges[e].vertices.map(vpos);
  const k = 0.2;
  return svg('line', {
    class: 'spot-mark edge-mark', 'aria-hidden': 'true',
    x1: a.px + (b.px - a.px) * k, y1: a.py + (b.py - a.py) * k, x2: b.px - (b.px - a.px) * k, y2: b.py - (b.py - a.py) * k,
  });
}

function target(node, kind, id, label, onTarget) {
  node.setAttribute('class', `target ${kind}-target`);
  // Roving tabindex: one spot is a tab stop; arrow keys move between them.
  node.setAttribute('tabindex', '-1');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.setAttribute(`data-${kind}`, id);
  node.addEventListener('click', () => onTarget(kind, id));
  node.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      onTarget(kind, id);
    } else if (ARROWS[ev.key]) {
      ev.preventDefault();
      moveAmongTargets(node, ARROWS[ev.key]);
    }
  });
  return node;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The centre of a target on the page. */
function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/**
 * Moves focus from `node` to the nearest target in direction `[dx, dy]`
 * (or, if none lies that way, wraps to the farthest the other way), and
 * makes it the board's one tab stop.
 */
function moveAmongTargets(node, [dx, dy]) {
  const all = [...node.ownerSVGElement.querySelectorAll('.target')];
  const [x0, y0] = centre(node);
  let best = null;
  let bestScore = Infinity;
  for (const t of all) {
    if (t === node) continue;
    const [x, y] = centre(t);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 0) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = t;
    }
  }
  if (!best) {
    // Wrap around: the farthest target the other way.
    let far = -Infinity;
    for (const t of all) {
      const [x, y] = centre(t);
      const back = -((x - x0) * dx + (y - y0) * dy);
      if (t !== node && back > far) {
        far = back;
        best = t;
      }
    }
  }
  if (!best) return;
  node.setAttribute('tabindex', '-1');
  best.setAttribute('tabindex', '0');
  best.focus();
}

/**
 * Draws `view`'s board into `root` (an <svg>). The first call (and a new
 * board) builds the whole drawing; later calls change only what an update
 * changed: the hexes' highlight classes, the robber, the pieces (keyed by
 * seat and spot) and the targets (rebuilt only when the set of spots or
 * their labels change). A redraw on every update rebuilt some 500 SVG
 * nodes and their styles each time (docs/PERFORMANCE.md, "redraw time").
 * `targets` = { vertices, edges, hexes } (Sets of ids) become focusable,
 * highlighted buttons calling `onTarget(kind, id)`.
 */
export function renderBoard(root, view, { targets = {}, onTarget = () => {}, pendingEdges = [], producing = null, robberMoved = false } = {}) {
  const boardKey = JSON.stringify(view.board);
  let st = root.boardState;
  if (!st || st.key !== boardKey) st = root.boardState = buildBoard(root, view.board, boardKey);
  // The targets' listeners call the latest handler: the spots may stay
  // while the legal actions behind them change.
  st.onTarget = onTarget;

  const choosingHex = targets.hexes && targets.hexes.size > 0;
  view.board.hexes.forEach((tile, h) => {
    // While a hex is chosen, only the hexes that cannot be chosen dim.
    const cls = `hex terrain-${tile.terrain}${choosingHex && !targets.hexes.has(h) ? ' dimmed' : ''}${producing && producing.has(h) ? ' producing' : ''}`;
    if (st.hexClass[h] !== cls) {
      st.hexClass[h] = cls;
      st.hexNodes[h].setAttribute('class', cls);
    }
  });

  // A moved robber is drawn anew so that its animation plays.
  if (robberMoved || st.robberHex !== view.robber) {
    const rob = robber(view.robber);
    if (robberMoved) rob.classList.add('moved');
    st.robber.replaceWith(rob);
    st.robber = rob;
    st.robberHex = view.robber;
  }

  const roads = new Map();
  for (const p of view.players) for (const e of p.roads) roads.set(`${p.seat}:${e}`, () => road(p.seat, e));
  for (const e of pendingEdges) roads.set(`pending:${view.active}:${e}`, () => svg('g', { class: 'pending' }, road(view.active, e)));
  keyed(st.pieces, st.pieceNodes, roads);
  const houses = new Map();
  for (const p of view.players) {
    for (const v of p.settlements) houses.set(`${p.seat}:s${v}`, () => building(p.seat, v, false));
    for (const v of p.cities) houses.set(`${p.seat}:c${v}`, () => building(p.seat, v, true));
  }
  keyed(st.buildings, st.buildingNodes, houses);

  const spots = [
    ...[...(targets.hexes || [])].map((h) => ['hex', h, t('spot.robber', { place: hexName(view.board, h) })]),
    ...[...(targets.edges || [])].map((e) => ['edge', e, t('spot.road', { place: edgePlace(view.board, e) })]),
    ...[...(targets.vertices || [])].map((v) => ['vertex', v, t('spot.vertex', { place: vertexPlace(view.board, v) })]),
  ];
  const spotsKey = JSON.stringify(spots);
  if (st.spotsKey !== spotsKey) {
    st.spotsKey = spotsKey;
    drawTargets(root, st, spots);
  }
}

/** Adds and removes the children of `group` so that they are `want`'s (key → maker). */
function keyed(group, nodes, want) {
  for (const [k, node] of nodes) {
    if (!want.has(k)) {
      node.remove();
      nodes.delete(k);
    }
  }
  for (const [k, make] of want) {
    if (!nodes.has(k)) {
      const node = make();
      nodes.set(k, node);
      group.append(node);
    }
  }
}

/** The drawing that lasts a whole game: sea, hexes, tokens, harbours, and the empty layers. */
function buildBoard(root, board, key) {
  fill(root);
  // The land spans x -43..390 and y -50..350; the harbours (on fixed edges,
  // SCENARIO.md) reach x -91..438 and y -82..382. Equal margins keep the
  // island centred in its sea, and the thin sea above and below leaves a
  // phone's narrow screen as much board height as it can.
  root.setAttribute('viewBox', '-94 -84 534 468');
  root.append(patterns());
  const land = svg('g', { class: 'hexes' });
  const hexNodes = [];
  board.hexes.forEach((tile, h) => {
    const pts = hexPoints(h);
    const res = TERRAIN_RESOURCE[tile.terrain];
    const node = svg('g', { class: `hex terrain-${tile.terrain}`, 'data-hex': h },
      svg('title', {}, `${hexName(board, h)}${res ? ` (${resName(res)})` : ''}`),
      svg('polygon', { points: pts, fill: TERRAIN_COLOURS[tile.terrain], stroke: '#f5ecd7', 'stroke-width': 3 }),
      svg('polygon', { points: pts, fill: `url(#pat-${tile.terrain})`, 'pointer-events': 'none' }));
    hexNodes.push(node);
    land.append(node);
    if (tile.number) land.append(token(h, tile.number));
  });
  const harbours = svg('g', { class: 'harbours' }, board.harbours.map(harbour));
  const layer = (cls) => svg('g', { class: cls });
  const st = {
    key, hexNodes, hexClass: hexNodes.map((n) => n.getAttribute('class')),
    hexTargets: layer('hex-targets'), robber: svg('g', { class: 'robber' }), robberHex: null,
    pieces: layer('pieces'), pieceNodes: new Map(), edgeTargets: layer('edge-targets'),
    buildings: layer('buildings'), buildingNodes: new Map(), vertexTargets: layer('vertex-targets'),
    spotsKey: null, onTarget: () => {},
  };
  root.append(harbours, land, st.hexTargets, st.robber, st.pieces, st.edgeTargets, st.buildings, st.vertexTargets);
  return st;
}

/** Rebuilds the board's targets (`spots`: [kind, id, label]), keeping the focused spot focused. */
function drawTargets(root, st, spots) {
  const a = document.activeElement;
  const focused = a && root.contains(a) && a.classList.contains('target')
    ? ['vertex', 'edge', 'hex'].map((k) => a.getAttribute(`data-${k}`) !== null && `[data-${k}="${a.getAttribute(`data-${k}`)}"].target`).find(Boolean)
    : null;
  const on = (kind, id) => st.onTarget(kind, id);
  const hexes = [];
  const edges = [];
  const vertices = [];
  for (const [kind, id, label] of spots) {
    if (kind === 'hex') hexes.push(target(svg('polygon', { points: hexPoints(id) }), 'hex', id, label, on));
    if (kind === 'edge') edges.push(edgeMark(id), target(svg('polygon', { points: edgeHitArea(id) }), 'edge', id, label, on));
    if (kind === 'vertex') {
      const { px: cx, py: cy } = vpos(id);
      // Legal spots are never neighbours (the distance rule), so a large hit
      // circle (32 CSS px on a phone) overlaps no other target.
      vertices.push(svg('circle', { class: 'spot-mark vertex-mark', 'aria-hidden': 'true', cx, cy, r: 9 }),
        target(svg('circle', { cx, cy, r: 26 }), 'vertex', id, label, on));
    }
  }
  st.hexTargets.replaceChildren(...hexes);
  st.edgeTargets.replaceChildren(...edges);
  st.vertexTargets.replaceChildren(...vertices);
  // The one tab stop: the spot that had focus, else the first spot.
  const stop = (focused && root.querySelector(focused)) || root.querySelector('.target');
  if (stop) stop.setAttribute('tabindex', '0');
  if (focused && stop && stop.matches(focused)) stop.focus();
}
