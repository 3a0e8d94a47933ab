import { expect, test } from 'vitest';
import { SITE_CSP, securityHeaders } from './security-headers';

const csp = (list: readonly (readonly [string, string])[]) => list.find(([n]) => n === 'Content-Security-Policy')?.[1] ?? '';

test('the site policy lets Razorpay Checkout load only when Razorpay is the payment provider', () => {
  expect(csp(securityHeaders('/plan', false))).toBe(SITE_CSP);
  expect(SITE_CSP).not.toContain('razorpay');
  const withRazorpay = csp(securityHeaders('/plan', false, { razorpay: true }));
  expect(withRazorpay).toContain("script-src 'self' https://checkout.razorpay.com");
  expect(withRazorpay).toContain("connect-src 'self' https://api.razorpay.com https://lumberjack.razorpay.com");
  expect(withRazorpay).toContain('frame-src https://api.razorpay.com https://checkout.razorpay.com');
  // Everything else stays as strict as without it.
  expect(withRazorpay).toContain("object-src 'none'");
  expect(withRazorpay).toContain("frame-ancestors 'none'");
  // The API's and the images' policies do not change.
  expect(csp(securityHeaders('/api/plan', false, { razorpay: true }))).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(csp(securityHeaders('/media/x.png', false, { razorpay: true }))).toContain('sandbox');
});

test('the build\'s scripts, styles and fonts get the subresource set; its SVGs, the worker and pages the site set', () => {
  const names = (path: string, tls = false) => securityHeaders(path, tls).map(([n]) => n);
  for (const path of ['/assets/index-AbC123.js', '/assets/index-AbC123.css', '/assets/noto-sans-devanagari-400.woff2', '/assets/KaTeX_Main-Regular-ypZvNtVU.ttf']) {
    expect(names(path), path).toEqual(['Cross-Origin-Resource-Policy', 'Referrer-Policy', 'X-Content-Type-Options']);
    expect(names(path, true), path).toContain('Strict-Transport-Security');
  }
  for (const path of ['/assets/slide-compete-im3y0qus.svg', '/sw.js', '/workbox-f641ca17.js', '/push-sw.js', '/', '/assets/', '/assets/x/y.js']) {
    expect(csp(securityHeaders(path, false)), path).toBe(SITE_CSP);
  }
});
