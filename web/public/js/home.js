// The home page: display name, creating a lobby with every option, the
// public lobby list (refreshed every few seconds) with join / watch links,
// and opening a lobby from an invite link.

import * as api from './api.js';
import * as prefs from './prefs.js';
import { el, fill, plainError } from './util.js';
import { languagePicker, t, tn, translatePage } from './i18n.js';

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;

function showError(text) {
  const box = $('error-box');
  box.hidden = !text;
  if (text) fill(box, el('span', {}, text), ' ', el('button', { type: 'button', onclick: () => showError(null) }, t('page.dismiss')));
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
    showError(t('home.nameFirst'));
    $('display-name').focus();
    return;
  }
  const body = {
    name: $('lobby-name').value.trim() || t('home.defaultLobby', { name: who }),
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
    showError(t('home.cannotCreate', { error: plainError(e) }));
  } finally {
    $('create').disabled = false;
  }
}

/** One click to a game: a private lobby, you, three normal bots, started. */
async function playBots() {
  const who = displayName() || t('home.player');
  $('play-bots').disabled = true;
  try {
    const made = await api.createLobby({ name: t('home.botLobby', { name: who }), public: false, options: { players: 4 } });
    const id = made.lobby.id;
    prefs.setHost(id, made.host_token);
    const joined = await api.joinLobby(id, who);
    prefs.setSeat(id, { seat: joined.seat, token: joined.token });
    for (let i = 0; i < 3; i++) await api.addBot(id, made.host_token, 'normal');
    await api.startGame(id, made.host_token);
    location.href = `game.html?id=${id}`;
  } catch (e) {
    showError(t('home.cannotBots', { error: plainError(e) }));
    $('play-bots').disabled = false;
  }
}

/** The timer's seconds only matter with the timer on. */
function syncTimer() {
  $('timer-seconds').disabled = !$('timer').checked;
}

function row(l) {
  const href = `game.html?id=${l.id}`;
  const open = l.status === 'waiting' && l.seats_taken < l.seats.length;
  const o = l.options;
  // Lobbies this browser created: marked, and "nobody here" when no person is connected.
  const mine = !!prefs.getHost(l.id);
  const empty = !l.seats.some((s) => s.kind === 'human' && s.connected);
  return el('tr', { 'data-lobby': l.id, class: mine ? 'mine' : null },
    el('td', {}, l.name, mine ? el('span', { class: 'tag' }, t('home.yours')) : null,
      mine && empty ? el('span', { class: 'tag away' }, t('home.abandoned')) : null),
    el('td', {}, `${l.seats_taken}/${l.seats.length}`, el('span', { class: 'hint' }, ` ${l.seats.map((s) => (s.kind === 'empty' ? '·' : s.name)).join(', ')}`)),
    el('td', {}, [t(`boardShort.${o.board}`), t('home.vp', { n: o.vp_target }), o.friendly_robber && t('home.friendlyShort'),
      o.open_hands && t('home.openShort'), o.classic_phases && t('home.classicShort')].filter(Boolean).join(', ')),
    el('td', {}, t(`status.${l.status}`), l.spectators ? ` · ${t('home.watching', { n: l.spectators })}` : ''),
    el('td', {}, el('a', { href, class: 'button' }, open ? t('home.join') : l.status === 'waiting' ? t('home.view') : t('home.watch'))));
}

async function refresh() {
  try {
    const lobbies = await api.listLobbies();
    fill($('lobby-rows'), ...lobbies.map(row));
    $('lobbies-status').textContent = lobbies.length ? tn('home.lobbyCount', lobbies.length) : t('home.noLobbies');
  } catch (e) {
    $('lobbies-status').textContent = t('home.cannotLobbies', { error: plainError(e) });
  }
}

function openLink(ev) {
  ev.preventDefault();
  const text = $('join-link').value.trim();
  const m = text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
  if (!m) {
    showError(t('home.badLink'));
    return;
  }
  location.href = `game.html?id=${m[0]}`;
}

translatePage();
languagePicker($('lang'));
$('display-name').value = prefs.getName();

$('display-name').addEventListener('change', displayName);
$('create-form').addEventListener('submit', create);
$('play-bots').addEventListener('click', playBots);
$('timer').addEventListener('change', syncTimer);
syncTimer();
$('join-link-form').addEventListener('submit', openLink);
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
