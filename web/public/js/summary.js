// The end-of-game summary: the winner, points by source, resources gained,
// trades and robber moves per player, and the dice against expectation.
// Used by the live table (from the events it saw) and the replay page
// (from the whole record).

import { barChart, diceChart, stackedChart } from './charts.js';
import { el, RESOURCES, SEAT_COLOURS } from './util.js';

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

/** The summary element. `partial` says the tallies miss events before this page joined. */
export function summary(view, stats, name, { partial = false } = {}) {
  const seats = view.players.map((p) => p.seat);
  const labels = seats.map(name);
  const pts = pointsBySource(view);
  const sources = [
    ['settlements', 'Settlements', '#8D6E63'], ['cities', 'Cities', '#5D4037'], ['longest_road', 'Longest Road', '#0072B2'],
    ['largest_army', 'Largest Army', '#D55E00'], ['vp_cards', 'VP cards', '#CC79A7'],
  ];
  return el('div', { class: 'summary' },
    el('h2', {}, view.winner === null ? 'Game over' : `${name(view.winner)} wins!`),
    el('p', {}, `Final points: ${seats.map((s) => `${name(s)} ${Object.values(pts[s]).reduce((a, b) => a + b, 0)}`).join(', ')}.`),
    partial ? el('p', { class: 'hint' }, 'Tallies count what happened since this page opened; the replay has the whole game.') : null,
    el('div', { class: 'charts' },
      stackedChart({ title: 'Points by source', labels, stacks: sources.map(([k, n, c]) => ({ name: n, colour: c, values: seats.map((s) => pts[s][k]) })) }),
      stackedChart({ title: 'Resources gained', labels, stacks: RESOURCES.map((r) => ({ name: r, colour: RESOURCE_COLOURS[r], values: seats.map((s) => stats.gained[s][r]) })) }),
      barChart({ title: 'Trades', labels, series: [
        { name: 'with players', colour: '#56B4E9', values: stats.trades },
        { name: 'with the bank', colour: '#E69F00', values: stats.bankTrades }] }),
      barChart({ title: 'Robber moves and steals', labels, series: [
        { name: 'robber moves', colour: '#444', values: stats.robberMoves },
        { name: 'steals', colour: '#CC79A7', values: stats.steals }] }),
      diceChart(stats.rolls.some((n) => n > 0) ? stats.rolls : view.dice_counts)),
    el('p', { class: 'legend-seats' }, seats.map((s) => el('span', {}, el('i', { style: `background:${SEAT_COLOURS[s]}` }), name(s)))));
}
