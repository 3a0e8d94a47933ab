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
