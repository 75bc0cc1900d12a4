// "Autoplay for tests": loaded only when the page's URL has `autoplay=1`.
// It plays this seat with a simple fixed policy over the server's legal
// actions, through the page's own action path (the same `act` the buttons
// use), so a browser test can play a whole game against bots quickly.

const PRIORITY = [
  'discard', 'move_robber', 'roll_dice', 'build_city', 'build_settlement', 'buy_development_card', 'build_road',
  'decline_trade', 'end_turn',
];

let scheduledFor = -1;

/** Chooses an action for the current state, or null. */
export function choose(state) {
  const legal = state.legal;
  if (!legal.length) return null;
  if (state.view.phase === 'opening') return legal[Math.floor(legal.length / 2)];
  for (const type of PRIORITY) {
    const options = legal.filter((a) => a.type === type);
    if (!options.length) continue;
    if (type === 'move_robber') return options.find((a) => a.victim !== null) || options[0];
    if (type === 'build_road' && state.view.players[state.view.active].roads.length > 12) continue;
    return options[0];
  }
  return null;
}

/** Called after every render: acts once per game version when it is our move. */
export function autoplay(state, act) {
  if (state.busy || !state.legal.length || scheduledFor === state.version) return;
  scheduledFor = state.version;
  setTimeout(() => {
    if (state.busy || state.version !== scheduledFor) return;
    const a = choose(state);
    if (!a) return;
    act(a).then(() => {
      // A refusal (the game moved on, rate limit): look again shortly.
      if (state.error) setTimeout(() => { scheduledFor = -1; autoplay(state, act); }, 400);
    });
  }, 15);
}
