// The waiting room of a lobby: its settings, the invite link, the seats as
// they fill, joining (with the remembered display name), and the host's
// controls (add or remove bots, start).

import { el, SEAT_COLOURS, SEAT_SHAPES, SHAPE_SYMBOL, fill } from './util.js';
import { getName } from './prefs.js';
import { t, tn } from './i18n.js';

function settingsText(lobby) {
  const o = lobby.options;
  const v = [
    t('room.players', { n: o.players }), t(`room.board.${o.board}`), t('room.vp', { n: o.vp_target }),
    o.friendly_robber && t('room.friendly'), o.open_hands && t('room.openHands'), o.classic_phases && t('room.classic'),
    lobby.turn_timer.enabled && t('room.timer', { n: lobby.turn_timer.seconds }),
    lobby.public ? t('room.public') : t('room.private'),
  ];
  return v.filter(Boolean).join(' · ');
}

/**
 * Renders the waiting room into `root`. `draft` holds what its inputs hold
 * (the name being typed, the chosen bot kind) and lives in the page, so a
 * re-render after any message keeps them.
 */
export function renderRoom(root, { lobby, seat, isHost, busy, draft }, actions) {
  if (draft.name === null) draft.name = getName();
  if (draft.botKind === null) draft.botKind = 'normal';
  const invite = `${location.origin}/game.html?id=${lobby.id}`;
  const free = lobby.seats.filter((s) => s.kind === 'empty');
  const nameInput = el('input', { id: 'join-name', name: 'name', maxlength: 40, required: true, value: draft.name, autocomplete: 'nickname',
    oninput: (ev) => { draft.name = ev.target.value; } });
  const seatsList = el('ol', { class: 'seats', 'aria-label': t('room.seats') }, lobby.seats.map((s) => {
    const mine = seat === s.seat;
    return el('li', { class: `seat seat-${s.seat} ${s.kind}`, 'data-seat': s.seat },
      el('span', { class: 'swatch', style: `background:${SEAT_COLOURS[s.seat]}`, 'aria-hidden': 'true' }, SHAPE_SYMBOL[SEAT_SHAPES[s.seat]]),
      el('span', { class: 'seat-name' }, s.kind === 'empty' ? t('room.empty') : s.name, mine ? t('room.you') : ''),
      el('span', { class: 'seat-kind' }, s.kind === 'bot' ? t('room.botKind', { kind: t(`botKind.${s.bot}`) }) : s.kind === 'human' ? (s.connected ? t('room.here') : t('room.away')) : ''),
      isHost && s.kind === 'empty'
        ? el('button', { type: 'button', class: 'add-bot', 'data-seat': s.seat, disabled: busy, onclick: () => actions.addBot(s.seat) }, t('room.addBot'))
        : null,
      isHost && s.kind === 'bot'
        ? el('button', { type: 'button', class: 'remove-bot', 'data-seat': s.seat, disabled: busy, onclick: () => actions.removeBot(s.seat) }, t('room.removeBot'))
        : null,
      seat === null && s.kind === 'empty'
        ? el('button', { type: 'button', class: 'sit-here', 'data-seat': s.seat, disabled: busy, onclick: () => actions.join(nameInput.value, s.seat) }, t('room.sitHere'))
        : null);
  }));
  const kinds = ['normal', 'easy', 'hard', 'random'];
  const botKind = el('select', { id: 'bot-kind', 'aria-label': t('room.botKindLabel'), onchange: (ev) => { draft.botKind = ev.target.value; } },
    kinds.map((v) => el('option', { value: v, selected: v === draft.botKind }, t(`room.kind.${v}`))));
  fill(root,
    el('h1', {}, lobby.name),
    el('p', { class: 'settings' }, settingsText(lobby)),
    el('div', { class: 'invite' },
      el('label', { for: 'invite-link' }, t('room.invite')),
      el('input', { id: 'invite-link', readonly: true, value: invite }),
      el('button', { type: 'button', id: 'copy-invite', onclick: () => actions.copy(invite) }, t('room.copy'))),
    seatsList,
    isHost ? el('p', { class: 'host-tools' }, el('label', { for: 'bot-kind' }, t('room.botsAre')), botKind) : null,
    seat === null
      ? el('form', { class: 'join', onsubmit: (ev) => { ev.preventDefault(); actions.join(nameInput.value); } },
        el('label', { for: 'join-name' }, t('room.yourName')), nameInput,
        el('button', { type: 'submit', id: 'join', disabled: busy || !free.length }, free.length ? t('room.join') : t('room.full')),
        el('span', { class: 'hint' }, t('room.orWatch')))
      : el('p', {}, el('button', { type: 'button', id: 'leave', disabled: busy, onclick: actions.leave }, t('room.leave'))),
    isHost
      ? el('p', {}, el('button', { type: 'button', id: 'start', class: 'primary', disabled: busy || free.length > 0, onclick: actions.start }, t('room.start')),
        free.length ? el('span', { class: 'hint' }, tn('room.stillEmpty', free.length)) : null)
      : el('p', { class: 'hint' }, t('room.hostStarts')),
  );
}

/** The seat buttons, whose focus follows their seat (`data-seat`). */
const SEAT_BUTTONS = ['add-bot', 'remove-bot', 'sit-here'];

/**
 * Which seat button has focus (`{ cls, seat }`), or null: kept across a
 * re-render so that focus stays on that seat's control, not on the first
 * of its kind.
 */
export function focusedSeatButton(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a) || a.dataset.seat === undefined) return null;
  const cls = SEAT_BUTTONS.find((c) => a.classList.contains(c));
  return cls ? { cls, seat: Number(a.dataset.seat) } : null;
}

/**
 * Puts focus back on the seat button `was` after the room was rebuilt, or,
 * when that one is gone (the bot was added, the seat was taken), on the
 * next sensible control: the next empty seat's "Add bot" (or "Sit here")
 * after that seat, then the removed bot's new "Add bot", then Start (or
 * Leave). Returns whether it moved focus. A disabled control (the room is
 * waiting for the server) does not count: the caller tries again after the
 * reply.
 */
export function refocusSeat(root, was) {
  const usable = (sel) => {
    const b = root.querySelector(sel);
    return b && !b.disabled ? b : null;
  };
  const same = usable(`button.${was.cls}[data-seat="${was.seat}"]`);
  const pick = same || (() => {
    const free = [...root.querySelectorAll(`button.${was.cls === 'remove-bot' ? 'add-bot' : was.cls}`)]
      .filter((b) => !b.disabled);
    const seats = free.map((b) => Number(b.dataset.seat));
    // The same seat first (a removed bot's seat offers "Add bot" again),
    // then the seats after it, then those before it.
    const order = [...seats.filter((n) => n >= was.seat), ...seats.filter((n) => n < was.seat)];
    return order.length ? free[seats.indexOf(order[0])] : usable('#start') || usable('#leave') || usable('#join');
  })();
  if (!pick) return false;
  pick.focus();
  return true;
}
