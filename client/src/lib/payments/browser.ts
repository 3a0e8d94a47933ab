/**
 * The browser's own navigation to another site (the payment provider's hosted page). One
 * object, so that component tests can watch the hand-over: jsdom does not navigate, and its
 * `location.assign` cannot be replaced.
 */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
