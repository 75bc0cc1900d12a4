// The waiting room of a lobby: its settings, the invite link, the seats as
// they fill, joining (with the remembered display name), and the host's
// controls (add or remove bots, start).

import { el, SEAT_COLOURS, SEAT_SHAPES, SHAPE_SYMBOL, fill } from './util.js';
import { getName } from './prefs.js';

function settingsText(lobby) {
  const o = lobby.options;
  const v = [
    `${o.players} players`, `${o.board} board`, `${o.vp_target} points to win`,
    o.friendly_robber && 'friendly robber', o.open_hands && 'open hands', o.classic_phases && 'classic phases',
    lobby.turn_timer.enabled && `turn timer ${lobby.turn_timer.seconds}s`,
    lobby.public ? 'public' : 'private (link only)',
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
  const seatsList = el('ol', { class: 'seats', 'aria-label': 'Seats' }, lobby.seats.map((s) => {
    const mine = seat === s.seat;
    return el('li', { class: `seat seat-${s.seat} ${s.kind}`, 'data-seat': s.seat },
      el('span', { class: 'swatch', style: `background:${SEAT_COLOURS[s.seat]}`, 'aria-hidden': 'true' }, SHAPE_SYMBOL[SEAT_SHAPES[s.seat]]),
      el('span', { class: 'seat-name' }, s.kind === 'empty' ? 'Empty seat' : s.name, mine ? ' (you)' : ''),
      el('span', { class: 'seat-kind' }, s.kind === 'bot' ? `bot (${s.bot})` : s.kind === 'human' ? (s.connected ? 'here' : 'away') : ''),
      isHost && s.kind === 'empty'
        ? el('button', { type: 'button', class: 'add-bot', disabled: busy, onclick: () => actions.addBot(s.seat) }, 'Add bot')
        : null,
      isHost && s.kind === 'bot'
        ? el('button', { type: 'button', class: 'remove-bot', disabled: busy, onclick: () => actions.removeBot(s.seat) }, 'Remove bot')
        : null,
      seat === null && s.kind === 'empty'
        ? el('button', { type: 'button', class: 'sit-here', disabled: busy, onclick: () => actions.join(nameInput.value, s.seat) }, 'Sit here')
        : null);
  }));
  const kinds = [['normal', 'Normal bot'], ['easy', 'Easy bot'], ['hard', 'Hard bot (thinks up to a second a move)'], ['random', 'Random bot']];
  const botKind = el('select', { id: 'bot-kind', 'aria-label': 'Bot kind', onchange: (ev) => { draft.botKind = ev.target.value; } },
    kinds.map(([v, label]) => el('option', { value: v, selected: v === draft.botKind }, label)));
  fill(root, 
    el('h1', {}, lobby.name),
    el('p', { class: 'settings' }, settingsText(lobby)),
    el('div', { class: 'invite' },
      el('label', { for: 'invite-link' }, 'Invite link'),
      el('input', { id: 'invite-link', readonly: true, value: invite }),
      el('button', { type: 'button', id: 'copy-invite', onclick: () => actions.copy(invite) }, 'Copy link')),
    seatsList,
    isHost ? el('p', { class: 'host-tools' }, el('label', { for: 'bot-kind' }, 'Bots added are: '), botKind) : null,
    seat === null
      ? el('form', { class: 'join', onsubmit: (ev) => { ev.preventDefault(); actions.join(nameInput.value); } },
        el('label', { for: 'join-name' }, 'Your name'), nameInput,
        el('button', { type: 'submit', id: 'join', disabled: busy || !free.length }, free.length ? 'Join' : 'Full'),
        el('span', { class: 'hint' }, ' or just watch: the game will show here when it starts.'))
      : el('p', {}, el('button', { type: 'button', id: 'leave', disabled: busy, onclick: actions.leave }, 'Leave seat')),
    isHost
      ? el('p', {}, el('button', { type: 'button', id: 'start', class: 'primary', disabled: busy || free.length > 0, onclick: actions.start }, 'Start game'),
        free.length ? el('span', { class: 'hint' }, ` ${free.length} seat${free.length > 1 ? 's' : ''} still empty: invite friends or add bots.`) : null)
      : el('p', { class: 'hint' }, 'The host starts the game when every seat is filled.'),
  );
}
