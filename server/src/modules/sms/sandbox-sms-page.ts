import type { SandboxMessage } from './sandbox-sms';

/*
 * The SMS sandbox's developer page (/sandbox/sms; docs/sms.md "The sandbox"): the numbers that
 * sent or got messages, the messages of one number newest first, and a form that sends a message
 * from a number to ours. English only (a developer's page), readable at 360 px; no script.
 */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:1rem auto;padding:0 .75rem;color:#1f1f1f}h1{font-size:1.3rem;color:#0b3d91}h2{font-size:1.1rem}' +
  'ul{list-style:none;padding:0}li{border:1px solid #ccd;border-radius:.4rem;padding:.6rem;margin:.5rem 0;overflow-wrap:anywhere}' +
  '.row{display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.9rem;color:#444}.text{white-space:pre-wrap;margin:.3rem 0}' +
  'label{display:block;margin:.5rem 0 .2rem}input,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.4rem}' +
  'button{font:inherit;margin:.5rem 0;padding:.4rem .8rem;border-radius:.3rem;border:1px solid #0b3d91;background:#fff}nav{display:flex;flex-wrap:wrap;gap:.3rem .8rem}';

const rupees = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);

function item(m: SandboxMessage, partPricePaise: number): string {
  const direction = m.direction === 'out' ? `to ${m.number}` : `from ${m.number}`;
  return (
    `<li><div class="row"><span>${escapeHtml(direction)}</span><span>${escapeHtml(m.status)}</span><span>${m.parts} part${m.parts === 1 ? '' : 's'} ${escapeHtml(m.encoding)}${m.direction === 'out' ? ` ≈ ${escapeHtml(rupees(m.parts * partPricePaise))}` : ''}</span>` +
    `<span>${escapeHtml(m.kind ?? '')}</span><span>${escapeHtml(new Date(m.at).toISOString())}</span></div><p class="text">${escapeHtml(m.text)}</p></li>`
  );
}

function numbersNav(messages: readonly SandboxMessage[]): string {
  const numbers = [...new Set(messages.map((m) => m.number))].sort();
  if (numbers.length === 0) return '<p>No messages yet.</p>';
  return `<nav aria-label="Numbers">${numbers.map((n) => `<a href="/sandbox/sms?number=${encodeURIComponent(n)}">${escapeHtml(n)}</a>`).join('')}</nav>`;
}

export function sandboxSmsPage(messages: readonly SandboxMessage[], number: string | null, protocol: string, partPricePaise: number): string {
  const shown = (number ? messages.filter((m) => m.number === number) : messages).slice().reverse();
  const heading = number ? `Messages of ${escapeHtml(number)}` : 'All messages';
  const list = shown.length === 0 ? '<p>None.</p>' : `<ul>${shown.map((m) => item(m, partPricePaise)).join('')}</ul>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>SMS sandbox</title><style>${STYLE}</style></head><body><main><h1>SMS sandbox</h1>` +
    `<p>A test SMS provider speaking ${escapeHtml(protocol)}'s protocol: no phone gets anything. Numbers starting 55500 are switched off (no delivery report), ` +
    'numbers starting 55501 are refused by the operator (a failed report); every other number gets its messages at once.</p>' +
    `${numbersNav(messages)}<h2>${heading}</h2>${list}` +
    '<h2>Send a message to our number</h2><form method="post" action="/sandbox/sms/send-inbound">' +
    `<label for="from">From (mobile)</label><input id="from" name="from" inputmode="tel" required value="${escapeHtml(number ?? '')}">` +
    '<label for="text">Text</label><textarea id="text" name="text" rows="3" required maxlength="1600"></textarea>' +
    '<button type="submit">Send</button></form></main></body></html>'
  );
}
