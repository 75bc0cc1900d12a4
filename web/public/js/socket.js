// One lobby's WebSocket (protocol 3, docs/PROTOCOL.md): says hello with the
// seat token (or none, to watch), hands every server message to the page
// (each update's view whole again: protocol 3 sends only what changed),
// matches replies to requests by id, and reconnects by itself with backoff
// unless the server closed the socket for a reason retrying cannot fix.
// Why a socket closed is said by its close code from the catalogue, never
// by the server's close reason (English, and worded for a log).

import { lobbyNode, socketUrl } from './api.js';
import { has, t } from './i18n.js';

/** The protocol version this page speaks (docs/PROTOCOL.md, "Protocol versions"). */
const PROTOCOL = 3;

/** The oldest version a server older than this page may speak (a cluster
 * mid-upgrade may serve the page from a new node and the lobby from an old
 * one): refused, the page tries the version below, down to this one. */
const OLDEST_PROTOCOL = 1;

/** Close code: the lobby moved to another server of the cluster. */
const MOVED = 4010;

/**
 * Longest a socket may take from opening to the server's welcome before the
 * page gives it up and tries again: a server that takes the connection but
 * never answers (one out of open files leaves it waiting unaccepted) would
 * otherwise leave the page connecting for good. Well above the slowest
 * answers measured while a cluster takes a dead node's lobbies over (under
 * 7 s, docs/PERFORMANCE.md), so a busy server is not asked twice.
 */
const WELCOME_TIMEOUT_MS = 15000;

/** Close codes after which reconnecting would not help (said by `close.CODE` in i18n.js). */
const FINAL_CLOSES = new Set([4001, 4002, 4003, 4004]);

/**
 * Why the socket closed, in the page's language: `close.CODE` for every
 * close code docs/PROTOCOL.md lists (a sentence for the final ones, a short
 * phrase for the banner's "Connection lost (…)" otherwise), and "connection
 * lost" for any other code (1006: the network dropped it without a word).
 */
export function closeText(code) {
  return has(`close.${code}`) ? t(`close.${code}`) : t('conn.lostReason');
}

/**
 * How long to wait before reconnect attempt `attempt` (1, 2, ...): doubling
 * from half a second up to five, each a random amount between half of that
 * and all of it (`random` in [0, 1)). When a server dies, every page of its
 * lobbies loses its socket in the same instant; without the randomness they
 * would all knock on the survivors together at every step.
 */
export function retryDelay(attempt, random = Math.random()) {
  const ceiling = Math.min(5000, 250 * 2 ** Math.min(attempt, 5));
  return Math.round(ceiling * (0.5 + random / 2));
}

/**
 * The view that `changes` (a protocol 3 update) make of `view`: each field
 * they name replaced, and each named field of each player they name. The
 * parts they leave alone are shared with `view`, never changed in it.
 */
export function applyChanges(view, changes) {
  const next = { ...view };
  for (const [key, value] of Object.entries(changes)) {
    if (key !== 'players') next[key] = value;
  }
  const players = changes.players;
  if (players) {
    next.players = view.players.map((p) => (players[p.seat] ? { ...p, ...players[p.seat] } : p));
  }
  return next;
}

/** A reconnecting game socket. */
export class GameSocket {
  /**
   * @param {string} lobbyId
   * @param {string|null} token seat token, or null for a spectator
   * @param {{onMessage: Function, onStatus: Function, since?: Function}} handlers
   *   `since()`: the last game version the page has every step of, or null;
   *   a reconnect of this socket asks for the steps after it only.
   */
  constructor(lobbyId, token, { onMessage, onStatus, since = () => null }) {
    this.lobbyId = lobbyId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.since = since;
    /** Whether this socket was welcomed before: only then is the page's log
     * this viewer's (one socket, one token), and worth resuming. */
    this.welcomed = false;
    this.pending = new Map();
    this.nextId = 1;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.retryTimer = null;
    /** The cluster node serving the lobby (null: this page's server). */
    this.nodeUrl = null;
    /** Moves followed since the last welcome (two servers that disagree
     * for a moment must not bounce the socket between them). */
    this.moves = 0;
    /** The version said in hello: the newest, until a server refuses it. */
    this.protocol = PROTOCOL;
    /** Set when the server refused the version: the socket it then closes
     * is opened again at once in the older one. */
    this.redial = false;
    /** The game's board, from the last snapshot (updates leave it out). */
    this.board = null;
    /** The last whole view and its version: protocol 3 updates carry only
     * what changed since. A copy, so nothing the page does to the views it
     * is handed can change what the next update is applied to. */
    this.view = null;
    this.version = null;
  }

  /**
   * Makes the view of a snapshot, update or game end whole for the page: an
   * update's changes applied to the view before (protocol 3), the board put
   * back (updates leave it out from protocol 2; the snapshot, the update
   * that starts the game and the game's end carry it). False for changes
   * made from a version this socket does not have (updates come in order,
   * so it should not happen): the update is not handed on, and a snapshot
   * is asked for instead.
   */
  makeWhole(msg) {
    if (msg.type === 'update' && msg.changes) {
      if (!this.view || this.version !== msg.version - 1) {
        this.resync().catch(() => {});
        return false;
      }
      msg.view = applyChanges(this.view, msg.changes);
      delete msg.changes;
    }
    if (!msg.view) return true;
    if (msg.view.board) this.board = msg.view.board;
    else msg.view.board = this.board;
    if (msg.type !== 'game_over') {
      this.view = structuredClone(msg.view);
      this.version = msg.version;
    }
    return true;
  }

  /** Opens the socket (and keeps it open until {@link close}). */
  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.onStatus({ state: 'connecting', attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(socketUrl(this.lobbyId, this.nodeUrl));
    } catch (e) {
      this.scheduleRetry(t('conn.cannotOpen'));
      return;
    }
    this.ws = ws;
    const waiting = setTimeout(() => {
      // Closing a socket that never opened ends it as dropped (1006): the
      // close handler below retries, asking first where the lobby lives.
      if (this.ws === ws) ws.close();
    }, WELCOME_TIMEOUT_MS);
    // The hello without `since`, kept while one with it awaits its answer.
    let plainHello = null;
    ws.addEventListener('open', () => {
      const hello = { type: 'hello', protocol: this.protocol };
      if (this.token) hello.token = this.token;
      const since = this.welcomed ? this.since() : null;
      if (Number.isInteger(since)) {
        plainHello = JSON.stringify(hello);
        hello.since = since;
      }
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener('message', (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (plainHello && msg.type === 'rejected' && msg.id == null && msg.code === 'bad_json') {
        // A server older than `since` refuses the field: say hello without
        // it (the whole history then comes), and keep the refusal off the page.
        ws.send(plainHello);
        plainHello = null;
        return;
      }
      if (msg.type === 'rejected' && msg.id == null && msg.code === 'unsupported_protocol' && this.protocol > OLDEST_PROTOCOL) {
        // A server older than this page: say hello in the version below on
        // the socket it opens next, and keep the refusal off the page.
        this.protocol -= 1;
        this.redial = true;
        return;
      }
      if (!this.makeWhole(msg)) return;
      if (msg.type === 'welcome') {
        clearTimeout(waiting);
        plainHello = null;
        this.welcomed = true;
        this.attempt = 0;
        this.moves = 0;
        this.onStatus({ state: 'open' });
      }
      this.settle(msg);
      this.onMessage(msg);
    });
    ws.addEventListener('close', (ev) => {
      clearTimeout(waiting);
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pending.values()) p.reject({ code: 'disconnected', message: t('err.disconnected') });
      this.pending.clear();
      if (this.stopped) return;
      if (this.redial) {
        this.redial = false;
        this.connect();
        return;
      }
      if (FINAL_CLOSES.has(ev.code)) {
        this.onStatus({ state: 'final', message: closeText(ev.code), code: ev.code });
        return;
      }
      if (ev.code === MOVED && this.moves < 3) {
        // Another server serves the game now: go there at once. The close
        // reason names it ("moved to <url>"): read, never shown; without it, ask.
        this.moves += 1;
        const named = /^moved to (https?:\/\/\S+)$/.exec(ev.reason || '');
        this.nodeUrl = named ? named[1] : null;
        this.onStatus({ state: 'connecting', attempt: this.attempt });
        if (named) this.connect();
        else this.relocateThenConnect();
        return;
      }
      this.scheduleRetry(closeText(ev.code));
    });
  }

  /** Asks where the lobby lives now, then connects there. */
  async relocateThenConnect() {
    this.nodeUrl = await lobbyNode(this.lobbyId, this.nodeUrl);
    if (!this.stopped && !this.ws) this.connect();
  }

  scheduleRetry(reason) {
    this.attempt += 1;
    const delay = retryDelay(this.attempt);
    this.onStatus({ state: 'retrying', reason, delay, attempt: this.attempt });
    // The server may have died: its lobby then lives on another one.
    this.retryTimer = setTimeout(() => this.relocateThenConnect(), delay);
  }

  /** Retries at once (the banner's "retry now"). */
  retryNow() {
    if (this.ws) return;
    this.connect();
  }

  /** Closes for good. */
  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close(1000, 'bye');
    this.ws = null;
  }

  settle(msg) {
    if (msg.type === 'accepted' && this.pending.has(msg.id)) {
      this.pending.get(msg.id).resolve(msg);
      this.pending.delete(msg.id);
    } else if (msg.type === 'rejected') {
      const id = msg.id ?? [...this.pending.keys()][0];
      const p = this.pending.get(id);
      if (p) {
        p.reject(msg);
        this.pending.delete(id);
      }
    }
  }

  request(body) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: 'disconnected', message: t('err.disconnected') });

        return;
      }
      const id = `r${this.nextId++}`;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...body, id }));
    });
  }

  /** Sends an action at the game version the client saw. */
  action(action, version) {
    return this.request({ type: 'action', version, action });
  }

  /** Sends a chat line. */
  chat(text) {
    return this.request({ type: 'chat', text });
  }

  /** Asks for a fresh snapshot. */
  resync() {
    return this.request({ type: 'resync' });
  }
}
