// The client's board ids against SCENARIO.md's pinned facts (run in Node:
// geometry.js has no DOM dependency).

import { expect } from '@playwright/test';
import { test } from './helpers.js';
import { GEO, HARBOUR_EDGES, edgeBetween } from '../public/js/geometry.js';

test('geometry: counts and pinned ids match SCENARIO.md', () => {
  expect(GEO.hexes).toHaveLength(19);
  expect(GEO.vertices).toHaveLength(54);
  expect(GEO.edges).toHaveLength(72);
  expect(GEO.edges.filter((e) => e.coastal)).toHaveLength(30);
  expect(GEO.hexes[0].vertices).toEqual([0, 4, 8, 12, 7, 3]);
  expect(GEO.hexes[9].vertices).toEqual([18, 24, 30, 35, 29, 23]);
  expect(GEO.hexes[18].vertices).toEqual([41, 46, 50, 53, 49, 45]);
  expect(GEO.edges[0].vertices).toEqual([0, 3]);
  expect(GEO.edges[71].vertices).toEqual([50, 53]);
  expect(edgeBetween(3, 0)).toBe(0);
});

test('geometry: harbours sit on coastal edges, every vertex has 2-3 edges', () => {
  for (const e of HARBOUR_EDGES) expect(GEO.edges[e].coastal).toBe(true);
  for (const v of GEO.vertices) {
    expect(v.edges.length).toBeGreaterThanOrEqual(2);
    expect(v.edges.length).toBeLessThanOrEqual(3);
    expect(v.hexes.length).toBeGreaterThanOrEqual(1);
  }
  // Hex 9 (the centre) touches six others' vertices; its edges are all inland.
  for (const e of GEO.hexes[9].edges) expect(GEO.edges[e].coastal).toBe(false);
});
