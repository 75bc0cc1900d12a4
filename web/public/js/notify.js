// Telling a player in a background tab that it is their turn: the page
// title changes (and changes back when the tab is seen), and an optional
// short tone plays, off by default and switchable any time.

import { getSound } from './prefs.js';

const baseTitle = document.title;
let flagged = false;
let audio = null;

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && flagged) {
    document.title = baseTitle;
    flagged = false;
  }
});

function beep(freq = 660) {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    // No audio device or autoplay blocked: the title still tells.
  }
}

/** A short tone for an event at the table (an offer to you), when sounds are on. */
export function chime() {
  if (getSound()) beep(880);
}

/** Announces `text` if the tab is in the background. */
export function announceTurn(text) {
  if (!document.hidden) return;
  document.title = `● ${text} — ${baseTitle}`;
  flagged = true;
  if (getSound()) beep();
}
