import { useState } from 'react';

/** The time the screen opened: days left and "ended" stay the same while it is shown (a render is pure). */
export function useNow(): number {
  const [now] = useState(() => Date.now());
  return now;
}
