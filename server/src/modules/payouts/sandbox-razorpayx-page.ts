/*
 * The sandbox's developer page (/sandbox/razorpayx; docs/configuration.md "Payouts"): the payouts
 * made, newest first, with buttons to fail a processing one or reverse a processed one (each
 * sends the webhook). English only (a developer's page), readable at 360 px; no script.
 */

type PayoutRow = { id: string; fund_account_id: string; amount: number; mode: string; reference_id: string | null; status: string; utr: string | null; created_at: number };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const rupees = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:1rem auto;padding:0 .75rem;color:#1f1f1f}h1{font-size:1.3rem;color:#0b3d91}' +
  'ul{list-style:none;padding:0}li{border:1px solid #ccd;border-radius:.4rem;padding:.6rem;margin:.5rem 0;overflow-wrap:anywhere}' +
  '.row{display:flex;flex-wrap:wrap;gap:.3rem 1rem}.status{font-weight:600}form{display:inline}button{font:inherit;margin:.4rem .4rem 0 0;padding:.4rem .8rem;border-radius:.3rem;border:1px solid #0b3d91;background:#fff}';

function button(id: string, to: 'fail' | 'reverse', label: string) {
  return `<form method="post" action="/sandbox/razorpayx/payouts/${encodeURIComponent(id)}/${to}"><button type="submit">${label}</button></form>`;
}

function item(p: PayoutRow, payee: string): string {
  const buttons = p.status === 'processing' ? button(p.id, 'fail', 'Fail') : p.status === 'processed' ? button(p.id, 'reverse', 'Reverse') : '';
  return (
    `<li><div class="row"><span class="status">${escapeHtml(p.status)}</span><span>${escapeHtml(rupees(p.amount))}</span><span>${escapeHtml(p.mode)}</span>` +
    `<span>to ${escapeHtml(payee)}</span></div><div class="row"><span>${escapeHtml(p.id)}</span><span>withdrawal ${escapeHtml(p.reference_id ?? '—')}</span>` +
    `<span>UTR ${escapeHtml(p.utr ?? '—')}</span><span>${escapeHtml(new Date(p.created_at * 1000).toISOString())}</span></div>${buttons}</li>`
  );
}

export function sandboxPage(payouts: PayoutRow[], fundAccounts: ReadonlyMap<string, { name: string; number: string; account_type: string }>): string {
  const payeeOf = (p: PayoutRow) => {
    const fa = fundAccounts.get(p.fund_account_id);
    if (!fa) return p.fund_account_id;
    return fa.account_type === 'vpa' ? `${fa.name} (${fa.number})` : `${fa.name} (…${fa.number.slice(-4)})`;
  };
  const list = payouts.length === 0 ? '<p>No payouts yet.</p>' : `<ul>${payouts.map((p) => item(p, payeeOf(p))).join('')}</ul>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>RazorpayX sandbox</title><style>${STYLE}</style></head><body><main><h1>RazorpayX sandbox: payouts</h1>` +
    '<p>A test payout system: no money moves. Payouts are processed shortly after they are made (paise ending 13 fail); ' +
    'Fail and Reverse send the webhook as RazorpayX would.</p>' +
    `${list}</main></body></html>`
  );
}
