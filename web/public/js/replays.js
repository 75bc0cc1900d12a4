// The list of finished games, newest first, filterable by player name, with
// a link to each game's replay.

import * as api from './api.js';
import { el, fill, plainError } from './util.js';
import { lang, languagePicker, t, tn, translatePage } from './i18n.js';

const $ = (id) => document.getElementById(id);
const PER_PAGE = 20;
let page = 1;
let player = '';

function when(time) {
  if (!time) return '';
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? time : d.toLocaleString(lang());

}

async function load() {
  $('games-status').textContent = t('page.loading');
  try {
    const res = await api.listGames({ page, perPage: PER_PAGE, player });
    fill($('game-rows'), ...res.games.map((g) => {
      const winner = g.result && g.result.winner !== null && g.result.winner !== undefined ? g.seats[g.result.winner].name : '—';
      return el('tr', { 'data-game': g.id },
        el('td', {}, when(g.finished || g.created)),
        el('td', {}, g.seats.map((s) => s.name + (s.bot ? t('games.bot') : '')).join(', ')),
        el('td', {}, winner),
        el('td', {}, g.result ? String(g.result.turns) : ''),
        el('td', {}, el('a', { class: 'button', href: `replay.html?game=${g.id}` }, t('games.replay'))));
    }));
    const pages = Math.max(1, Math.ceil(res.total / PER_PAGE));
    $('games-status').textContent = res.total ? tn('games.count', res.total) : t('games.none');
    $('page-no').textContent = t('games.page', { page, pages });
    $('prev-page').disabled = page <= 1;
    $('next-page').disabled = page >= pages;
  } catch (e) {
    $('games-status').textContent = e.status === 404 ? t('games.notListed') : t('games.cannot', { error: plainError(e) });
  }
}

translatePage();
languagePicker($('lang'));
$('filter-form').addEventListener('submit', (ev) => {

  ev.preventDefault();
  player = $('player-filter').value.trim();
  page = 1;
  load();
});
$('prev-page').addEventListener('click', () => { page -= 1; load(); });
$('next-page').addEventListener('click', () => { page += 1; load(); });
load();
