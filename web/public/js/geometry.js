// Board geometry and ids, computed from the same rules as the server
// (SCENARIO.md "Geometry"): pointy-top hexes in rows of 3, 4, 5, 4, 3;
// integer coordinates where one x unit is half a hex's width and one y unit
// is half its side. Ids are reading order: vertices by (y, x), edges by the
// (y, x) of their midpoint. The unit tests pin this against SCENARIO.md.

const ROW_LENGTHS = [3, 4, 5, 4, 3];
const ROW_OFFSETS = [2, 1, 0, 1, 2];
/** Corner offsets from a hex centre, clockwise from the top. */
export const CORNERS = [[0, -2], [1, -1], [1, 1], [0, 2], [-1, 1], [-1, -1]];
/** Harbour edges, clockwise from hex 0's top-left side (SCENARIO.md). */
export const HARBOUR_EDGES = [0, 3, 9, 38, 61, 70, 66, 49, 23];

function buildGeometry() {
  const hexes = [];
  ROW_LENGTHS.forEach((len, r) => {
    for (let c = 0; c < len; c++) hexes.push({ id: hexes.length, x: 2 * c + ROW_OFFSETS[r], y: 3 * r });
  });

  const key = (x, y) => `${x},${y}`;
  const vertexMap = new Map();
  for (const h of hexes) {
    for (const [dx, dy] of CORNERS) vertexMap.set(key(h.x + dx, h.y + dy), { x: h.x + dx, y: h.y + dy });
  }
  const vertices = [...vertexMap.values()].sort((a, b) => a.y - b.y || a.x - b.x);
  vertices.forEach((v, i) => { v.id = i; v.hexes = []; v.edges = []; v.neighbours = []; });
  const vertexAt = new Map(vertices.map((v) => [key(v.x, v.y), v.id]));

  const edgeMap = new Map();
  for (const h of hexes) {
    h.vertices = CORNERS.map(([dx, dy]) => vertexAt.get(key(h.x + dx, h.y + dy)));
    for (let i = 0; i < 6; i++) {
      const a = h.vertices[i];
      const b = h.vertices[(i + 1) % 6];
      const k = a < b ? `${a}-${b}` : `${b}-${a}`;
      if (!edgeMap.has(k)) edgeMap.set(k, { vertices: [Math.min(a, b), Math.max(a, b)], hexes: [] });
      edgeMap.get(k).hexes.push(h.id);
    }
    for (const v of h.vertices) vertices[v].hexes.push(h.id);
  }
  const mid = (e) => {
    const [a, b] = e.vertices.map((i) => vertices[i]);
    return { sy: a.y + b.y, sx: a.x + b.x };
  };
  const edges = [...edgeMap.values()].sort((e, f) => {
    const m = mid(e);
    const n = mid(f);
    return m.sy - n.sy || m.sx - n.sx;
  });
  edges.forEach((e, i) => {
    e.id = i;
    e.coastal = e.hexes.length === 1;
    const [a, b] = e.vertices;
    vertices[a].edges.push(i);
    vertices[b].edges.push(i);
    vertices[a].neighbours.push(b);
    vertices[b].neighbours.push(a);
  });
  for (const h of hexes) {
    h.edges = [];
    for (let i = 0; i < 6; i++) {
      const a = h.vertices[i];
      const b = h.vertices[(i + 1) % 6];
      h.edges.push(edges.findIndex((e) => e.vertices[0] === Math.min(a, b) && e.vertices[1] === Math.max(a, b)));
    }
  }
  return { hexes, vertices, edges };
}

/** The one geometry: `hexes[id]`, `vertices[id]`, `edges[id]` with adjacency. */
export const GEO = buildGeometry();

/** The edge joining vertices a and b, or -1. */
export function edgeBetween(a, b) {
  return GEO.vertices[a].edges.find((e) => GEO.edges[e].vertices.includes(b)) ?? -1;
}

/** Pixel position of integer coordinates, for hexes of side `size`. */
export function toPixel(x, y, size) {
  return { px: (x * Math.sqrt(3) * size) / 2, py: (y * size) / 2 };
}
