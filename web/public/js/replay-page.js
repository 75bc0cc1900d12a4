// The replay page (`replay.html?game=ID&step=N`): a finished game's board
// at any step, every hand revealed (R48: a finished game may be shown in
// full), with first / previous / next / last, a slider, arrow keys, and a
// link to the current step. Views come from the server, which replays the
// record with the rules engine; this page never re-implements the rules.

import * as api from './api.js';
import { renderBoard } from './board.js';
import { renderPlayers, renderDice } from './table.js';
import { actionWords, describe, newStats, tally } from './events.js';
import { diceChart } from './charts.js';
import { summary } from './summary.js';
import { el, fill, plainError } from './util.js';
import { languagePicker, t, translatePage } from './i18n.js';

const CHUNK = 100;
const params = new URLSearchParams(location.search);
const gameId = params.get('game');
const $ = (id) => document.getElementById(id);

/** What the page holds: the record, the steps loaded so far, the current step. */
const R = { record: null, total: 0, steps: [], step: 0, loading: new Map() };

function name(seat) {
  if (seat === null || seat === undefined) return t('name.nobody');
  const s = R.record && R.record.seats[seat];
  return (s && s.name) || t('name.seat', { n: seat + 1 });
}

function showError(text) {
  const box = $('error-box');
  box.hidden = !text;
  if (text) fill(box, text);
}

function loadChunk(from) {
  const start = Math.floor(from / CHUNK) * CHUNK;
  if (!R.loading.has(start)) {
    const to = Math.min(start + CHUNK - 1, R.total);
    R.loading.set(start, api.getSteps(gameId, start, to).then((res) => {
      for (const s of res.steps) R.steps[s.step] = s;
    }).catch((e) => {
      R.loading.delete(start);
      throw e;
    }));
  }
  return R.loading.get(start);
}

async function show(n) {
  const step = Math.max(0, Math.min(R.total, Number.isFinite(n) ? n : 0));
  R.step = step;
  if (!R.steps[step]) {
    $('status-line').textContent = t('page.loading');
    try {
      await loadChunk(step);
    } catch (e) {
      showError(e.status === 404 ? t('replay.noSteps') : t('replay.cannotStep', { step, error: plainError(e) }));
      return;
    }
    $('status-line').textContent = '';
    if (R.step !== step) return;
    if (!R.steps[step]) {
      showError(t('replay.missingStep', { step }));
      return;
    }
  }
  draw();
}

function actionText(step) {
  const s = R.steps[step];
  if (step === 0) return t('replay.before');
  const lines = s.events.map((e) => describe(e, name, words(s))).filter(Boolean);
  return lines.length ? lines.join(' ') : actionWords(s.action && s.action.action, name(s.action && s.action.seat))
;
}

/** Who made each offer, from the steps loaded so far (answers name offers by id). */
function maker(id) {
  for (const st of R.steps) {
    if (!st) continue;
    for (const e of st.events) if (e.type === 'trade_offered' && e.offer.id === id) return e.offer.maker;
  }
  return null;
}

/** What `describe` needs to name hexes and offers at a step. */
function words(step) {
  return { board: step.view.board, maker };
}

function draw() {
  const s = R.steps[R.step];
  const view = s.view;
  document.body.dataset.step = String(R.step);
  $('slider').max = String(R.total);
  $('slider').value = String(R.step);
  $('step-no').textContent = t('replay.stepOf', { step: R.step, total: R.total });
  const link = `replay.html?game=${gameId}&step=${R.step}`;
  $('step-link').href = link;
  history.replaceState(null, '', link);
  $('first').disabled = $('prev').disabled = R.step === 0;
  $('next').disabled = $('last').disabled = R.step === R.total;
  $('step-text').textContent = actionText(R.step);
  renderBoard($('board'), view);
  renderDice($('dice'), view.dice, false);
  renderPlayers($('players'), { view, name, seat: null, presence: null });
  const from = Math.max(1, R.step - 25);
  const lines = [];
  for (let i = R.step; i >= from && R.steps[i]; i--) {
    for (const e of [...R.steps[i].events].reverse()) {
      const t = describe(e, name, words(R.steps[i]));
      if (t) lines.push(el('li', { value: i, class: i === R.step ? 'current' : '' }, t));
    }
  }
  fill($('log-list'), ...lines);
  fill($('dice-chart'), diceChart(view.dice_counts));
  drawSummary();
}

/** At the last step, with every step loaded: the end-of-game summary. */
function drawSummary(loaded = false) {
  const box = $('summary');
  const atEnd = R.step === R.total;
  box.hidden = !atEnd;
  if (!atEnd || box.dataset.done) return;
  // Not `every`: it skips the holes of steps not loaded yet.
  let missing = -1;
  for (let i = R.total; i >= 0; i--) if (!R.steps[i]) missing = i;
  if (missing >= 0) {
    // Every chunk was asked for once already and a step is still missing:
    // say so instead of asking again forever.
    if (loaded) {
      showError(t('replay.missingSummary', { step: missing }));
      return;
    }
    fill(box, el('p', { class: 'hint' }, t('replay.loadingAll')));
    Promise.all(Array.from({ length: Math.ceil((R.total + 1) / CHUNK) }, (_, i) => loadChunk(i * CHUNK)))
      .then(() => drawSummary(true), (e) => showError(t('replay.cannotGame', { error: plainError(e) })));
    return;
  }
  const final = R.steps[R.total].view;
  const stats = newStats(final.players.length);
  for (const s of R.steps) for (const e of s.events) tally(stats, e);
  box.dataset.done = '1';
  fill(box, summary(final, stats, name));
}

function onKey(ev) {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== 'range') return;
  if (ev.target === $('slider')) return; // the slider handles its own arrows
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  const d = moves[ev.key];
  show(d === -Infinity ? 0 : d === Infinity ? R.total : R.step + d);
}

async function main() {
  translatePage();
  languagePicker($('lang'));
  if (!gameId) {
    showError(t('replay.noGame'));
    return;
  }
  try {
    R.record = await api.getGame(gameId);
  } catch (e) {
    showError(e.status === 404 ? t('replay.notSaved') : t('replay.cannotGame', { error: plainError(e) }));
    return;
  }
  if (R.record.status === 'in_progress') {
    // A live game has no replay yet: its link leads to watching it.
    showError(t('replay.live'));
    location.replace(`game.html?id=${encodeURIComponent(gameId)}`);
    return;
  }
  R.total = R.record.actions.length;
  $('replay-title').textContent = t('replay.title', { names: R.record.seats.map((s) => s.name).join(', ') });
  $('first').addEventListener('click', () => show(0));
  $('prev').addEventListener('click', () => show(R.step - 1));
  $('next').addEventListener('click', () => show(R.step + 1));
  $('last').addEventListener('click', () => show(R.total));
  $('slider').addEventListener('input', () => show(Number($('slider').value)));
  document.addEventListener('keydown', onKey);
  const raw = params.get('step');
  let wanted = 0;
  if (raw !== null) {
    if (/^\d+$/.test(raw.trim()) && Number(raw) <= R.total) wanted = Number(raw);
    else showError(t('replay.badStep', { raw: raw.slice(0, 20), total: R.total }));

  }
  await show(wanted);
}

main();
