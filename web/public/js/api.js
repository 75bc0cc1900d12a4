// The server's HTTP JSON API (docs/PROTOCOL.md). Every failure becomes an
// `ApiError` carrying the server's code and message, so pages can show them
// plainly instead of swallowing them.

/** A refused or failed request. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError('network', `cannot reach the server (${e.message})`, 0);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // The server answers `{"error": {"code", "message"}}`; anything else
    // (a proxy's page, an empty body) is reported by its status alone, so
    // no raw body ever reaches the page.
    const err = data && typeof data.error === 'object' && data.error ? data.error : {};
    const code = typeof err.code === 'string' ? err.code : `http_${res.status}`;
    const message = typeof err.message === 'string' ? err.message : (res.statusText || `the server answered ${res.status}`);
    throw new ApiError(code, message, res.status);
  }
  return data;
}

/** This server's page settings: `{ test_hooks }`. */
export const getConfig = () => request('GET', '/api/config');
/** Public lobbies. */
export const listLobbies = () => request('GET', '/api/lobbies').then((d) => d.lobbies);
/** One lobby by id. */
export const getLobby = (id) => request('GET', `/api/lobbies/${encodeURIComponent(id)}`);
/** Creates a lobby: `{ lobby, host_token }`. */
export const createLobby = (settings) => request('POST', '/api/lobbies', { body: settings });
/** Takes a seat: `{ seat, token, lobby }`. */
export const joinLobby = (id, name, seat) =>
  request('POST', `/api/lobbies/${encodeURIComponent(id)}/join`, { body: seat === undefined ? { name } : { name, seat } });
/** Leaves one's seat. */
export const leaveLobby = (id, token) => request('POST', `/api/lobbies/${encodeURIComponent(id)}/leave`, { token });
/** Seats a bot (host). */
export const addBot = (id, hostToken, kind, seat) =>
  request('POST', `/api/lobbies/${encodeURIComponent(id)}/bots`, {
    token: hostToken,
    body: seat === undefined ? { kind } : { kind, seat },
  });
/** Removes a bot (host). */
export const removeBot = (id, hostToken, seat) =>
  request('DELETE', `/api/lobbies/${encodeURIComponent(id)}/bots/${seat}`, { token: hostToken });
/** Starts the game (host). */
export const startGame = (id, hostToken) => request('POST', `/api/lobbies/${encodeURIComponent(id)}/start`, { token: hostToken });
/** A page of finished games, newest first. */
export const listGames = ({ page = 1, perPage = 20, player = '' } = {}) => {
  const q = new URLSearchParams({ page: String(page), per_page: String(perPage) });
  if (player) q.set('player', player);
  return request('GET', `/api/games?${q}`);
};
/** One game record (docs/GAME_RECORD.md). */
export const getGame = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);
/** The WebSocket URL of a lobby. */
export function socketUrl(id, nodeUrl = null) {
  // In a cluster the lobby's socket lives on the node that serves it
  // (docs/CLUSTER.md); otherwise on this page's own server.
  let origin = location;
  try {
    if (nodeUrl) origin = new URL(nodeUrl);
  } catch {
    origin = location;
  }
  const scheme = origin.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${origin.host}/api/lobbies/${encodeURIComponent(id)}/ws`;
}

/**
 * Longest the page waits to be told where a lobby lives before it tries its
 * own server: longer than a cluster's lease (3 s by default), which a server
 * may wait out for a lobby whose server died, and short enough that a server
 * that never answers (one out of connections leaves them waiting unaccepted)
 * cannot hold a reconnect up for good.
 */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * One answer to where a lobby lives: `{ status, url }` (`status` 0: no
 * answer; `url` null: no node named, as on a single server).
 */
async function askWhere(path) {
  try {
    const res = await fetch(path, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
    });
    if (!res.ok) return { status: res.status, url: null };
    const info = await res.json();
    return { status: res.status, url: typeof info.node_url === 'string' ? info.node_url : null };
  } catch {
    return { status: 0, url: null };
  }
}

/** Whether two node URLs (null: this page's server) name the same server. */
function sameNode(a, b) {
  try {
    return new URL(a ?? location.href).origin === new URL(b ?? location.href).origin;
  } catch {
    return false;
  }
}

/**
 * Where a lobby's socket lives now: the serving node's URL, or null for this
 * server. `lost` is the node whose socket was just lost (null: this page's
 * server). This server answers by itself, from what it knows of the cluster;
 * when it names the node just lost, which it may not yet know is dead, or is
 * older than that answer (404), the page asks for the whole lobby instead,
 * which this server forwards to the lobby's node and so finds out whether it
 * answers (docs/CLUSTER.md).
 */
export async function lobbyNode(id, lost = null) {
  const path = `/api/lobbies/${encodeURIComponent(id)}`;
  const light = await askWhere(`${path}/node`);
  const ask = light.status === 404 || (light.url !== null && sameNode(light.url, lost));
  return ask ? (await askWhere(path)).url : light.url;
}
/** Steps `from..=to` of a finished game: `{ total, steps: [{ step, action, events, view }] }`. */
export const getSteps = (id, from, to) =>
  request('GET', `/api/games/${encodeURIComponent(id)}/steps?from=${from}&to=${to}`);
