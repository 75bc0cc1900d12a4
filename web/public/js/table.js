// The informational parts of the game table: the turn banner, every
// player's public state (card counts, points, knights, awards, pieces), your
// own hand and development cards, and the dice.

import { el, DEV_CARDS, devEffect, devName, phaseText, resName, RESOURCES, SEAT_COLOURS, SEAT_SHAPES, SHAPE_SYMBOL, fill } from './util.js';
import { resourceIcon } from './icons.js';
import { t, tn } from './i18n.js';

/** The player's colour/shape badge. */
export function badge(seat) {
  return el('span', { class: `badge seat-${seat}`, style: `background:${SEAT_COLOURS[seat]}`, 'aria-hidden': 'true' }, SHAPE_SYMBOL[SEAT_SHAPES[seat]]);
}

/** What the game waits for, as a sentence. */
export function bannerText(ctx) {
  const { view, seat, name } = ctx;
  if (view.phase === 'finished') return view.winner === null ? t('banner.over') : t('banner.overWins', { who: name(view.winner) });
  if (view.phase === 'discard') {
    const owing = view.discards_owed.map((n, s) => (n ? s : null)).filter((s) => s !== null);
    if (seat !== null && view.discards_owed[seat]) return t('banner.discard', { n: view.discards_owed[seat] });
    return t('banner.waitDiscard', { who: owing.map(name).join(', ') });
  }
  const who = view.active === seat ? t('banner.yourTurn') : t('banner.theirTurn', { who: name(view.active) });
  const what = view.phase === 'opening'
    ? (view.opening_settlement === null ? t('banner.placeSettlement') : t('banner.placeRoad'))
    : phaseText(view.phase);
  return `${view.turn ? t('banner.turn', { n: view.turn }) : ''}${who}: ${what}.`;
}

/** The banner at the top of the table. */
export function renderBanner(root, ctx) {
  const mine = ctx.seat !== null && ctx.legal.length > 0;
  root.className = `banner${mine ? ' your-move' : ''}`;
  const text = bannerText(ctx);
  // The whole sentence, where a phone cuts it at two lines.
  root.title = text;
  fill(root, badge(ctx.view.active), el('span', { id: 'banner-text' }, text),
    ctx.spectating ? el('span', { class: 'tag' }, t('banner.spectating')) : null);
}

/** Every player's public state. */
export function renderPlayers(root, ctx) {
  const { view, name, presence } = ctx;
  fill(root, el('h2', {}, t('players.title')), el('ul', { class: 'players' }, view.players.map((p) => {
    const awards = [view.longest_road === p.seat && t('award.road'), view.largest_army === p.seat && t('award.army')].filter(Boolean);
    const away = presence && presence[p.seat] === false && (!ctx.kind || ctx.kind(p.seat) === 'human');
    const points = p.victory_points !== null && p.victory_points !== undefined && p.victory_points !== p.visible_points
      ? `${p.visible_points} (${p.victory_points})` : String(p.visible_points);
    return el('li', { class: `player seat-${p.seat}${view.active === p.seat ? ' active' : ''}`, 'data-seat': p.seat },
      el('div', { class: 'player-head' }, badge(p.seat), el('strong', { class: 'player-name' }, name(p.seat)),
        p.seat === ctx.seat ? el('span', { class: 'tag' }, t('tag.you')) : null,
        ctx.kind && ctx.kind(p.seat) === 'bot' ? el('span', { class: 'tag' }, t('tag.bot')) : null,
        away ? el('span', { class: 'tag away' }, t('tag.away')) : null,
        el('span', { class: 'points', title: t('player.vpTitle') }, t('player.vp', { n: points }))),
        ctx.gain && ctx.gain(p.seat) ? el('div', { class: 'gain', 'data-seat': p.seat }, ctx.gain(p.seat)) : null,
      el('div', { class: 'player-stats' },
        el('span', { class: 'cards', 'data-count': p.resource_count }, `🂠 ${tn('count.cards', p.resource_count)}`),

        el('span', { class: 'devs', 'data-count': p.dev_card_count }, t('player.devs', { n: p.dev_card_count })),
        el('span', {}, `⚔ ${t('player.knights', { n: p.played_knights })}`),
        el('span', {}, t('player.road', { n: p.longest_trail })),
        el('span', { class: 'pieces', title: t('player.piecesTitle') }, t('player.pieces', { list: p.pieces_left.join('/') }))),
      awards.length ? el('div', { class: 'awards' }, awards.map((a) => el('span', { class: 'award' }, a))) : null,
      p.resources && p.seat !== ctx.seat ? el('div', { class: 'open-hand' }, handList(p.resources)) : null,
      p.dev_cards && p.seat !== ctx.seat && p.dev_card_count
        ? el('p', { class: 'open-devs' }, t('player.openDevs'), DEV_CARDS.filter((c) => p.dev_cards[c]).map((c) => `${p.dev_cards[c]} ${devName(c)}`).join(', '))
        : null,
      view.discards_owed[p.seat] ? el('div', { class: 'owes' }, t('player.owes', { n: view.discards_owed[p.seat] })) : null);
  })));
}

function handList(res) {
  return el('ul', { class: 'hand' }, RESOURCES.map((r) => el('li', { class: `card res-${r}${res[r] ? '' : ' none'}`, 'data-resource': r, 'data-count': res[r] },
    resourceIcon(r), el('span', { class: 'card-count' }, String(res[r])), el('span', { class: 'card-name' }, resName(r)))));
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
          el('strong', { class: 'devcard-name' }, `${me.dev_cards[c]} × ${devName(c)}`),
          fresh ? el('span', { class: 'tag new', title: t('hand.newTitle') }, t('hand.new', { n: fresh })) : null,
          el('span', { class: 'devcard-effect' }, devEffect(c)));
      }))
      : el('p', { class: 'hint' }, t('hand.none')),
    el('p', { class: 'pieces-left' }, t('hand.pieces', { roads: me.pieces_left[0], settlements: me.pieces_left[1], cities: me.pieces_left[2] })),
    el('p', { class: 'bank' }, t('hand.bank', { list: RESOURCES.map((r) => `${view.bank[r]} ${resName(r)}`).join(', '), n: view.deck_size })),

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
