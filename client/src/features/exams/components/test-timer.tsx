import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableCallback } from '@/hooks/use-stable-callback';
import { serverClock } from '@/db/sync/server-clock';
import { clockParts, remainingSeconds, timerTone } from '../lib/test-engine';
import classes from './test-dialog.module.css';

/**
 * Remaining time on server-corrected time (ARCHITECTURE decision 5), ticking every second
 * (docs/exams.md "The exam screens"). Closing the app does not stop the clock, as in the real exam. At zero it calls
 * `onTimeUp` once: the test is submitted automatically.
 */
export function TestTimer({ st, durationS, onTimeUp }: { st: number; durationS: number; onTimeUp: () => void }) {
  const { t } = useTranslation('exam');
  const [remaining, setRemaining] = useState(() => remainingSeconds(st, durationS, serverClock.now()));
  const fired = useRef(false);
  const timeUp = useStableCallback(onTimeUp);

  useEffect(() => {
    const tick = () => {
      const r = remainingSeconds(st, durationS, serverClock.now());
      setRemaining(r);
      if (r === 0 && !fired.current) {
        fired.current = true;
        timeUp();
      }
    };
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [st, durationS, timeUp]);

  const { h, m, s } = clockParts(remaining);
  return (
    <span className={classes.timer} data-tone={timerTone(remaining, durationS)} role="timer" aria-label={t('timeLeft')} data-testid="timer">
      {t('clock', { h, m, s })}
    </span>
  );
}
