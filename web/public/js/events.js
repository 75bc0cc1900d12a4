// Game events as short sentences for the log (and screen readers), and the
// running tallies behind the charts (dice, resources gained, trades, robber
// moves). Only events this viewer was sent are described: the server has
// already redacted what the viewer may not know.

import { DEV_NAMES, RESOURCES, setText, total } from './util.js';
import { hexName } from './words.js';

/**
 * One plain sentence for an event, or null to leave it out of the log.
 * `more.board` names hexes ("the 8 hills"); `more.maker(offerId)` tells
 * whose offer an answer was to (events carry only the offer's id).
 */
export function describe(ev, name, more = {}) {
  const place = (h) => (more.board ? hexName(more.board, h) : 'another hex');
  const whose = (id) => {
    const m = more.maker ? more.maker(id) : null;
    return m === null || m === undefined ? 'the offer' : `${name(m)}'s offer`;
  };
  switch (ev.type) {
    case 'opener_rolled':
      return `${name(ev.opener)} rolled highest and opens the game.`;
    case 'settlement_built':
      return `${name(ev.seat)} built a settlement.`;
    case 'road_built':
      return `${name(ev.seat)} built a road.`;
    case 'city_built':
      return `${name(ev.seat)} built a city.`;
    case 'opening_resources':
      return `${name(ev.seat)} took ${setText(ev.gained)} for the second settlement.`;
    case 'dice_rolled':
      return more.standIn
        ? `The dice were rolled for ${name(ev.seat)}: ${ev.dice[0]} + ${ev.dice[1]} = ${ev.dice[0] + ev.dice[1]}.`
        : `${name(ev.seat)} rolled ${ev.dice[0]} + ${ev.dice[1]} = ${ev.dice[0] + ev.dice[1]}.`;
    case 'produced': {
      const parts = ev.gains.map((g, s) => (total(g) ? `${name(s)} ${setText(g)}` : null)).filter(Boolean);
      const short = ev.shortage.length ? ` The bank ran short of ${ev.shortage.join(', ')}.` : '';
      return parts.length ? `Production: ${parts.join('; ')}.${short}` : `Nothing was produced.${short}`;
    }
    case 'discards_owed': {
      const parts = ev.owed.map((n, s) => (n ? `${name(s)} ${n}` : null)).filter(Boolean);
      return `Discards owed: ${parts.join(', ')}.`;
    }
    case 'discarded':
      return `${name(ev.seat)} discarded ${setText(ev.cards)}.`;
    case 'robber_moved':
      return `${name(ev.seat)} moved the robber to ${place(ev.hex)}.`;
    case 'stole':
      return ev.resource
        ? `${name(ev.thief)} stole 1 ${ev.resource} from ${name(ev.victim)}.`
        : `${name(ev.thief)} stole a card from ${name(ev.victim)}.`;
    case 'dev_card_bought':
      return ev.card ? `${name(ev.seat)} bought a development card: ${DEV_NAMES[ev.card]}.` : `${name(ev.seat)} bought a development card.`;
    case 'knight_played':
      return `${name(ev.seat)} played a Knight.`;
    case 'road_building_played':
      return `${name(ev.seat)} played Road Building (${ev.edges.length} road${ev.edges.length === 1 ? '' : 's'}).`;
    case 'invention_played':
      return `${name(ev.seat)} played Invention and took ${setText(ev.taken)}.`;
    case 'monopoly_played':
      return `${name(ev.seat)} played Monopoly on ${ev.resource} and took ${ev.taken.reduce((a, b) => a + b, 0)}.`;
    case 'bank_traded':
      return `${name(ev.seat)} traded ${setText(ev.gave)} to the bank for ${setText(ev.got)}.`;
    case 'trade_offered': {
      const o = ev.offer;
      const to = o.counter ? ' (counter-offer)' : o.to.length ? ` to ${o.to.map(name).join(', ')}` : '';
      return `${name(o.maker)} offers ${setText(o.give)} for ${setText(o.get)}${to}.`;
    }
    case 'trade_accepted':
      return `${name(ev.seat)} accepts ${whose(ev.offer)}.`;
    case 'trade_declined':
      return `${name(ev.seat)} declines ${whose(ev.offer)}.`;
    case 'trade_closed':
      return null;
    case 'traded':
      return `${name(ev.maker)} gave ${setText(ev.gave)} to ${name(ev.taker)} for ${setText(ev.got)}.`;
    case 'longest_road_changed':
      return ev.holder === null ? 'Longest Road is set aside.' : `${name(ev.holder)} takes Longest Road (${ev.length}).`;
    case 'largest_army_changed':
      return `${name(ev.holder)} takes Largest Army (${ev.knights} knights).`;
    case 'turn_started':
      return `Turn ${ev.turn}: ${name(ev.seat)}.`;
    case 'game_won':
      return `${name(ev.seat)} wins with ${ev.points} points!`;
    default:
      return null;
  }
}

/** Empty tallies for `n` seats. */
export function newStats(n) {
  const zeros = () => Array.from({ length: n }, () => Object.fromEntries(RESOURCES.map((r) => [r, 0])));
  return {
    gained: zeros(),
    trades: Array(n).fill(0),
    bankTrades: Array(n).fill(0),
    robberMoves: Array(n).fill(0),
    steals: Array(n).fill(0),
    rolls: Array(13).fill(0),
  };
}

function addSet(into, set) {
  for (const r of RESOURCES) into[r] += (set && set[r]) || 0;
}

/** Adds one event to the tallies. */
export function tally(stats, ev) {
  switch (ev.type) {
    case 'opening_resources':
      addSet(stats.gained[ev.seat], ev.gained);
      break;
    case 'produced':
      ev.gains.forEach((g, s) => addSet(stats.gained[s], g));
      break;
    case 'dice_rolled':
      stats.rolls[ev.dice[0] + ev.dice[1]] += 1;
      break;
    case 'robber_moved':
      stats.robberMoves[ev.seat] += 1;
      break;
    case 'stole':
      stats.steals[ev.thief] += 1;
      break;
    case 'invention_played':
      addSet(stats.gained[ev.seat], ev.taken);
      break;
    case 'traded':
      stats.trades[ev.maker] += 1;
      stats.trades[ev.taker] += 1;
      break;
    case 'bank_traded':
      stats.bankTrades[ev.seat] += 1;
      break;
    default:
      break;
  }
}

/** What an action was, in words, for a step whose events say nothing. */
export function actionWords(action) {
  const words = {
    roll_dice: 'rolled the dice', end_turn: 'ended the turn', cancel_trade: 'withdrew an offer',
    decline_trade: 'declined an offer', accept_trade: 'accepted an offer', confirm_trade: 'made a trade',
    offer_trade: 'made an offer', trade_bank: 'traded with the bank', discard: 'discarded',
    move_robber: 'moved the robber', build_road: 'built a road', build_settlement: 'built a settlement',
    build_city: 'built a city', buy_development_card: 'bought a development card',
  };
  return (action && words[action.type]) || 'acted';
}
