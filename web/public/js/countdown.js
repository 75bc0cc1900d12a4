// The turn timer, visible (issue 11, item 6): with the lobby's timer on,
// how long each player the game waits for has left for the current step,
// counting down once a second, with a warning in the last 10 seconds.
// The server restarts a step's clock at every action, so the page does the
// same whenever the game's version changes (after a reload it counts from
// the snapshot: at worst it shows a little more time than is left).

import { el, fill } from './util.js';
import { t } from './i18n.js';

/** Seconds left below which the timer warns. */
export const WARN_SECONDS = 10;

/** The seats the game waits for now: those owing discards, else the active one. */
export function awaited(view) {
  if (view.phase === 'finished') return [];
  if (view.phase === 'discard') return view.discards_owed.map((n, s) => (n ? s : null)).filter((s) => s !== null);
  return [view.active];
}

function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A countdown drawn into `root`; `tick()` redraws it, `restart(version)` starts a new step. */
export class Countdown {
  constructor(root) {
    this.root = root;
    this.version = null;
    this.since = 0;
    this.state = null;
    setInterval(() => this.tick(), 1000);
  }

  /** What to count for: `{ timer, view, version, seat, name }` (or null to hide). */
  update(state) {
    this.state = state;
    if (state && state.version !== this.version) {
      this.version = state.version;
      this.since = performance.now();
    }
    this.tick();
  }

  tick() {
    const st = this.state;
    const seats = st && st.timer && st.timer.enabled ? awaited(st.view) : [];
    this.root.hidden = !seats.length;
    if (!seats.length) {
      fill(this.root);
      return;
    }
    const left = st.timer.seconds - (performance.now() - this.since) / 1000;
    const warn = left <= WARN_SECONDS;
    this.root.className = `turn-timer${warn ? ' warn' : ''}`;
    this.root.dataset.seconds = String(Math.max(0, Math.ceil(left)));
    const who = seats.map((s) => (s === st.seat ? t('timer.you') : st.name(s))).join(', ');
    const [before, after] = t('timer.left', { who }).split('{time}');
    fill(this.root, before, el('strong', { class: 'time' }, clock(left)), after,
      warn && seats.includes(st.seat) ? el('span', { class: 'hurry' }, t('timer.hurry')) : null);
  }
}
