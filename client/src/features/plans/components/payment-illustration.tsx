/**
 * The confirmation page's images (a success or failure image), drawn inline so that
 * they need no download and follow the theme's colours.
 */
export function PaymentSuccessImage({ label }: { label: string }) {
  return (
    <svg width="160" height="120" viewBox="0 0 160 120" role="img" aria-label={label} data-testid="payment-success-image">
      <rect x="18" y="26" width="104" height="68" rx="10" fill="var(--mantine-color-teal-0)" stroke="var(--mantine-color-teal-4)" strokeWidth="3" />
      <rect x="18" y="40" width="104" height="12" fill="var(--mantine-color-teal-2)" />
      <rect x="30" y="66" width="40" height="8" rx="4" fill="var(--mantine-color-teal-3)" />
      <circle cx="118" cy="82" r="26" fill="var(--mantine-color-teal-6)" />
      <path d="M105 82 l9 9 l17 -18" fill="none" stroke="white" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function PaymentFailureImage({ label }: { label: string }) {
  return (
    <svg width="160" height="120" viewBox="0 0 160 120" role="img" aria-label={label} data-testid="payment-failure-image">
      <rect x="18" y="26" width="104" height="68" rx="10" fill="var(--mantine-color-red-0)" stroke="var(--mantine-color-red-3)" strokeWidth="3" />
      <rect x="18" y="40" width="104" height="12" fill="var(--mantine-color-red-2)" />
      <rect x="30" y="66" width="40" height="8" rx="4" fill="var(--mantine-color-red-2)" />
      <circle cx="118" cy="82" r="26" fill="var(--mantine-color-red-6)" />
      <path d="M108 72 l20 20 M128 72 l-20 20" fill="none" stroke="white" strokeWidth="6" strokeLinecap="round" />
    </svg>
  );
}
