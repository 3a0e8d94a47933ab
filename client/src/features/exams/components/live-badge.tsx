import { Badge, Group, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverClock } from '@/db/sync/server-clock';
import { formatDate } from '@/lib/intl-format';
import { mayStartAt, windowEnd } from '@pm/protocol/live-test';
import type { LiveTimes } from '../hooks/use-exam-list';

/** Where a live test stands on the exam list: before its start, open to start, results to come, results out. */
export type LiveListPhase = 'early' | 'open' | 'closed' | 'results';

/** The phase at `now` (server time), by the same rule the exam intro and the server start by. */
export function liveListPhase(live: LiveTimes, now: number): LiveListPhase {
  const phase = mayStartAt(live, now);
  return phase === 'closed' && now >= live.res ? 'results' : phase;
}

/** The next moment (server time) the phase changes after `now`; null when it never changes again. */
export function nextPhaseChange(live: LiveTimes, now: number): number | null {
  // mayStartAt counts the window's last millisecond as open: closed starts one after it.
  return [live.start, windowEnd(live) + 1, live.res].find((at) => at > now) ?? null;
}

/** A day: timers are set at most this far ahead (a longer delay overflows setTimeout and fires at once). */
const MAX_WAIT_MS = 86_400_000;

/**
 * The phase by the server's clock, drawn again only when it changes: a timer to the next change,
 * not a tick every second on every card of the list (docs/benchmarks.md "bench:lighthouse").
 */
function useLiveListPhase(live: LiveTimes): LiveListPhase {
  const [phase, setPhase] = useState(() => liveListPhase(live, serverClock.now()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = () => {
      const now = serverClock.now();
      setPhase(liveListPhase(live, now));
      const next = nextPhaseChange(live, now);
      if (next !== null) timer = setTimeout(follow, Math.min(next - now, MAX_WAIT_MS));
    };
    follow();
    return () => clearTimeout(timer);
  }, [live]);
  return phase;
}

/**
 * A live test's badge on the exam list (docs/live-tests.md "Live tests", "On the exam list"):
 * "Live" and when — its start, open now until the window's end, or when its results open.
 */
export function LiveBadge({ live }: { live: LiveTimes }) {
  const { t, i18n } = useTranslation('exam');
  const phase = useLiveListPhase(live);
  const lang = i18n.language;
  const when =
    phase === 'early'
      ? t('live.list.startsAt', { time: formatDate(live.start, lang, 'dateTime') })
      : phase === 'open'
        ? t('live.list.openNow', { time: formatDate(windowEnd(live), lang, 'time') })
        : phase === 'closed'
          ? t('live.list.resultsAt', { time: formatDate(live.res, lang, 'dateTime') })
          : t('live.list.resultsOut');
  return (
    <Group gap={6} wrap="wrap" data-testid="live-badge" data-phase={phase}>
      <Badge color="grape" variant={phase === 'open' ? 'filled' : 'light'} leftSection={<IconBroadcast size={12} aria-hidden />}>
        {t('live.list.badge')}
      </Badge>
      <Text size="sm" fw={phase === 'open' ? 700 : 500} data-testid="live-when">
        {when}
      </Text>
    </Group>
  );
}
