// Trading: with the bank or a harbour at your best rate, and with players:
// offers to everyone or chosen players, accept / decline / counter-offer, and
// the active player choosing among those who accepted. Offers are not listed
// in the legal actions (their terms are open), so the composer checks what
// the rules say about who may offer and the server has the last word.

import { el, RESOURCES, emptySet, setText, total, fill } from './util.js';

/** Fresh composer state. */
export function freshTrade() {
  return { give: emptySet(), get: emptySet(), to: null, bankGive: null, bankGet: null };
}

function counter(label, value, onChange, max, key) {
  return el('span', { class: 'counter', 'data-key': key },
    el('button', { type: 'button', 'aria-label': `${label}: one less`, class: 'less', disabled: value <= 0, onclick: () => onChange(value - 1) }, '−'),
    el('output', { 'aria-label': label }, String(value)),
    el('button', { type: 'button', 'aria-label': `${label}: one more`, class: 'more', disabled: value >= max, onclick: () => onChange(value + 1) }, '+'));
}

/** Whether this seat may make an offer now (RULES.md R26-R27). */
export function mayOffer(view, seat) {
  return seat !== null && view.phase === 'action';
}

/** The trade panel. */
export function renderTrade(root, ctx) {
  const { view, seat, legal, trade, name } = ctx;
  if (seat === null) {
    fill(root, el('h2', {}, 'Trades'), offersList(ctx));
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
  const bank = el('div', { class: 'bank-trade', role: 'group', 'aria-label': 'Trade with the bank' },
    el('h3', {}, 'Bank and harbours'),
    el('p', { class: 'rates' }, 'Your rates: ', RESOURCES.map((r, i) => el('span', { class: `rate${rates[i] < 4 ? ' better' : ''}` }, `${r} ${rates[i]}:1`))),
    el('label', { for: 'bank-give' }, 'Give '),
    el('select', { id: 'bank-give', onchange: (ev) => set({ bankGive: ev.target.value }) },
      RESOURCES.map((r, i) => el('option', { value: r, selected: r === bankGive }, `${rates[i]} ${r}`))),
    el('label', { for: 'bank-get' }, ' for 1 '),
    el('select', { id: 'bank-get', onchange: (ev) => set({ bankGet: ev.target.value }) },
      RESOURCES.map((r) => el('option', { value: r, selected: r === bankGet }, r))),
    ' ',
    el('button', { type: 'button', id: 'bank-trade', disabled: ctx.busy || !bankAction, onclick: () => ctx.act(bankAction) }, 'Trade'));

  // Offer composer.
  const others = view.players.map((p) => p.seat).filter((s) => s !== seat);
  const active = view.active === seat;
  const overlap = RESOURCES.some((r) => trade.give[r] > 0 && trade.get[r] > 0);
  const holds = RESOURCES.every((r) => trade.give[r] <= (hand[r] || 0));
  const canSend = mayOffer(view, seat) && total(trade.give) > 0 && total(trade.get) > 0 && !overlap && holds && !ctx.busy;
  const to = active ? trade.to : null;
  const offer = () => {
    ctx.act({ type: 'offer_trade', give: trade.give, get: trade.get, to: to && to.length < others.length ? to : null });
    set({ give: emptySet(), get: emptySet() });
  };
  const composer = el('div', { class: 'offer-composer', role: 'group', 'aria-label': 'Offer a trade' },
    el('h3', {}, active ? 'Offer a trade' : `Counter-offer to ${name(view.active)}`),
    el('table', { class: 'offer-grid' },
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { scope: 'col' }, 'You give'), el('th', { scope: 'col' }, 'You get'))),
      el('tbody', {}, RESOURCES.map((r) => el('tr', { 'data-resource': r },
        el('th', { scope: 'row' }, r),
        el('td', {}, counter(`give ${r}`, trade.give[r], (v) => set({ give: { ...trade.give, [r]: v } }), hand[r] || 0, `give-${r}`)),
        el('td', {}, counter(`get ${r}`, trade.get[r], (v) => set({ get: { ...trade.get, [r]: v } }), 19, `get-${r}`)))))),
    active
      ? el('fieldset', { class: 'recipients' }, el('legend', {}, 'Offer to'),
        others.map((s) => el('label', {}, el('input', {
          type: 'checkbox', name: 'offer-to', value: s, checked: !trade.to || trade.to.includes(s),
          onchange: (ev) => {
            const cur = new Set(trade.to || others);
            if (ev.target.checked) cur.add(s); else cur.delete(s);
            set({ to: [...cur].sort() });
          },
        }), ` ${name(s)}`)))
      : null,
    overlap ? el('p', { class: 'hint' }, 'A resource cannot be on both sides.') : null,
    !holds ? el('p', { class: 'hint' }, 'You do not hold what you offer.') : null,
    el('button', { type: 'button', id: 'make-offer', class: 'primary', disabled: !canSend || (active && trade.to && trade.to.length === 0), onclick: offer },
      active ? 'Make offer' : 'Send counter-offer'),
    el('button', { type: 'button', onclick: () => set({ give: emptySet(), get: emptySet() }) }, 'Clear'));

  fill(root, el('h2', {}, 'Trades'), offersList(ctx), view.phase === 'action' ? composer : null, view.phase === 'action' && active ? bank : null);
}

function offersList(ctx) {
  const { view, legal, name, seat } = ctx;
  if (!view.offers.length) return el('p', { class: 'hint', id: 'no-offers' }, 'No open offers.');
  const find = (type, offer, extra = {}) => legal.find((a) => a.type === type && a.offer === offer
    && Object.entries(extra).every(([k, v]) => a[k] === v));
  return el('ul', { class: 'offers' }, view.offers.map((o) => {
    const accept = find('accept_trade', o.id);
    const decline = find('decline_trade', o.id);
    const cancel = find('cancel_trade', o.id);
    const confirms = legal.filter((a) => a.type === 'confirm_trade' && a.offer === o.id);
    const canCounter = seat !== null && o.maker !== seat && view.phase === 'action';
    return el('li', { class: 'offer', 'data-offer': o.id },
      el('p', {}, el('strong', {}, name(o.maker)), o.counter ? ' counter-offers ' : ' offers ',
        el('span', { class: 'give' }, setText(o.give)), ' for ', el('span', { class: 'get' }, setText(o.get)),
        o.to.length && !o.counter ? ` to ${o.to.map(name).join(', ')}` : ''),
      el('p', { class: 'responses' },
        o.accepted.length ? `Accepted: ${o.accepted.map(name).join(', ')}. ` : '',
        o.declined.length ? `Declined: ${o.declined.map(name).join(', ')}.` : ''),
      el('div', { class: 'offer-buttons' },
        accept ? el('button', { type: 'button', class: 'accept primary', disabled: ctx.busy, onclick: () => ctx.act(accept) }, 'Accept') : null,
        decline ? el('button', { type: 'button', class: 'decline', disabled: ctx.busy, onclick: () => ctx.act(decline) }, 'Decline') : null,
        canCounter ? el('button', { type: 'button', class: 'counter-offer', onclick: () => ctx.setTrade({ give: { ...o.get }, get: { ...o.give }, to: [o.maker] }) }, 'Counter…') : null,
        confirms.map((a) => el('button', { type: 'button', class: 'confirm primary', 'data-seat': a.with, disabled: ctx.busy, onclick: () => ctx.act(a) }, `Trade with ${name(a.with)}`)),
        cancel ? el('button', { type: 'button', class: 'cancel-offer', disabled: ctx.busy, onclick: () => ctx.act(cancel) }, 'Withdraw') : null));
  }));
}
