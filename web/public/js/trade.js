// Trading: with the bank or a harbour at your best rate, and with players:
// offers to everyone or chosen players, accept / decline / counter-offer, and
// the active player choosing among those who accepted. Offers are not listed
// in the legal actions (their terms are open), so the composer checks what
// the rules say about who may offer and the server has the last word.

import { el, RESOURCES, emptySet, resName, setText, total, fill } from './util.js';
import { t } from './i18n.js';

/** Fresh composer state. */
export function freshTrade() {
  return { give: emptySet(), get: emptySet(), to: null, bankGive: null, bankGet: null };
}

function counter(label, value, onChange, max, key) {
  return el('span', { class: 'counter', 'data-key': key },
    el('button', { type: 'button', 'aria-label': t('trade.less', { what: label }), class: 'less', disabled: value <= 0, onclick: () => onChange(value - 1) }, '−'),
    el('output', { 'aria-label': label }, String(value)),
    el('button', { type: 'button', 'aria-label': t('trade.more', { what: label }), class: 'more', disabled: value >= max, onclick: () => onChange(value + 1) }, '+'));
}

/** Whether this seat may make an offer now (RULES.md R26-R27). */
export function mayOffer(view, seat) {
  return seat !== null && view.phase === 'action';
}

/** The trade panel. */
export function renderTrade(root, ctx) {
  const { view, seat, legal, trade, name } = ctx;
  if (seat === null) {
    fill(root, el('p', { class: 'hint' }, t('trade.watching')));
    return;
  }
  const me = view.players[seat];
  const hand = me.resources || emptySet();
  const set = (patch) => ctx.setTrade(patch);

  // Bank and harbours.
  const rates = me.bank_rates;
  const bankGive = trade.bankGive || RESOURCES.find((r, i) => hand[r] >= rates[i]) || 'brick';
  const bankGet = trade.bankGet || RESOURCES.find((r) => r !== bankGive) || 'wood';
  const bankAction = legal.find((a) => a.type === 'trade_bank' && a.give === bankGive && a.get === bankGet);
  const bank = el('div', { class: 'bank-trade', role: 'group', 'aria-label': t('bank.label') },
    el('h3', {}, t('bank.title')),
    el('p', { class: 'rates' }, t('bank.rates'), RESOURCES.map((r, i) => el('span', { class: `rate${rates[i] < 4 ? ' better' : ''}` }, `${resName(r)} ${rates[i]}:1`))),
    el('label', { for: 'bank-give' }, t('bank.give')),
    el('select', { id: 'bank-give', onchange: (ev) => set({ bankGive: ev.target.value }) },
      RESOURCES.map((r, i) => el('option', { value: r, selected: r === bankGive }, `${rates[i]} ${resName(r)}`))),
    el('label', { for: 'bank-get' }, t('bank.for1')),
    el('select', { id: 'bank-get', onchange: (ev) => set({ bankGet: ev.target.value }) },
      RESOURCES.map((r) => el('option', { value: r, selected: r === bankGet }, resName(r)))),
    ' ',
    el('button', { type: 'button', id: 'bank-trade', disabled: ctx.busy || !bankAction, onclick: () => ctx.act(bankAction) }, t('bank.trade')));

  // Offer composer.
  const others = view.players.map((p) => p.seat).filter((s) => s !== seat);
  const active = view.active === seat;
  const overlap = RESOURCES.some((r) => trade.give[r] > 0 && trade.get[r] > 0);
  const holds = RESOURCES.every((r) => trade.give[r] <= (hand[r] || 0));
  const canSend = mayOffer(view, seat) && total(trade.give) > 0 && total(trade.get) > 0 && !overlap && holds && !ctx.busy;
  const to = active ? trade.to : null;
  // The composer keeps its terms until the server takes the offer: a
  // refused offer can be fixed and sent again.
  const offer = async () => {
    const ok = await ctx.act({ type: 'offer_trade', give: trade.give, get: trade.get, to: to && to.length < others.length ? to : null });
    if (ok) ctx.setTrade({ give: emptySet(), get: emptySet() });
  };
  const composer = el('div', { class: 'offer-composer', role: 'group', 'aria-label': t('compose.label') },
    el('h3', {}, active ? t('compose.label') : t('compose.counterTo', { who: name(view.active) })),
    el('table', { class: 'offer-grid' },
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { scope: 'col' }, t('compose.youGive')), el('th', { scope: 'col' }, t('compose.youGet')))),
      el('tbody', {}, RESOURCES.map((r) => el('tr', { 'data-resource': r },
        el('th', { scope: 'row' }, resName(r)),
        el('td', {}, counter(t('compose.give', { res: resName(r) }), trade.give[r], (v) => set({ give: { ...trade.give, [r]: v } }), hand[r] || 0, `give-${r}`)),
        el('td', {}, counter(t('compose.get', { res: resName(r) }), trade.get[r], (v) => set({ get: { ...trade.get, [r]: v } }), 19, `get-${r}`)))))),
    active
      ? el('fieldset', { class: 'recipients' }, el('legend', {}, t('compose.offerTo')),
        others.map((s) => el('label', {}, el('input', {
          type: 'checkbox', name: 'offer-to', value: s, checked: !trade.to || trade.to.includes(s),
          onchange: (ev) => {
            const cur = new Set(trade.to || others);
            if (ev.target.checked) cur.add(s); else cur.delete(s);
            set({ to: [...cur].sort() });
          },
        }), ` ${name(s)}`)))
      : null,
    overlap ? el('p', { class: 'hint' }, t('compose.overlap')) : null,
    !holds ? el('p', { class: 'hint' }, t('compose.notHeld')) : null,
    el('button', { type: 'button', id: 'make-offer', class: 'primary', disabled: !canSend || (active && trade.to && trade.to.length === 0), onclick: offer },
      active ? t('compose.make') : t('compose.sendCounter')),
    el('button', { type: 'button', onclick: () => set({ give: emptySet(), get: emptySet() }) }, t('act.clear')));

  fill(root, el('h2', {}, t('trade.title')), view.phase === 'action' ? composer : el('p', { class: 'hint' }, t('trade.afterRoll')), view.phase === 'action' && active ? bank : null);
}

/**
 * The open offers as cards by the hand (#offers), worded for this viewer:
 * an offer to you with Accept / Decline / Counter; your own offer with each
 * recipient's answer (accepts, declines, counters, still thinking) and the
 * "Trade with X" buttons right there; offers between others as a line.
 */
export function renderOffers(root, ctx) {
  const { view, legal, name, seat } = ctx;
  root.hidden = !view.offers.length;
  if (!view.offers.length) {
    fill(root);
    return;
  }
  const find = (type, offer) => legal.find((a) => a.type === type && a.offer === offer);
  const hand = seat !== null ? view.players[seat].resources : null;
  const cards = view.offers.map((o) => {
    const mine = o.maker === seat;
    const toMe = seat !== null && !mine && o.to.includes(seat);
    const accept = find('accept_trade', o.id);
    const decline = find('decline_trade', o.id);
    const cancel = find('cancel_trade', o.id);
    const confirms = legal.filter((a) => a.type === 'confirm_trade' && a.offer === o.id);
    const accepted = seat !== null && o.accepted.includes(seat);
    const declined = seat !== null && o.declined.includes(seat);
    let head;
    if (mine) head = parts(t(o.counter ? 'card.mineCounter' : 'card.mine'), { give: give(o.give), get: get(o.get) });
    else if (toMe) head = parts(t(o.counter ? 'card.toMeCounter' : 'card.toMe'), { who: el('strong', {}, name(o.maker)), give: get(o.give), get: give(o.get) });
    else {
      head = parts(t(o.counter ? 'card.otherCounter' : 'card.other'), { who: el('strong', {}, name(o.maker)), give: setText(o.give), get: setText(o.get),
        to: o.to.length && !o.counter ? t('card.otherTo', { list: o.to.map(name).join(', ') }) : '' });
    }
    const answers = mine && !o.counter ? el('ul', { class: 'answers' }, o.to.map((s) => {
      // A counter-offer made after this offer answers it, open or closed
      // (confirming a counter closes only the counter: SCENARIO.md, R27).
      const countered = view.offers.some((c) => c.counter && c.maker === s && c.id > o.id)
        || (ctx.counters || []).some((c) => c.maker === s && c.id > o.id);

      const [mark, cls] = o.accepted.includes(s) ? ['✓', 'yes']
        : o.declined.includes(s) ? ['✗', 'no']
          : countered ? ['↺', 'counter'] : ['…', 'wait'];
      return el('li', { class: `answer answer-${cls}`, 'data-seat': s }, el('span', { 'aria-hidden': 'true', class: 'mark' }, mark), ` ${t(`answer.${cls}`, { who: name(s) })}`);
    })) : null;
    const lacking = toMe && !accept && !accepted && !declined && hand && !Object.entries(o.get).every(([r, n]) => (hand[r] || 0) >= n)
      ? el('p', { class: 'hint' }, t('card.lacking', { cards: setText(o.get) })) : null;
    const status = accepted ? el('p', { class: 'hint said' }, t('card.accepted', { who: name(o.maker) }))
      : declined ? el('p', { class: 'hint said' }, t('card.declined')) : null;
    const canCounter = toMe && !o.counter && view.phase === 'action';
    return el('li', { class: `offer${toMe ? ' offer-to-me' : ''}${mine ? ' offer-mine' : ''}`, 'data-offer': o.id },
      el('p', { class: 'offer-head' }, head),
      answers, status, lacking,
      el('div', { class: 'offer-buttons' },
        toMe && !accepted && (accept || !o.counter) ? el('button', { type: 'button', class: 'accept primary', disabled: ctx.busy || !accept, onclick: () => sendOnce(ctx, `accept-${o.id}`, accept) }, t('offer.accept')) : null,
        toMe && accepted ? el('button', { type: 'button', class: 'accept', disabled: true }, t('offer.accepted')) : null,
        toMe && decline && !declined ? el('button', { type: 'button', class: 'decline', disabled: ctx.busy, onclick: () => sendOnce(ctx, `decline-${o.id}`, decline) }, t('offer.decline')) : null,
        canCounter ? el('button', { type: 'button', class: 'counter-offer', onclick: () => { ctx.setTrade({ give: { ...o.get }, get: { ...o.give }, to: [o.maker] }); ctx.showTab('trade'); } }, t('offer.counter')) : null,
        confirms.map((a) => el('button', { type: 'button', class: 'confirm primary', 'data-seat': a.with, disabled: ctx.busy, onclick: () => sendOnce(ctx, `confirm-${o.id}`, a) }, t('offer.tradeWith', { name: name(a.with) }))),
        cancel ? el('button', { type: 'button', class: 'cancel-offer', disabled: ctx.busy, onclick: () => sendOnce(ctx, `cancel-${o.id}`, cancel) }, t('offer.withdraw')) : null));
  });
  fill(root, el('h2', {}, t('offers.title')), el('ul', { class: 'offers' }, cards));
}

/**
 * A catalogue sentence with `{name}` slots filled by nodes or strings, as a
 * list of children (so the names can be bold and the resources styled).
 */
function parts(text, slots) {
  return text.split(/(\{\w+\})/).filter(Boolean).map((p) => {
    const m = /^\{(\w+)\}$/.exec(p);
    return m && m[1] in slots ? slots[m[1]] : p;
  });
}

const give = (set) => el('span', { class: 'give' }, setText(set));

const get = (set) => el('span', { class: 'get' }, setText(set));

/**
 * Sends an answer at most once per offer: a second click while the first is
 * on its way, or after the server took it, sends nothing.
 */
function sendOnce(ctx, key, action) {
  if (!action || ctx.sent.has(key)) return;
  ctx.sent.add(key);
  ctx.act(action).then((ok) => {
    if (!ok) ctx.sent.delete(key);
  });
}
