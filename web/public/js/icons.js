// Small drawn icons for the resources (no emoji font is needed): each a
// 20x20 SVG in the resource's colour family, with a shape of its own so
// that the cards differ without colour.

import { svg } from './util.js';

const SHAPES = {
  brick: () => [svg('rect', { x: 2, y: 5, width: 16, height: 10, rx: 1, fill: '#b5532c', stroke: '#5a2a12' }),
    svg('path', { d: 'M2 10h16M10 5v5M6 10v5M14 10v5', stroke: '#5a2a12', fill: 'none' })],
  wood: () => [svg('path', { d: 'M10 2l6 10H4z', fill: '#2f7d32', stroke: '#123d14' }),
    svg('rect', { x: 8.5, y: 12, width: 3, height: 6, fill: '#6d4c2f' })],
  wool: () => [svg('circle', { cx: 7, cy: 10, r: 4, fill: '#fff', stroke: '#555' }), svg('circle', { cx: 12, cy: 8, r: 4.5, fill: '#fff', stroke: '#555' }),
    svg('circle', { cx: 13, cy: 12, r: 3.5, fill: '#fff', stroke: '#555' })],
  wheat: () => [svg('path', { d: 'M10 18V4M10 7l-3-2M10 7l3-2M10 11l-3-2M10 11l3-2M10 15l-3-2M10 15l3-2', stroke: '#a07800', 'stroke-width': 1.6, fill: 'none' })],
  ore: () => [svg('path', { d: 'M2 17l5-9 3 4 3-7 5 12z', fill: '#7d7f8a', stroke: '#33343a' })],
};

/** The icon of `resource`, hidden from screen readers (the card says the name). */
export function resourceIcon(resource) {
  return svg('svg', { class: `icon icon-${resource}`, viewBox: '0 0 20 20', width: 20, height: 20, 'aria-hidden': 'true' }, (SHAPES[resource] || (() => []))());
}
