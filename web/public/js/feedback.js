// Feedback for what just happened at the table (issue 11, item 3): after a
// roll the producing hexes light up and each player's gains show by their
// name (card types only for your own hand), steals, trades and robber moves
// show as short toasts, and a win is celebrated. Nothing here delays
// input: highlights expire on their own, and with prefers-reduced-motion
// the CSS shows them without movement.

import { el, fill, resName, setText, total } from './util.js';
import { hexName } from './words.js';
import { badge } from './table.js';
import { t, tn } from './i18n.js';

/** How long a roll's highlights and gains stay, in ms. */
export const FLASH_MS = 2500;
/** How long a toast stays, in ms. */
export const TOAST_MS = 4000;

/** Fresh feedback state. */
export function freshFeedback() {
  return { hexes: new Set(), gains: null, until: 0, robberMoved: false, won: null };
}

/**
 * Reads one update's events into `fb` and returns the toasts to show.
 * `me` is this viewer's seat (null for a spectator), `name` names seats.
 */
export function noteEvents(fb, events, view, me, name) {
  const toasts = [];
  // Sentences about you are their own catalogue entries ("You stole…"):
  // languages differ in more than the pronoun.
  const you = (s) => s === me;
  for (const ev of events) {
    switch (ev.type) {
      case 'dice_rolled': {
        const n = ev.dice[0] + ev.dice[1];
        fb.hexes = new Set(view.board.hexes.map((tile, h) => (tile.number === n && h !== view.robber ? h : null)).filter((h) => h !== null));
        fb.until = performance.now() + FLASH_MS;
        fb.gains = null;
        break;
      }
      case 'produced':
        fb.gains = ev.gains;
        fb.until = performance.now() + FLASH_MS;
        break;
      case 'robber_moved':
        fb.robberMoved = true;
        toasts.push(t(you(ev.seat) ? 'toast.robberYou' : 'toast.robber', { who: name(ev.seat), place: hexName(view.board, ev.hex) }));
        break;
      case 'stole': {
        const key = you(ev.thief) ? 'toast.stoleYou' : you(ev.victim) ? 'toast.stoleFromYou' : 'toast.stole';
        const what = ev.resource ? t('toast.oneRes', { res: resName(ev.resource) }) : t('toast.aCard');
        toasts.push(t(key, { thief: name(ev.thief), victim: name(ev.victim), what }));
        break;
      }
      case 'traded': {
        const key = you(ev.maker) ? 'toast.tradedYou' : you(ev.taker) ? 'toast.tradedWithYou' : 'toast.traded';
        toasts.push(t(key, { maker: name(ev.maker), taker: name(ev.taker), gave: setText(ev.gave), got: setText(ev.got) }));
        break;
      }
      case 'game_won':
        fb.won = ev.seat;
        break;
      default:
        break;
    }
  }
  return toasts;
}

/** Whether the roll highlights are still on. */
export function flashing(fb) {
  return performance.now() < fb.until;
}

/** "+1 wood, +1 ore" for your own gains, "+2 cards" for someone else's. */
export function gainText(fb, seat, me) {
  if (!fb.gains || !flashing(fb)) return null;
  const g = fb.gains[seat];
  const n = total(g);
  if (!n) return null;
  if (seat === me) return setText(g).split(', ').map((p) => `+${p}`).join(', ');
  return `+${tn('count.cards', n)}`;
}

/**
 * The roll's gains at the foot of the board (`root`, #roll-gains): every
 * player who gained, by badge and name, while the highlights last. On a
 * phone the players' list is a tab away and the board is where the eye is
 * after a roll; wide screens hide this (the players' list shows the gains
 * there). Rebuilt only when the gains change, so other redraws during the
 * flash neither restart its animation nor cost anything.
 */
export function renderRollGains(root, fb, seats, me, name) {
  const items = seats.map((s) => ({ s, text: gainText(fb, s, me) })).filter((g) => g.text);
  const key = items.length ? `${fb.until}:${items.map((g) => `${g.s}=${g.text}`).join(';')}` : '';
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.hidden = !items.length;
  fill(root, items.map(({ s, text }) => el('span', { class: 'roll-gain', 'data-seat': s },
    badge(s), el('span', { class: 'roll-gain-who' }, s === me ? t('gains.you') : name(s)), el('strong', {}, text))));
}

/** Shows `text` as a toast in `root` for a few seconds. */
export function toast(root, text) {
  const node = el('div', { class: 'toast', 'aria-hidden': 'true' }, text);
  root.append(node);
  while (root.children.length > 3) root.firstChild.remove();
  setTimeout(() => node.remove(), TOAST_MS);

}
