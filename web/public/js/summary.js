// The end-of-game summary: the winner, points by source, resources gained,
// trades and robber moves per player, and the dice against expectation.
// Used by the live table (from the events it saw) and the replay page
// (from the whole record).

import { barChart, diceChart, stackedChart } from './charts.js';
import { el, resName, RESOURCES, SEAT_COLOURS } from './util.js';
import { t } from './i18n.js';

const RESOURCE_COLOURS = { brick: '#C8643B', wood: '#2F7D32', wool: '#9CCC65', wheat: '#F2C94C', ore: '#8D8F99' };

/** Points by source for each player of a final (omniscient) view. */
export function pointsBySource(view) {
  return view.players.map((p) => ({
    settlements: p.settlements.length,
    cities: 2 * p.cities.length,
    longest_road: view.longest_road === p.seat ? 2 : 0,
    largest_army: view.largest_army === p.seat ? 2 : 0,
    vp_cards: p.revealed_vp_cards ?? (p.dev_cards ? p.dev_cards.victory_point : 0),
  }));
}

/**
 * The summary element. `partial` says the tallies miss events before this
 * page joined; `heading` replaces the "X wins!" heading (the live table's
 * celebration says it, and it is said once).
 */
export function summary(view, stats, name, { partial = false, heading = null } = {}) {
  const seats = view.players.map((p) => p.seat);
  const labels = seats.map(name);
  const pts = pointsBySource(view);
  const sources = [
    ['settlements', t('sum.settlements'), '#8D6E63'], ['cities', t('sum.cities'), '#5D4037'], ['longest_road', t('award.road'), '#0072B2'],
    ['largest_army', t('award.army'), '#D55E00'], ['vp_cards', t('sum.vpCards'), '#CC79A7'],
  ];
  return el('div', { class: 'summary' },
    heading || el('h2', {}, view.winner === null ? t('sum.over') : t('win.other', { who: name(view.winner) })),
    el('p', {}, t('sum.final', { list: seats.map((s) => `${name(s)} ${Object.values(pts[s]).reduce((a, b) => a + b, 0)}`).join(', ') })),
    partial ? el('p', { class: 'hint' }, t('sum.partial')) : null,
    el('div', { class: 'charts' },
      stackedChart({ title: t('sum.points'), labels, stacks: sources.map(([k, n, c]) => ({ name: n, colour: c, values: seats.map((s) => pts[s][k]) })) }),
      stackedChart({ title: t('sum.gained'), labels, stacks: RESOURCES.map((r) => ({ name: resName(r), colour: RESOURCE_COLOURS[r], values: seats.map((s) => stats.gained[s][r]) })) }),
      barChart({ title: t('sum.trades'), labels, series: [
        { name: t('sum.withPlayers'), colour: '#56B4E9', values: stats.trades },
        { name: t('sum.withBank'), colour: '#E69F00', values: stats.bankTrades }] }),
      barChart({ title: t('sum.robber'), labels, series: [
        { name: t('sum.robberMoves'), colour: '#444', values: stats.robberMoves },
        { name: t('sum.steals'), colour: '#CC79A7', values: stats.steals }] }),

      diceChart(stats.rolls.some((n) => n > 0) ? stats.rolls : view.dice_counts)),
    el('p', { class: 'legend-seats' }, seats.map((s) => el('span', {}, el('i', { style: `background:${SEAT_COLOURS[s]}` }), name(s)))));
}
