// The turn timer, visible (issue 11, item 6): with the lobby's timer on,
// how long each player the game waits for has left for the current step,
// counting down once a second, with a warning in the last 10 seconds.
// The server says how long the step has left (`step_time_left_ms`, a
// duration, so the two clocks need not agree) in every snapshot and
// update; the page counts down from the moment that message arrived, so a
// reload carries on where the countdown was instead of starting over.

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

/** A countdown drawn into `root`; `tick()` redraws it once a second. */
export class Countdown {
  constructor(root) {
    this.root = root;
    this.version = null;
    this.left = null;

    // The step's end on this page's clock (performance.now() ms).
    this.ends = 0;
    this.state = null;
    setInterval(() => this.tick(), 1000);
  }

  /**
   * What to count for: `{ timer, view, version, seat, name, left }` (or
   * null to hide), where `left` is `{ ms, at }`: the server's time left for
   * the step and when its message arrived (performance.now()).
   */
  update(state) {
    this.state = state;
    const left = state ? state.left : null;
    if (left && left !== this.left) {
      // A new figure from the server (a snapshot or an update).
      this.left = left;
      this.version = state.version;
      this.ends = left.at + left.ms;
    } else if (state && !left && state.version !== this.version) {
      // Without the server's figure, the step counts from now.
      this.version = state.version;
      this.ends = performance.now() + (state.timer ? state.timer.seconds * 1000 : 0);
    }
    this.tick();
  }

  tick() {
    const st = this.state;
    const seats = st && st.timer && st.timer.enabled ? awaited(st.view) : [];
    const left = (this.ends - performance.now()) / 1000;
    const warn = left <= WARN_SECONDS;
    const who = seats.map((s) => (s === st.seat ? t('timer.you') : st.name(s))).join(', ');
    // Redrawn only when what it says changes (every page redraw calls this).
    const key = seats.length ? `${Math.max(0, Math.ceil(left))}|${warn}|${who}|${seats.includes(st.seat)}` : '';
    if (key === this.drawn) return;
    this.drawn = key;
    this.root.hidden = !seats.length;
    if (!seats.length) {
      fill(this.root);
      return;
    }
    this.root.className = `turn-timer${warn ? ' warn' : ''}`;
    this.root.dataset.seconds = String(Math.max(0, Math.ceil(left)));
    const [before, after] = t('timer.left', { who }).split('{time}');
    fill(this.root, before, el('strong', { class: 'time' }, clock(left)), after,
      warn && seats.includes(st.seat) ? el('span', { class: 'hurry' }, t('timer.hurry')) : null);
  }
}
