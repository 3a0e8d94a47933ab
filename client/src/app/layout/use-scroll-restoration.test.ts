import { expect, test } from 'vitest';
import { positionKey } from './use-scroll-restoration';

test('entries the app pushed keep their own key; every "default" entry (a full page load) is told apart by its address', () => {
  expect(positionKey({ key: 'k1x9', pathname: '/plan', search: '' })).toBe('k1x9');
  const plan = positionKey({ key: 'default', pathname: '/plan', search: '' });
  const confirmation = positionKey({ key: 'default', pathname: '/payment-confirmation', search: '?merchantTransactionId=o1' });
  expect(plan).not.toBe(confirmation);
  expect(confirmation).toBe(positionKey({ key: 'default', pathname: '/payment-confirmation', search: '?merchantTransactionId=o1' }));
  expect(confirmation).not.toBe(positionKey({ key: 'default', pathname: '/payment-confirmation', search: '?merchantTransactionId=o2' }));
});
