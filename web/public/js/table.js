// The informational parts of the game table: the turn banner, every
// player's public state (card counts, points, knights, awards, pieces), your
// own hand and development cards, and the dice.

import { el, DEV_CARDS, DEV_EFFECTS, DEV_NAMES, PHASE_TEXT, RESOURCES, SEAT_COLOURS, SEAT_SHAPES, SHAPE_SYMBOL, fill } from './util.js';
import { resourceIcon } from './icons.js';
import { t } from './i18n.js';

/** The player's colour/shape badge. */
export function badge(seat) {
  return el('span', { class: `badge seat-${seat}`, style: `background:${SEAT_COLOURS[seat]}`, 'aria-hidden': 'true' }, SHAPE_SYMBOL[SEAT_SHAPES[seat]]);
}

/** What the game waits for, as a sentence. */
export function bannerText(ctx) {
  const { view, seat, name } = ctx;
  if (view.phase === 'finished') return view.winner === null ? 'Game over.' : `Game over: ${name(view.winner)} wins!`;
  if (view.phase === 'discard') {
    const owing = view.discards_owed.map((n, s) => (n ? s : null)).filter((s) => s !== null);
    if (seat !== null && view.discards_owed[seat]) return `Discard ${view.discards_owed[seat]} cards.`;
    return `Waiting for ${owing.map(name).join(', ')} to discard.`;
  }
  const who = view.active === seat ? 'Your turn' : `${name(view.active)}'s turn`;
  const what = view.phase === 'opening'
    ? (view.opening_settlement === null ? 'place a settlement' : 'place a road next to it')
    : PHASE_TEXT[view.phase];
  return `${view.turn ? `Turn ${view.turn} · ` : ''}${who}: ${what}.`;
}

/** The banner at the top of the table. */
export function renderBanner(root, ctx) {
  const mine = ctx.seat !== null && ctx.legal.length > 0;
  root.className = `banner${mine ? ' your-move' : ''}`;
  fill(root, badge(ctx.view.active), el('span', { id: 'banner-text' }, bannerText(ctx)),
    ctx.spectating ? el('span', { class: 'tag' }, t('banner.spectating')) : null);
}

/** Every player's public state. */
export function renderPlayers(root, ctx) {
  const { view, name, presence } = ctx;
  fill(root, el('h2', {}, t('players.title')), el('ul', { class: 'players' }, view.players.map((p) => {
    const awards = [view.longest_road === p.seat && 'Longest Road', view.largest_army === p.seat && 'Largest Army'].filter(Boolean);
    const away = presence && presence[p.seat] === false && (!ctx.kind || ctx.kind(p.seat) === 'human');
    const points = p.victory_points !== null && p.victory_points !== undefined && p.victory_points !== p.visible_points
      ? `${p.visible_points} (${p.victory_points})` : String(p.visible_points);
    return el('li', { class: `player seat-${p.seat}${view.active === p.seat ? ' active' : ''}`, 'data-seat': p.seat },
      el('div', { class: 'player-head' }, badge(p.seat), el('strong', { class: 'player-name' }, name(p.seat)),
        p.seat === ctx.seat ? el('span', { class: 'tag' }, 'you') : null,
        ctx.kind && ctx.kind(p.seat) === 'bot' ? el('span', { class: 'tag' }, 'bot') : null,
        away ? el('span', { class: 'tag away' }, 'away') : null,
        el('span', { class: 'points', title: 'Victory points' }, `${points} VP`)),
        ctx.gain && ctx.gain(p.seat) ? el('div', { class: 'gain', 'data-seat': p.seat }, ctx.gain(p.seat)) : null,
      el('div', { class: 'player-stats' },
        el('span', { class: 'cards', 'data-count': p.resource_count }, `🂠 ${p.resource_count} cards`),
        el('span', { class: 'devs', 'data-count': p.dev_card_count }, `${p.dev_card_count} dev`),
        el('span', {}, `⚔ ${p.played_knights} knights`),
        el('span', {}, `road ${p.longest_trail}`),
        el('span', { class: 'pieces', title: 'Pieces left: roads, settlements, cities' }, `left ${p.pieces_left.join('/')}`)),
      awards.length ? el('div', { class: 'awards' }, awards.map((a) => el('span', { class: 'award' }, a))) : null,
      p.resources && p.seat !== ctx.seat ? el('div', { class: 'open-hand' }, handList(p.resources)) : null,
      p.dev_cards && p.seat !== ctx.seat && p.dev_card_count
        ? el('p', { class: 'open-devs' }, 'Development cards: ', DEV_CARDS.filter((c) => p.dev_cards[c]).map((c) => `${p.dev_cards[c]} ${DEV_NAMES[c]}`).join(', '))
        : null,
      view.discards_owed[p.seat] ? el('div', { class: 'owes' }, `owes ${view.discards_owed[p.seat]} discards`) : null);
  })));
}

function handList(res) {
  return el('ul', { class: 'hand' }, RESOURCES.map((r) => el('li', { class: `card res-${r}${res[r] ? '' : ' none'}`, 'data-resource': r, 'data-count': res[r] },
    resourceIcon(r), el('span', { class: 'card-count' }, String(res[r])), el('span', { class: 'card-name' }, r))));
}

/** Your hand, development cards and pieces. */
export function renderMe(root, ctx) {
  const { view, seat } = ctx;
  if (seat === null) {
    fill(root, el('p', { class: 'hint' }, t('hand.watching')));
    return;
  }
  const me = view.players[seat];
  const devs = DEV_CARDS.filter((c) => me.dev_cards && me.dev_cards[c] > 0);
  const mine = ctx.gain ? ctx.gain(seat) : null;
  fill(root,
    el('h2', {}, t('hand.title'), mine ? el('span', { class: 'gain', 'data-seat': seat }, ` ${mine}`) : null),
    handList(me.resources || {}),
    el('h3', {}, t('hand.devs')),
    devs.length
      ? el('ul', { class: 'devcards' }, devs.map((c) => {
        const fresh = (me.dev_cards_new && me.dev_cards_new[c]) || 0;
        return el('li', { class: `devcard dev-${c}`, 'data-card': c },
          el('strong', { class: 'devcard-name' }, `${me.dev_cards[c]} × ${DEV_NAMES[c]}`),
          fresh ? el('span', { class: 'tag new', title: 'Bought this turn: playable from your next turn' }, `${fresh} new: playable next turn`) : null,
          el('span', { class: 'devcard-effect' }, DEV_EFFECTS[c]));
      }))
      : el('p', { class: 'hint' }, t('hand.none')),
    el('p', { class: 'pieces-left' }, `Pieces left: ${me.pieces_left[0]} roads, ${me.pieces_left[1]} settlements, ${me.pieces_left[2]} cities.`),
    el('p', { class: 'bank' }, `Bank: ${RESOURCES.map((r) => `${view.bank[r]} ${r}`).join(', ')} · ${view.deck_size} development cards left.`),
  );
}

const FACES = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** The last roll; `roll` animates briefly (without delaying anything). */
export function renderDice(root, dice, roll) {
  if (!dice) {
    fill(root, el('span', { class: 'hint' }, t('dice.none')));
    return;
  }
  fill(root, 
    el('span', { class: `die${roll ? ' rolling' : ''}`, 'aria-hidden': 'true' }, FACES[dice[0]]),
    el('span', { class: `die${roll ? ' rolling' : ''}`, 'aria-hidden': 'true' }, FACES[dice[1]]),
    el('span', { class: 'dice-total', id: 'dice-total' }, `= ${dice[0] + dice[1]}`));
}
