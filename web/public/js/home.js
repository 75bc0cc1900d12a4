// The home page: display name, creating a lobby with every option, the
// public lobby list (refreshed every few seconds) with join / watch links,
// and opening a lobby from an invite link.

import * as api from './api.js';
import * as prefs from './prefs.js';
import { el, fill, plainError } from './util.js';

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;

function showError(text) {
  const box = $('error-box');
  box.hidden = !text;
  if (text) fill(box, el('span', {}, text), ' ', el('button', { type: 'button', onclick: () => showError(null) }, 'Dismiss'));
}

function displayName() {
  const n = $('display-name').value.trim();
  if (n) prefs.setName(n);
  return n;
}

async function create(ev) {
  ev.preventDefault();
  const who = displayName();
  if (!who) {
    showError('Enter your display name first.');
    $('display-name').focus();
    return;
  }
  const body = {
    name: $('lobby-name').value.trim() || `${who}'s game`,
    public: $('public').checked,
    options: {
      players: Number($('players').value),
      board: $('board-mode').value,
      vp_target: Number($('vp-target').value),
      friendly_robber: $('friendly-robber').checked,
      open_hands: $('open-hands').checked,
      classic_phases: $('classic-phases').checked,
    },
    turn_timer: { enabled: $('timer').checked, seconds: Number($('timer-seconds').value) },
    bot_delay_ms: Number($('bot-delay').value),
  };
  $('create').disabled = true;
  try {
    const made = await api.createLobby(body);
    const id = made.lobby.id;
    prefs.setHost(id, made.host_token);
    const joined = await api.joinLobby(id, who);
    prefs.setSeat(id, { seat: joined.seat, token: joined.token });
    location.href = `game.html?id=${id}`;
  } catch (e) {
    showError(`Could not create the lobby. ${plainError(e)}`);
  } finally {
    $('create').disabled = false;
  }
}

function row(l) {
  const href = `game.html?id=${l.id}`;
  const open = l.status === 'waiting' && l.seats_taken < l.seats.length;
  const o = l.options;
  return el('tr', { 'data-lobby': l.id },
    el('td', {}, l.name),
    el('td', {}, `${l.seats_taken}/${l.seats.length}`, el('span', { class: 'hint' }, ` ${l.seats.map((s) => (s.kind === 'empty' ? '·' : s.name)).join(', ')}`)),
    el('td', {}, `${o.board}, ${o.vp_target} VP${o.friendly_robber ? ', friendly robber' : ''}${o.open_hands ? ', open hands' : ''}${o.classic_phases ? ', classic' : ''}`),
    el('td', {}, l.status, l.spectators ? ` · ${l.spectators} watching` : ''),
    el('td', {}, el('a', { href, class: 'button' }, open ? 'Join' : l.status === 'waiting' ? 'View' : 'Watch')));
}

async function refresh() {
  try {
    const lobbies = await api.listLobbies();
    fill($('lobby-rows'), ...lobbies.map(row));
    $('lobbies-status').textContent = lobbies.length ? `${lobbies.length} lobb${lobbies.length === 1 ? 'y' : 'ies'}` : 'No public lobbies yet: create one.';
  } catch (e) {
    $('lobbies-status').textContent = `Cannot load lobbies: ${e.message}`;
  }
}

function openLink(ev) {
  ev.preventDefault();
  const text = $('join-link').value.trim();
  const m = text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
  if (!m) {
    showError('That does not look like an invite link or lobby id.');
    return;
  }
  location.href = `game.html?id=${m[0]}`;
}

$('display-name').value = prefs.getName();
$('display-name').addEventListener('change', displayName);
$('create-form').addEventListener('submit', create);
$('join-link-form').addEventListener('submit', openLink);
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
