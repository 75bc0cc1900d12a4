// Every action a player can take, driven by the server's legal actions:
// which board spots are targets, the action buttons (disabled when the
// server would refuse them), and the small dialogs for choices that the
// board cannot express (victim, discards, Invention, Monopoly, Road Building).

import { el, COSTS, RESOURCES, devName, resName, setText, total, fill } from './util.js';
import { hexName } from './words.js';
import { t, tn } from './i18n.js';

const has = (legal, type) => legal.some((a) => a.type === type);
const ofType = (legal, type) => legal.filter((a) => a.type === type);

/** Fresh per-turn UI choices. */
export function freshUi() {
  return { mode: null, pickHex: null, rbEdges: [], discard: {}, invention: [], error: null };
}

/** The board targets for the current legal actions and mode. */
export function boardTargets(ctx) {
  const { view, legal, ui } = ctx;
  const out = { vertices: new Set(), edges: new Set(), hexes: new Set() };
  if (!legal.length) return out;
  if (view.phase === 'opening') {
    for (const a of ofType(legal, 'build_settlement')) out.vertices.add(a.vertex);
    for (const a of ofType(legal, 'build_road')) out.edges.add(a.edge);
    return out;
  }
  if (view.phase === 'move_robber' || ui.mode === 'knight') {
    if (ui.pickHex !== null) return out;
    const type = view.phase === 'move_robber' ? 'move_robber' : 'play_knight';
    for (const a of ofType(legal, type)) out.hexes.add(a.hex);
    return out;
  }
  if (ui.mode === 'road') for (const a of ofType(legal, 'build_road')) out.edges.add(a.edge);
  if (ui.mode === 'settlement') for (const a of ofType(legal, 'build_settlement')) out.vertices.add(a.vertex);
  if (ui.mode === 'city') for (const a of ofType(legal, 'build_city')) out.vertices.add(a.vertex);
  if (ui.mode === 'road_building') {
    const n = ui.rbEdges.length;
    for (const a of ofType(legal, 'play_road_building')) {
      if (a.edges.length > n && ui.rbEdges.every((e, i) => a.edges[i] === e)) out.edges.add(a.edges[n]);
    }
  }
  return out;
}

/** What a click on a board target does. */
export function onBoardTarget(ctx, kind, id) {
  const { view, legal, ui } = ctx;
  if (kind === 'vertex') {
    const a = legal.find((x) => (x.type === 'build_settlement' || x.type === 'build_city') && x.vertex === id
      && (view.phase === 'opening' || (ui.mode === 'city') === (x.type === 'build_city')));
    if (a) ctx.act(a);
  } else if (kind === 'edge') {
    if (ui.mode === 'road_building') {
      const edges = [...ui.rbEdges, id];
      const exact = legal.find((a) => a.type === 'play_road_building' && a.edges.length === edges.length && a.edges.every((e, i) => e === edges[i]));
      const longer = legal.some((a) => a.type === 'play_road_building' && a.edges.length > edges.length && edges.every((e, i) => a.edges[i] === e));
      if (exact && !longer) ctx.act(exact);
      else ctx.setUi({ rbEdges: edges });
    } else {
      const a = legal.find((x) => x.type === 'build_road' && x.edge === id);
      if (a) ctx.act(a);
    }
  } else if (kind === 'hex') {
    const type = view.phase === 'move_robber' ? 'move_robber' : 'play_knight';
    const options = legal.filter((a) => a.type === type && a.hex === id);
    if (options.length === 1) ctx.act(options[0]);
    else if (options.length > 1) ctx.setUi({ pickHex: id });
  }
}

function button(label, opts, onclick) {
  return el('button', { type: 'button', ...opts, onclick }, label);
}

/** A build button with its cost underneath ("1 brick, 1 wood"). */
function buildButton(label, cost, opts, onclick) {
  return el('button', { type: 'button', class: 'build', title: t('act.costs', { cost: setText(cost) }), ...opts, onclick },
    label, el('span', { class: 'cost' }, setText(cost)));
}

/** The action buttons and any open choice dialog. */
export function renderControls(root, ctx) {
  const { view, legal, ui, seat } = ctx;
  if (seat === null) {
    fill(root, );
    return;
  }
  const busy = ctx.busy;
  const mode = (m) => () => ctx.setUi({ mode: ui.mode === m ? null : m, pickHex: null, rbEdges: [] });
  const devBtn = (card, type, onclick) => button(t('act.play', { card: devName(card) }), {
    'data-action': type, disabled: busy || !has(legal, type), 'aria-pressed': ui.mode === card ? 'true' : null,
  }, onclick);
  const buttons = el('div', { class: 'action-buttons' },
    button(t('act.roll'), { id: 'roll', class: 'primary', 'data-action': 'roll_dice', disabled: busy || !has(legal, 'roll_dice') }, () => ctx.act({ type: 'roll_dice' })),
    buildButton(t('act.road'), COSTS.road, { 'data-action': 'build_road', disabled: busy || view.phase !== 'action' || !has(legal, 'build_road'), 'aria-pressed': String(ui.mode === 'road') }, mode('road')),
    buildButton(t('act.settlement'), COSTS.settlement, { 'data-action': 'build_settlement', disabled: busy || view.phase !== 'action' || !has(legal, 'build_settlement'), 'aria-pressed': String(ui.mode === 'settlement') }, mode('settlement')),
    buildButton(t('act.city'), COSTS.city, { 'data-action': 'build_city', disabled: busy || !has(legal, 'build_city'), 'aria-pressed': String(ui.mode === 'city') }, mode('city')),
    buildButton(t('act.dev'), COSTS.dev, { 'data-action': 'buy_development_card', disabled: busy || !has(legal, 'buy_development_card') }, () => ctx.act({ type: 'buy_development_card' })),
    devBtn('knight', 'play_knight', mode('knight')),
    devBtn('road_building', 'play_road_building', mode('road_building')),
    devBtn('invention', 'play_invention', mode('invention')),
    devBtn('monopoly', 'play_monopoly', mode('monopoly')),
    button(t('act.end'), { id: 'end-turn', 'data-action': 'end_turn', disabled: busy || !has(legal, 'end_turn') }, () => ctx.act({ type: 'end_turn' })),
  );
  fill(root, el('h2', { class: 'visually-hidden' }, t('act.title')), buttons, dialog(ctx));
}

function dialog(ctx) {
  const { view, legal, ui, seat } = ctx;
  const cancel = button(t('act.cancel'), { class: 'cancel' }, () => ctx.setUi({ mode: null, pickHex: null, rbEdges: [] }));
  if (view.phase === 'discard' && view.discards_owed[seat] > 0) return discardDialog(ctx);
  if (ui.pickHex !== null) {
    const type = view.phase === 'move_robber' ? 'move_robber' : 'play_knight';
    const options = legal.filter((a) => a.type === type && a.hex === ui.pickHex);
    return el('div', { class: 'choice', role: 'group', 'aria-label': t('rob.whom') },
      el('p', {}, t('rob.question', { place: hexName(view.board, ui.pickHex) })),
      options.map((a) => {
        const n = a.victim === null ? 0 : view.players[a.victim].resource_count;
        const label = a.victim === null ? t('rob.nobody') : t('rob.victim', { who: ctx.name(a.victim), cards: tn('count.cards', n) });
        return button(label, { class: 'victim', 'data-seat': a.victim }, () => ctx.act(a));
      }),
      button(t('rob.another'), { class: 'cancel' }, () => ctx.setUi({ pickHex: null })));
  }
  if (view.phase === 'move_robber' && legal.length) return el('p', { class: 'choice' }, t('rob.click'));
  switch (ui.mode) {
    case 'road': case 'settlement': case 'city':
      return el('p', { class: 'choice' }, t(`build.click.${ui.mode}`), ' ', cancel);
    case 'knight':
      return el('p', { class: 'choice' }, t('knight.click'), ' ', cancel);
    case 'road_building': {
      const done = legal.find((a) => a.type === 'play_road_building' && a.edges.length === ui.rbEdges.length && a.edges.every((e, i) => e === ui.rbEdges[i]));
      return el('p', { class: 'choice' }, t('rb.click', { n: ui.rbEdges.length }), ' ',
        button(tn('rb.play', ui.rbEdges.length), { id: 'rb-done', disabled: !done }, () => ctx.act(done)), cancel);
    }
    case 'invention': return inventionDialog(ctx, cancel);
    case 'monopoly':
      return el('div', { class: 'choice', role: 'group', 'aria-label': devName('monopoly') }, el('p', {}, t('monopoly.name')),
        ofType(legal, 'play_monopoly').map((a) => button(resName(a.resource), { class: `res-${a.resource}` }, () => ctx.act(a))), cancel);
    default:
      return null;
  }
}

function inventionDialog(ctx, cancel) {
  const { legal, ui } = ctx;
  const options = ofType(legal, 'play_invention');
  const chosen = ui.invention;
  const key = (rs) => [...rs].sort().join('+');
  const match = options.find((a) => key(a.resources) === key(chosen));
  return el('div', { class: 'choice', role: 'group', 'aria-label': devName('invention') },
    el('p', {}, t('invention.take', { n: options[0] ? options[0].resources.length : 2, chosen: chosen.map(resName).join(', ') || t('invention.none') })),
    RESOURCES.map((r) => button(`+ ${resName(r)}`, { class: `res-${r}`, disabled: chosen.length >= 2 }, () => ctx.setUi({ invention: [...chosen, r] }))),
    button(t('act.clear'), {}, () => ctx.setUi({ invention: [] })),
    button(t('invention.done'), { id: 'invention-done', class: 'primary', disabled: !match }, () => ctx.act(match)), cancel);
}

function discardDialog(ctx) {
  const { view, seat, ui, legal } = ctx;
  const owed = view.discards_owed[seat];
  const hand = view.players[seat].resources || {};
  const pick = { brick: 0, wood: 0, wool: 0, wheat: 0, ore: 0, ...ui.discard };
  const n = total(pick);
  const action = { type: 'discard', cards: pick };
  const ok = n === owed && legal.some((a) => a.type === 'discard' && RESOURCES.every((r) => a.cards[r] === pick[r]));
  const set = (r, d) => ctx.setUi({ discard: { ...pick, [r]: Math.max(0, Math.min(hand[r] || 0, pick[r] + d)) } });
  return el('div', { class: 'choice discard', role: 'dialog', 'aria-label': t('discard.title', { n: owed }) },
    el('p', {}, el('strong', {}, t('discard.title', { n: owed })), t('discard.chosen', { n, owed })),
    el('ul', { class: 'picker' }, RESOURCES.map((r) => el('li', { class: `res-${r}`, 'data-resource': r },
      el('span', {}, `${resName(r)} (${hand[r] || 0})`),
      button('−', { 'aria-label': t('discard.less', { res: resName(r) }), disabled: !pick[r] }, () => set(r, -1)),
      el('output', {}, String(pick[r])),
      button('+', { 'aria-label': t('discard.more', { res: resName(r) }), class: 'more', disabled: pick[r] >= (hand[r] || 0) || n >= owed }, () => set(r, 1))))),
    button(t('discard.done', { n, owed }), { id: 'discard-done', class: 'primary', disabled: !ok || ctx.busy }, () => ctx.act(action)));

}
