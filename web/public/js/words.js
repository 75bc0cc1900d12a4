// Board places in words a player knows: a hex by its number and terrain
// ("the 8 hills"), a spot by the hexes around it ("between the 8 hills and
// the 5 mountains"). Never an internal id.

import { GEO } from './geometry.js';
import { t } from './i18n.js';

/** "the 8 hills", "the desert", "the 3 forest". */
export function hexName(board, h) {
  const tile = board.hexes[h];
  if (!tile) return t('hex.other');
  if (tile.terrain === 'desert') return t('hex.desert');
  const terrain = t(`terrain.${tile.terrain}`);
  return tile.number ? t('hex.named', { n: tile.number, terrain }) : t('hex.terrain', { terrain });
}

function list(parts) {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')}${t('list.and')}${parts[parts.length - 1]}`;
}

/** The hexes around a vertex: "the 8 hills, the 5 mountains and the sea". */
export function vertexPlace(board, v) {
  const hexes = GEO.vertices[v].hexes.map((h) => hexName(board, h));
  if (hexes.length < 3) hexes.push(t('hex.sea'));
  return list(hexes);
}

/** The hexes on either side of an edge. */
export function edgePlace(board, e) {
  const hexes = GEO.edges[e].hexes.map((h) => hexName(board, h));
  if (hexes.length < 2) hexes.push(t('hex.sea'));
  return list(hexes);
}
