// The lobby page (`game.html?id=LOBBY`): the waiting room until the game
// starts, then the game table, for a seated player or a spectator. It owns
// the page state, the socket, and re-renders after every server message.

import * as api from './api.js';
import * as prefs from './prefs.js';
import { GameSocket } from './socket.js';
import { renderBoard } from './board.js';
import { focusedSeatButton, refocusSeat, renderRoom } from './room.js';
import { bannerText, renderBanner, renderPlayers, renderMe, renderDice, badge } from './table.js';
import { boardTargets, freshUi, onBoardTarget, renderControls } from './controls.js';
import { freshTrade, renderOffers, renderTrade } from './trade.js';
import { describe, newStats, tally } from './events.js';
import { diceChart } from './charts.js';
import { summary } from './summary.js';
import { announceTurn, chime, sound } from './notify.js';
import { Countdown } from './countdown.js';
import { flashing, freshFeedback, gainText, noteEvents, renderRollGains, toast } from './feedback.js';
import { el, viewerSeat, fill, plainError, sameJson } from './util.js';
import { languagePicker, t, translatePage } from './i18n.js';

const params = new URLSearchParams(location.search);
const lobbyId = params.get('id');
const $ = (id) => document.getElementById(id);

/** Everything the page knows. */
const S = {
  lobby: null, you: null, version: 0, view: null, legal: [], over: null, presence: null,
  stats: null, ui: freshUi(), trade: freshTrade(), busy: false, error: null, rolled: false,
  // The turn whose roll has had focus moved to Roll dice (once a turn).
  rollFocusTurn: null,
  logCount: 0, joinedAtVersion: null, connection: 'connecting', pendingHistory: null, stepLeft: null,

  // What the waiting room's inputs hold between re-renders.
  room: { name: null, botKind: null },
  // The waiting room's seat button that had focus when a re-render took it
  // (disabled while the server answers): focus goes back after the reply.
  roomFocus: null,
  // The phone layout's open panel, and the offer answers already sent.
  tab: 'play', tabOpened: false, sent: new Set(), refocusAfter: null,
  // Who made each offer seen (answers name the offer by id only), and the
  // counter-offers seen ({ id, maker }): an offer's card still says who
  // countered it after the counter-offer closed.
  makers: new Map(), counters: [],
  // What just happened, for highlights and toasts (feedback.js).
  fb: freshFeedback(),
  // Every update this page was sent (bounded), kept only when the server
  // allows the test hooks: what the browser tests inspect for redaction.
  history: null,
  perf: null,
};

/** The browser tests' hooks (`GET /api/config` says whether they may run). */
function enableTestHooks() {
  S.history = [];
  // Redraw timings for the benchmark (tests/redraw.bench.spec.js), in ms.
  S.perf = { draw: [], frame: [], arrival: [], pending: [], part: {}, parts: {} };
  // `send` reaches the server's own test hooks (`test_bot_offer`);
  // `socket` is the open WebSocket (to send what the page never would).
  window.catan = { get state() { return S; }, act: (a) => act(a), send: (m) => socket.request(m), socket: () => socket.ws };

}

let socket = null;
let countdown = null;
/** Whether the actions panel is scrolled away from its first row. */
let controlsScrolled = false;

function mySeat() {
  return viewerSeat(S.you);
}

function name(seat) {
  if (seat === null || seat === undefined) return t('name.nobody');
  const s = S.lobby && S.lobby.seats[seat];
  return (s && s.name) || t('name.seat', { n: seat + 1 });
}

function showError(message) {
  S.error = message;
  render();
}

function connect() {
  if (socket) socket.close();
  const mine = prefs.getSeat(lobbyId);
  socket = new GameSocket(lobbyId, mine ? mine.token : null, { onMessage, onStatus, since: logWholeTo });
  socket.connect();
}

/**
 * The last version whose steps are all in the log (it was built from the
 * start: from a whole history, or live from the first step), or null: a
 * reconnect then asks only for the steps after it.
 */
function logWholeTo() {
  const whole = S.joinedAtVersion !== null && S.joinedAtVersion <= 0;
  return S.view && whole && Number.isInteger(S.version) ? S.version : null;
}

function onStatus(st) {
  S.connection = st.state;
  const banner = $('conn-banner');
  if (st.state === 'open') {
    if (!banner.hidden) announce(t('conn.again'));
    banner.hidden = true;
    return;
  }
  if (banner.hidden) announce(t('conn.lost'));
  banner.hidden = false;
  if (st.state === 'connecting') {
    fill(banner, st.attempt ? t('conn.reconnecting', { n: st.attempt }) : t('conn.connecting'));
  } else if (st.state === 'retrying') {
    fill(banner, t('conn.retrying', { reason: st.reason, s: Math.round(st.delay / 100) / 10 }), ' ',
      el('button', { type: 'button', id: 'retry-now', onclick: () => socket.retryNow() }, t('conn.retryNow')));
  } else if (st.state === 'final') {
    fill(banner, `${st.message} `, el('button', { type: 'button', onclick: () => connect() }, t('conn.reconnect')));
  }
}

function onMessage(msg) {
  if (S.perf && msg.type === 'update') S.perf.pending.push(performance.now());
  const hadMoves = S.legal.length > 0;
  switch (msg.type) {
    case 'welcome':
      S.you = msg.you;
      break;
    case 'lobby':
      S.lobby = msg.lobby;
      break;
    case 'history':
      // Held until its snapshot: the log is rebuilt with that board.
      S.pendingHistory = msg;
      break;
    case 'snapshot': {
      noteStepTime(msg);
      const had = S.version;
      S.version = msg.version;
      S.view = msg.view;
      S.legal = msg.legal;
      const h = S.pendingHistory;
      S.pendingHistory = null;
      if (h && h.version === msg.version) {
        if (!Number.isInteger(h.since)) restoreLog(h.steps, msg.view);
        else if (h.since === had) appendLog(h.steps, msg.view);
        // Steps after a version this log does not end at: ask for the
        // whole history instead of leaving a gap.
        else socket.resync().catch(() => {});
      }
      if (!S.stats) S.stats = newStats(msg.view.players.length);
      if (S.joinedAtVersion === null) S.joinedAtVersion = msg.version;
      break;
    }
    case 'update':
      onUpdate(msg);
      break;
    case 'game_over':
      S.over = msg.view;
      S.version = msg.version;
      break;
    case 'chat':
      addChat(msg);
      break;
    case 'presence':
      S.presence = Object.fromEntries(msg.seats.map((s) => [s.seat, s.connected]));
      break;
    case 'rejected':
      if (msg.code === 'invalid_token' && !msg.id) {
        // The seat is not ours any more (left, or the lobby was recreated): watch instead.
        prefs.setSeat(lobbyId, null);
        setTimeout(connect, 0);
      }
      if (!msg.id) showError(plainError(msg));
      break;
    default:
      break;
  }
  // A finished game's summary is what matters now: the last notes about
  // moves go at once instead of lingering over the board for their seconds.
  if ((S.over || (S.view && S.view.phase === 'finished')) && $('toasts').firstChild) fill($('toasts'));
  // The game now waits for this seat (a new update, or the first snapshot
  // when the game starts with this seat's move): tell a background tab.
  if (!hadMoves && S.legal.length) {
    announceTurn(t('turn.yourMove'));
    announce(t('turn.yourMoveSay', { what: bannerText({ view: S.view, seat: mySeat(), name }) }));
    if (!document.hidden) sound('turn');
  }
  render();
}

/**
 * Rebuilds the log and the tallies from the server's `history` (this
 * viewer's redacted steps since the start): after a reload or reconnect the
 * log and the end-of-game summary are whole again.
 */
function restoreLog(steps, view) {
  fill($('log-list'));
  S.logCount = 0;
  S.stats = newStats(view.players.length);
  S.makers = new Map();
  S.counters = [];
  for (const st of steps) logStep(st, view.board);
  S.joinedAtVersion = 0;
  if (S.history) {
    const last = S.history.length ? S.history[S.history.length - 1].version : -1;
    for (const st of steps) if (st.version > last) S.history.push({ ...st, restored: true });
  }
}

/**
 * Adds the steps a reconnect missed (the server's `history` after the
 * version this log ends at) to the log and the tallies.
 */
function appendLog(steps, view) {
  for (const st of steps) logStep(st, view.board);
  if (S.history) for (const st of steps) S.history.push({ ...st, restored: true });
}

/** Tallies one step's events and adds their sentences to the log. */
function logStep(msg, board) {
  const maker = (id) => S.makers.get(id);
  // The stand-in's step reads as what it was, not as the player's own.
  if (msg.stand_in && msg.seat !== null) addLog(t('log.standIn', { who: name(msg.seat) }), 'stand_in');
  for (const ev of msg.events) {
    tally(S.stats, ev);
    if (ev.type === 'trade_offered') S.makers.set(ev.offer.id, ev.offer.maker);
    if (ev.type === 'trade_offered' && ev.offer.counter) {
      S.counters.push({ id: ev.offer.id, maker: ev.offer.maker });
      if (S.counters.length > 500) S.counters.shift();
    }
    const line = describe(ev, name, { board, maker, standIn: !!msg.stand_in });
    if (line) addLog(line, ev.type);
  }
}

/** Keeps the server's time left for the step, with when it arrived. */
function noteStepTime(msg) {
  S.stepLeft = typeof msg.step_time_left_ms === 'number' ? { ms: msg.step_time_left_ms, at: performance.now() } : null;
}

function onUpdate(msg) {
  noteStepTime(msg);
  const before = S.view;
  if (!S.stats) S.stats = newStats(msg.view.players.length);
  if (S.joinedAtVersion === null) S.joinedAtVersion = msg.version - 1;
  logStep(msg, msg.view.board);
  for (const text of noteEvents(S.fb, msg.events, msg.view, mySeat(), name)) toast($('toasts'), text);
  // The page's one live region reads each update's sentences once.
  const said = msg.events.map((ev) => describe(ev, name, { board: msg.view.board, maker: (id) => S.makers.get(id), standIn: !!msg.stand_in })).filter(Boolean);
  if (said.length) announce(said.join(' '));
  // Take the highlights down when they expire (nothing waits for them).
  if (flashing(S.fb)) setTimeout(render, S.fb.until - performance.now() + 20);
  if (msg.seat !== null && msg.seat === mySeat()) {
    if (msg.events.some((e) => e.type === 'dice_rolled')) sound('roll');
    else if (msg.events.some((e) => /_built$/.test(e.type))) sound('build');
  }
  for (const ev of msg.events) {
    if (ev.type === 'dice_rolled') S.rolled = true;
    if (ev.type === 'trade_offered' && mySeat() !== null && ev.offer.maker !== mySeat() && ev.offer.to.includes(mySeat())) {
      chime();
      announceTurn(t('offer.toYouTitle', { who: name(ev.offer.maker) }));
    }
  }
  if (S.history) {
    S.history.push({ version: msg.version, seat: msg.seat, events: msg.events, view: msg.view });
    if (S.history.length > 2000) S.history.shift();
  }
  S.version = msg.version;
  S.view = msg.view;
  S.legal = msg.legal;
  if (!before || before.active !== msg.view.active || before.phase !== msg.view.phase) S.ui = freshUi();
}

function addLog(text, type) {
  const list = $('log-list');
  const line = el('li', { class: `log-${type}` }, text);
  list.append(line);
  S.logCount += 1;
  while (list.children.length > 300) list.firstChild.remove();
  // Scrolled to its end once the line is laid out: reading the list's
  // height here (or in a redraw, after its writes) laid the whole page out
  // an extra time per line; a ResizeObserver is called after the frame's
  // own layout.
  logEnd.observe(line);
}

/** Scrolls the log to its end after new lines were laid out. */
const logEnd = new ResizeObserver((entries) => {
  for (const e of entries) logEnd.unobserve(e.target);
  const list = $('log-list');
  list.scrollTop = list.scrollHeight;
});

/**
 * Says `text` once through the page's one polite live region. What is said
 * in one turn of the event loop goes out as one message (a later write in
 * the same tick would otherwise replace an earlier one unread).
 */
const spoken = { lines: [], timer: 0 };
function announce(text) {
  spoken.lines.push(text);
  if (spoken.timer) return;
  spoken.timer = setTimeout(() => {
    $('announcer').textContent = spoken.lines.join(' ');
    spoken.lines = [];
    spoken.timer = 0;
  }, 0);
}

function addChat(msg) {
  announce(t('chat.says', { who: msg.name, text: msg.text }));
  const list = $('chat-list');
  list.append(el('li', {}, badge(msg.seat), el('strong', {}, `${msg.name}: `), msg.text));
  while (list.children.length > 200) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

/** Sends an action; the reply re-enables the controls. Resolves to whether it was accepted. */
async function act(action) {
  if (!action || S.busy || !socket) return false;
  S.busy = true;
  S.error = null;
  render();
  try {
    // One automatic retry when the game moved on meanwhile (a bot answered
    // the same offer, say) and the action is still allowed: the person
    // meant it, and "try again" would only make them click twice.
    for (let attempt = 0; ; attempt++) {
      const at = S.version;
      try {
        await socket.action(action, at);
        S.ui = freshUi();
        // The reply may come before or after the update it caused: move
        // focus on once the table shows a version after this action.
        S.refocusAfter = at;
        return true;
      } catch (e) {
        if (e.code !== 'stale_version' || attempt > 0) throw e;
        await newerThan(at);
        if (!S.legal.some((a) => sameJson(a, action))) throw e;
      }
    }
  } catch (e) {
    S.error = plainError(e);
    return false;
  } finally {
    S.busy = false;
    render();
  }
}

/** Resolves once the page holds a version after `v` (or after 2 s). */
function newerThan(v) {
  return new Promise((resolve) => {
    const start = performance.now();
    const check = () => (S.version > v || performance.now() - start > 2000 ? resolve() : setTimeout(check, 20));
    check();
  });
}

const roomActions = {
  async join(rawName, seat) {
    const nm = (rawName || '').trim();
    if (!nm) return showError(t('room.nameFirst'));
    prefs.setName(nm);
    await hostCall(async () => {
      const r = await api.joinLobby(lobbyId, nm, seat);
      prefs.setSeat(lobbyId, { seat: r.seat, token: r.token });
      S.lobby = r.lobby;
      connect();
    });
  },
  async leave() {
    const mine = prefs.getSeat(lobbyId);
    await hostCall(async () => {
      if (mine) S.lobby = (await api.leaveLobby(lobbyId, mine.token)).lobby;
      prefs.setSeat(lobbyId, null);
      S.you = null;
      connect();
    });
  },
  addBot: (seat) => hostCall(async () => { S.lobby = (await api.addBot(lobbyId, prefs.getHost(lobbyId), S.room.botKind || 'normal', seat)).lobby; }),
  removeBot: (seat) => hostCall(async () => { S.lobby = (await api.removeBot(lobbyId, prefs.getHost(lobbyId), seat)).lobby; }),
  start: () => hostCall(async () => { S.lobby = (await api.startGame(lobbyId, prefs.getHost(lobbyId))).lobby; }),
  async copy(link) {
    try {
      await navigator.clipboard.writeText(link);
      $('status-line').textContent = t('room.copied');
      announce(t('room.copied'));
    } catch {
      $('invite-link').select();
      $('status-line').textContent = t('room.copyByHand');
    }
  },
};

async function hostCall(fn) {
  S.busy = true;
  S.error = null;
  render();
  try {
    await fn();
  } catch (e) {
    S.error = plainError(e);
  } finally {
    S.busy = false;
    render();
  }
}

/**
 * A press (mouse, touch or pen, or Space or Enter on a control) not yet
 * released. A redraw replaces the controls' elements, and one that lands
 * between a press and its release makes the browser drop the click (press
 * and release on different elements): the composer then lost a "+" under
 * load (tests/counter.spec.js), and a button pressed with Space, which
 * clicks when the key comes up, lost its click (tests/keyboard.spec.js).
 * So redraws wait for the release (and the click after it), or at most
 * PRESS_HOLD_MS for a release that never comes here.
 */
const press = { down: false, held: false, timer: 0 };
const PRESS_HOLD_MS = 1000;

function pressStarted(hold = PRESS_HOLD_MS) {
  press.down = true;
  clearTimeout(press.timer);
  press.timer = setTimeout(pressEnded, hold);
}

function pressEnded() {
  clearTimeout(press.timer);
  if (!press.down) return;
  press.down = false;
  // After this event's click (dispatched in the same task), not before it.
  if (press.held) setTimeout(() => { press.held = false; render(); }, 0);
}

document.addEventListener('pointerdown', () => pressStarted(), true);
document.addEventListener('pointerup', pressEnded, true);
document.addEventListener('pointercancel', pressEnded, true);

/** Keys that press a control; text fields are not held (typing redraws nothing there). */
const PRESS_KEYS = new Set([' ', 'Enter']);
/**
 * A key's release always reaches the page unless the window loses focus
 * (handled below), so a key press is held until its keyup: the time limit
 * only guards against a keyup lost some other way. (A second's limit let a
 * redraw through while a slow machine still held the key.)
 */
const KEY_HOLD_MS = 10_000;
window.addEventListener('blur', pressEnded);
const pressable = (node) => node instanceof Element && !node.matches('input:not([type=checkbox]):not([type=radio]), textarea, select');
document.addEventListener('keydown', (ev) => {
  if (PRESS_KEYS.has(ev.key) && !ev.repeat && pressable(ev.target)) pressStarted(KEY_HOLD_MS);
}, true);
document.addEventListener('keyup', (ev) => {
  if (PRESS_KEYS.has(ev.key)) pressEnded();
}, true);

let frame = 0;
function render() {
  if (press.down) {
    press.held = true;
    return;
  }
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    if (press.down) {
      press.held = true;
      return;
    }
    const t0 = performance.now();
    draw();
    if (S.perf && S.view) {
      const t1 = performance.now();
      // The style and layout the redraw caused, which the browser would
      // do after this callback anyway: forced here to be measured.
      void document.body.offsetHeight;
      measure(t0, t1, performance.now());
    }
  });
}

/**
 * A selector for "the same" control in a rebuilt section: its id, or its
 * tag, first class and identifying data attributes (inside the offer it
 * belongs to). Every value goes through CSS.escape: ids and labels are data.
 */
function focusSelector(a) {
  if (a.id) return `#${CSS.escape(a.id)}`;
  let sel = a.tagName.toLowerCase();
  if (a.classList.length) sel += `.${CSS.escape(a.classList[0])}`;
  for (const k of ['action', 'seat', 'resource', 'key']) {
    if (a.dataset[k] !== undefined) sel += `[data-${k}="${CSS.escape(a.dataset[k])}"]`;
  }
  const label = a.getAttribute('aria-label');
  if (label) sel += `[aria-label="${CSS.escape(label)}"]`;
  const offer = a.closest('[data-offer]');
  return offer ? `[data-offer="${CSS.escape(offer.dataset.offer)}"] ${sel}` : sel;
}

/**
 * Keeps one redraw's cost (its script, and with the style and layout it
 * caused) and each update's arrival-to-drawn time (bounded).
 */
function measure(start, end, laidOut) {
  const p = S.perf;
  if (!p.pending.length) {
    p.part = {};
    return;
  }
  p.draw.push(end - start);
  p.frame.push(laidOut - start);
  for (const t of p.pending) p.arrival.push(laidOut - t);
  p.pending = [];
  for (const [k, v] of Object.entries(p.part)) (p.parts[k] ||= []).push(v);
  p.part = {};
  for (const xs of [p.draw, p.frame, p.arrival, ...Object.values(p.parts)]) if (xs.length > 5000) xs.splice(0, xs.length - 5000);
}

/** Runs one part of a redraw, timing it for the benchmark (test hooks only). */
function timed(part, fn) {
  if (!S.perf) return fn();
  const t0 = performance.now();
  const r = fn();
  S.perf.part[part] = (S.perf.part[part] || 0) + performance.now() - t0;
  return r;
}

/** Restores focus (and the caret of a text field) after a section is rebuilt. */
function keepFocus(root, fn) {
  const a = document.activeElement;
  const sel = a && a !== root && root.contains(a) ? focusSelector(a) : null;
  const caret = sel && typeof a.selectionStart === 'number' ? [a.selectionStart, a.selectionEnd] : null;
  fn();
  if (!sel) return;
  const b = root.querySelector(sel);
  if (!b) return;
  b.focus();
  if (caret && typeof b.setSelectionRange === 'function') b.setSelectionRange(caret[0], caret[1]);
}

function draw() {
  const err = $('error-box');
  err.hidden = !S.error;
  if (S.error) fill(err, el('span', {}, S.error), ' ', el('button', { type: 'button', onclick: () => { S.error = null; render(); } }, t('page.dismiss')));
  if (!S.lobby) return;
  setData('status', S.lobby.status);
  if (!S.view) {
    $('room').hidden = false;
    $('table').hidden = true;
    const mine = prefs.getSeat(lobbyId);
    const room = $('room');
    // A seat's button keeps focus on that seat; a pressed one that is gone
    // or disabled while the server answers hands focus on (room.js).
    const held = focusedSeatButton(room) || S.roomFocus;
    S.roomFocus = null;
    keepFocus(room, () => {
      renderRoom(room, { lobby: S.lobby, seat: mine ? mine.seat : null, isHost: !!prefs.getHost(lobbyId), busy: S.busy, draft: S.room }, roomActions);
    });
    const now = document.activeElement;
    if (held && (!now || now === document.body) && !refocusSeat(room, held)) S.roomFocus = held;
    return;
  }
  $('room').hidden = true;
  $('table').hidden = false;
  const seat = mySeat();
  const ctx = {
    view: S.view, legal: S.legal, seat, name, ui: S.ui, trade: S.trade, busy: S.busy, presence: S.presence,
    spectating: seat === null, act,
    kind: (s) => (S.lobby.seats[s] ? S.lobby.seats[s].kind : 'empty'),
    setUi: (patch) => { S.ui = { ...S.ui, ...patch }; render(); },
    setTrade: (patch) => { S.trade = { ...S.trade, ...patch }; render(); },
    showTab,
    sent: S.sent,
    counters: S.counters,

    gain: (s) => gainText(S.fb, s, seat),
  };
  setData('phase', S.view.phase);
  setData('myMove', String(S.legal.length > 0));
  // Each panel is rebuilt only when what it shows changed (its inputs as
  // JSON): most updates change one or two of them, and a rebuilt panel
  // costs its nodes' creation, style and layout (docs/PERFORMANCE.md).
  const v = S.view;
  const names = S.lobby.seats.map((s) => [s.name, s.kind]);
  const gains = v.players.map((p) => ctx.gain(p.seat));
  const mine = seat === null ? null : v.players[seat];
  const busy = S.busy;
  timed('banner', () => changed($('banner'), [v.phase, v.active, v.turn, v.discards_owed, v.winner, v.opening_settlement, seat, S.legal.length > 0, names],
    () => renderBanner($('banner'), ctx)));
  timed('timer', () => countdown.update({ timer: S.lobby.turn_timer, view: S.view, version: S.version, seat, name, left: S.stepLeft }));
  timed('board', () => renderBoard($('board'), S.view, {
    targets: boardTargets(ctx), onTarget: (k, id) => onBoardTarget(ctx, k, id), pendingEdges: S.ui.rbEdges,
    producing: flashing(S.fb) ? S.fb.hexes : null, robberMoved: S.fb.robberMoved,
  }));
  S.fb.robberMoved = false;
  renderRollGains($('roll-gains'), S.fb, S.view.players.map((p) => p.seat), seat, name);
  // A new roll is drawn anew (its dice roll in); later redraws leave it be.
  if (S.rolled) $('dice').drawnFrom = null;
  timed('dice', () => changed($('dice'), v.dice, () => renderDice($('dice'), v.dice, S.rolled)));
  S.rolled = false;
  timed('players', () => changed($('players'), [v.players, v.longest_road, v.largest_army, v.active, v.discards_owed, S.presence, names, seat, gains],
    () => renderPlayers($('players'), ctx)));
  timed('me', () => changed($('me'), [mine, v.bank, v.deck_size, seat === null ? null : gains[seat]], () => renderMe($('me'), ctx)));
  const counts = v.players.map((p) => p.resource_count);
  timed('controls', () => changed($('controls'), [seat, v.phase, v.discards_owed, S.legal, S.ui, busy, counts, mine && mine.resources, names],
    () => {
      keepFocus($('controls'), () => renderControls($('controls'), ctx));
      // Rebuilt actions start from their first row (where Roll dice is)
      // unless focus is further down: a panel left scrolled to End turn
      // hid the next turn's first action on a phone.
      if (controlsScrolled && !$('controls').contains(document.activeElement)) $('controls').scrollTop = 0;
    }));
  timed('trade', () => changed($('trade'), [seat, v.phase, v.active, mine && mine.resources, mine && mine.bank_rates,
    S.legal.filter((a) => a.type === 'trade_bank'), S.trade, busy, names],
  () => keepFocus($('trade'), () => renderTrade($('trade'), ctx))));
  timed('offers', () => changed($('offers'), [seat, v.phase, v.offers, S.legal.filter((a) => OFFER_ACTIONS.has(a.type)), busy,
    mine && mine.resources, S.counters, names],
  () => keepFocus($('offers'), () => renderOffers($('offers'), ctx))));
  setData('tab', S.tab);
  if (S.tabOpened) {
    // A list scrolled to its end while its panel was hidden stayed at the
    // top: the panel opens on the latest lines.
    S.tabOpened = false;
    for (const list of [$('log-list'), $('chat-list')]) list.scrollTop = list.scrollHeight;
  }
  for (const b of document.querySelectorAll('.tabs [role=tab]')) {
    const sel = String(b.dataset.tab === S.tab);
    if (b.getAttribute('aria-selected') !== sel) b.setAttribute('aria-selected', sel);
  }
  timed('chart', () => changed($('dice-chart'), v.dice_counts, () => fill($('dice-chart'), diceChart(v.dice_counts))));
  $('chat-form').hidden = seat === null;
  const over = S.over || (S.view.phase === 'finished' ? S.view : null);
  $('summary').hidden = !over;
  if (over && !$('summary').dataset.version) {
    $('summary').dataset.version = String(S.version);
    const winner = over.winner;
    // The celebration is the summary's heading: who won is said once.
    const cheer = winner === null || winner === undefined ? null
      : el('h2', { class: 'celebration' }, el('span', { class: 'confetti', 'aria-hidden': 'true' }, '★'),
        ` ${winner === seat ? t('win.you') : t('win.other', { who: name(winner) })} `, el('span', { class: 'confetti', 'aria-hidden': 'true' }, '★'));
    if (winner !== null && winner !== undefined && winner === seat) sound('win');
    fill($('summary'), summary(over, S.stats || newStats(over.players.length), name, { partial: S.joinedAtVersion > 0, heading: cheer }),
      el('p', {}, el('a', { href: `replay.html?game=${lobbyId}`, id: 'open-replay', class: 'button' }, t('win.replay'))));
  }
  focusRollOnce(seat);
  if (S.refocusAfter !== null && S.version > S.refocusAfter) moveFocusOn();
  if (autoplay) autoplay(S, act);
}

/** The actions an offer's card offers. */
const OFFER_ACTIONS = new Set(['accept_trade', 'decline_trade', 'cancel_trade', 'confirm_trade']);

/**
 * Runs `render` when `inputs` differ (as JSON) from the last time for
 * `root`: a panel whose inputs are unchanged keeps its elements, so that
 * focus, hover and animations stay, and the redraw costs nothing there.
 */
function changed(root, inputs, render) {
  const key = JSON.stringify(inputs);
  if (root.drawnFrom === key) return;
  root.drawnFrom = key;
  render();
}

/** Sets a data attribute of the page's body when it changes (the CSS reads them: a write restyles). */
function setData(k, value) {
  if (document.body.dataset[k] !== value) document.body.dataset[k] = value;
}

/**
 * After an action whose control is gone (a board spot, a victim, an offer's
 * button), focus moves to the next sensible control instead of falling back
 * to the page: a board spot if the game asks for one, else Roll or End turn.
 */
function moveFocusOn() {
  S.refocusAfter = null;
  const a = document.activeElement;
  if (a && a !== document.body && document.contains(a)) return;
  const next = document.querySelector('#board .target[tabindex="0"]')
    || document.querySelector('#roll:not([disabled])')
    || document.querySelector('#offers button:not([disabled])')
    || document.querySelector('#end-turn:not([disabled])')
    || $('banner');
  if (next === $('banner')) next.setAttribute('tabindex', '-1');
  next.focus();
}

/** Where focus is left alone when a turn comes: the person is typing or choosing there. */
const TYPING = 'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, select, [contenteditable]:not([contenteditable="false"])';

/**
 * When this seat's roll comes (its turn starts), focus moves to Roll dice,
 * once a turn, right after the redraw that drew the enabled button (so no
 * later redraw replaces it: the controls keep their elements until their
 * inputs change, and a rebuild keeps focus on the same control). Focus in
 * a text field or menu stays there, and so does focus in another tab of
 * the phone layout. A button not drawn or still disabled (a press held back
 * the redraw, an action awaits its reply) is tried at the next redraw.
 */
function focusRollOnce(seat) {
  const v = S.view;
  if (seat === null || v.active !== seat || v.phase !== 'pre_roll') return;
  if (S.rollFocusTurn === v.turn) return;
  const roll = $('roll');
  if (!roll || roll.disabled) return;
  S.rollFocusTurn = v.turn;
  // On a phone showing another tab, focus is not pulled there.
  if (!roll.checkVisibility()) return;
  const a = document.activeElement;
  if (a && a !== roll && a.matches(TYPING)) return;
  roll.focus();
}

/** The board's zoom steps (the zoom control on touch screens and phones). */
const ZOOMS = [1, 1.5, 2, 3];
let zoom = 1;

/**
 * Scales the board inside its frame by `z`, keeping the middle of what
 * shows in the middle; zoomed, the frame scrolls (a finger drags the
 * board). Only the drawing grows: its spots stay the same board buttons.
 */
function setZoom(z) {
  const box = $('board-scroll');
  const mid = [(box.scrollLeft + box.clientWidth / 2) / box.scrollWidth, (box.scrollTop + box.clientHeight / 2) / box.scrollHeight];
  zoom = z;
  box.style.setProperty('--zoom', String(z));
  box.toggleAttribute('data-zoomed', z > 1);
  box.scrollLeft = mid[0] * box.scrollWidth - box.clientWidth / 2;
  box.scrollTop = mid[1] * box.scrollHeight - box.clientHeight / 2;
  $('zoom-in').disabled = z >= ZOOMS[ZOOMS.length - 1];
  $('zoom-out').disabled = z <= 1;
  $('zoom-reset').disabled = z <= 1;
  // A pressed button now disabled (at either end) hands focus to one that is not.
  if (document.activeElement && document.activeElement.disabled) $(z > 1 ? 'zoom-out' : 'zoom-in').focus();
}

/** Opens one panel of the phone layout (all panels show on wide screens). */
function showTab(tab) {
  S.tabOpened = S.tab !== tab;
  S.tab = tab;
  render();
}

function setup() {
  translatePage();
  languagePicker($('lang'));
  countdown = new Countdown($('turn-timer'));
  if (!lobbyId) {
    fill($('room'), el('p', {}, t('page.noLobby')), el('a', { href: '/' }, t('page.back')));
    return;
  }
  $('chat-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const input = $('chat-input');
    const text = input.value.trim();
    if (!text) return;
    try {
      await socket.chat(text);
      input.value = '';
    } catch (e) {
      showError(plainError(e));
    }
  });
  for (const b of document.querySelectorAll('.tabs [role=tab]')) b.addEventListener('click', () => showTab(b.dataset.tab));
  $('zoom-in').addEventListener('click', () => setZoom(ZOOMS[Math.min(ZOOMS.indexOf(zoom) + 1, ZOOMS.length - 1)]));
  $('zoom-out').addEventListener('click', () => setZoom(ZOOMS[Math.max(ZOOMS.indexOf(zoom) - 1, 0)]));
  $('zoom-reset').addEventListener('click', () => setZoom(1));
  // Known without reading layout during a redraw.
  $('controls').addEventListener('scroll', (ev) => { controlsScrolled = ev.target.scrollTop > 0; }, { passive: true });
  const sound = $('sound');
  sound.checked = prefs.getSound();
  sound.addEventListener('change', () => prefs.setSound(sound.checked));
  api.getLobby(lobbyId).then((lobby) => {
    S.lobby = lobby;
    render();
    connect();
  }, (e) => {
    fill($('room'), el('p', { role: 'alert' }, t('page.cannotOpen', { error: plainError(e) })), el('a', { href: '/' }, t('page.back')));

  });
}

/** The tests' autoplay (`?autoplay=1`, only with the test hooks). */
let autoplay = null;

async function main() {
  // Without an answer the page runs as in production: no hooks.
  const config = await api.getConfig().catch(() => ({ test_hooks: false }));
  if (config && config.test_hooks === true) {
    enableTestHooks();
    if (params.get('autoplay') === '1') autoplay = (await import('./autoplay.js')).autoplay;
  }
  setup();
}

main();
