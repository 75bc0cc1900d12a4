// What the browser remembers: the display name, seat and host tokens per
// lobby (so a reload or a later visit reclaims the seat), and the sound
// setting. Tokens live in localStorage only, never in URLs.

const NAME = 'catan.name';
const SOUND = 'catan.sound';

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage may be full or disabled; the page still works for this visit.
  }
}

/** The remembered display name ('' if none). */
export const getName = () => read(NAME) || '';
/** Remembers the display name. */
export const setName = (name) => write(NAME, name);
/** `{ seat, token }` for a lobby, or null. */
export const getSeat = (lobbyId) => read(`catan.seat.${lobbyId}`);
/** Remembers (or with null forgets) one's seat in a lobby. */
export const setSeat = (lobbyId, seat) => write(`catan.seat.${lobbyId}`, seat);
/** The host token of a lobby this browser created, or null. */
export const getHost = (lobbyId) => read(`catan.host.${lobbyId}`);
/** Remembers the host token. */
export const setHost = (lobbyId, token) => write(`catan.host.${lobbyId}`, token);
/** Whether the turn sound is on (off by default). */
export const getSound = () => read(SOUND) === true;
/** Turns the turn sound on or off. */
export const setSound = (on) => write(SOUND, !!on);
