// Game events as short sentences for the log (and screen readers), and the
// running tallies behind the charts (dice, resources gained, trades, robber
// moves). Only events this viewer was sent are described: the server has
// already redacted what the viewer may not know.

import { devName, RESOURCES, setText, total } from './util.js';
import { hexName } from './words.js';
import { has, t } from './i18n.js';


/**
 * One plain sentence for an event, or null to leave it out of the log, in
 * the chosen language (i18n.js). `more.board` names hexes ("the 8 hills");
 * `more.maker(offerId)` tells whose offer an answer was to (events carry
 * only the offer's id).
 */
export function describe(ev, name, more = {}) {
  const place = (h) => (more.board ? hexName(more.board, h) : t('hex.other'));
  const whose = (id) => {
    const m = more.maker ? more.maker(id) : null;
    return m === null || m === undefined ? t('log.theOffer') : t('log.whose', { name: name(m) });
  };
  const who = (s) => name(s);
  switch (ev.type) {
    case 'opener_rolled':
      return t('log.opener', { who: who(ev.opener) });
    case 'settlement_built':
      return t('log.settlement', { who: who(ev.seat) });
    case 'road_built':
      return t('log.road', { who: who(ev.seat) });
    case 'city_built':
      return t('log.city', { who: who(ev.seat) });
    case 'opening_resources':
      return t('log.opening', { who: who(ev.seat), cards: setText(ev.gained) });
    case 'dice_rolled': {
      const p = { who: who(ev.seat), a: ev.dice[0], b: ev.dice[1], sum: ev.dice[0] + ev.dice[1] };
      return more.standIn ? t('log.rolledFor', p) : t('log.rolled', p);
    }
    case 'produced': {
      const parts = ev.gains.map((g, s) => (total(g) ? `${name(s)} ${setText(g)}` : null)).filter(Boolean);
      const short = ev.shortage.length ? t('log.short', { list: ev.shortage.map((r) => t(`res.${r}`)).join(', ') }) : '';
      return (parts.length ? t('log.produced', { parts: parts.join('; ') }) : t('log.nothing')) + short;
    }
    case 'discards_owed': {
      const parts = ev.owed.map((n, s) => (n ? `${name(s)} ${n}` : null)).filter(Boolean);
      return t('log.owed', { parts: parts.join(', ') });
    }
    case 'discarded':
      return t('log.discarded', { who: who(ev.seat), cards: setText(ev.cards) });
    case 'robber_moved':
      return t('log.robber', { who: who(ev.seat), place: place(ev.hex) });
    case 'stole':
      return ev.resource
        ? t('log.stoleKnown', { thief: who(ev.thief), res: t(`res.${ev.resource}`), victim: who(ev.victim) })
        : t('log.stole', { thief: who(ev.thief), victim: who(ev.victim) });
    case 'dev_card_bought':
      return ev.card ? t('log.boughtKnown', { who: who(ev.seat), card: devName(ev.card) }) : t('log.bought', { who: who(ev.seat) });
    case 'knight_played':
      return t('log.knight', { who: who(ev.seat) });
    case 'road_building_played':
      return t(ev.edges.length === 1 ? 'log.roadBuilding1' : 'log.roadBuilding', { who: who(ev.seat), n: ev.edges.length });
    case 'invention_played':
      return t('log.invention', { who: who(ev.seat), cards: setText(ev.taken) });
    case 'monopoly_played':
      return t('log.monopoly', { who: who(ev.seat), res: t(`res.${ev.resource}`), n: ev.taken.reduce((a, b) => a + b, 0) });
    case 'bank_traded':
      return t('log.bank', { who: who(ev.seat), gave: setText(ev.gave), got: setText(ev.got) });
    case 'trade_offered': {
      const o = ev.offer;
      const to = o.counter ? t('log.counter') : o.to.length ? t('log.offerTo', { list: o.to.map((s) => name(s)).join(', ') }) : '';
      return t('log.offer', { who: who(o.maker), give: setText(o.give), get: setText(o.get), to });
    }
    case 'trade_accepted':
      return t('log.accepts', { who: who(ev.seat), whose: whose(ev.offer) });
    case 'trade_declined':
      return t('log.declines', { who: who(ev.seat), whose: whose(ev.offer) });
    case 'trade_closed':
      return null;
    case 'traded':
      return t('log.traded', { maker: who(ev.maker), gave: setText(ev.gave), taker: who(ev.taker), got: setText(ev.got) });
    case 'longest_road_changed':
      return ev.holder === null ? t('log.roadAside') : t('log.longest', { who: who(ev.holder), n: ev.length });
    case 'largest_army_changed':
      return t('log.army', { who: who(ev.holder), n: ev.knights });
    case 'turn_started':
      return t('log.turn', { n: ev.turn, who: who(ev.seat) });
    case 'game_won':
      return t('log.won', { who: who(ev.seat), n: ev.points });
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

/** What `who` did, as a sentence, for a step whose events say nothing. */
export function actionWords(action, who) {
  const kind = action && typeof action.type === 'string' && /^[a-z_]+$/.test(action.type) ? action.type : '';
  return has(`did.${kind}`) ? t(`did.${kind}`, { who }) : t('did.other', { who });
}

