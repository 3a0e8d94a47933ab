import { Alert, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverClock } from '@/db/sync/server-clock';
import { api } from '@/lib/api-client';
import { formatUnlockCode, type LiveDetail, mayStartAt, unlockCodeOf, windowEnd } from '@pm/protocol/live-test';

/** Server time now, again every second (the countdown; the window's state). */
function useServerNow(): number {
  const [now, setNow] = useState(() => serverClock.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverClock.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** `h:mm:ss` (or `m:ss`) until `ms` from now. */
function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

type Props = {
  qsid: string;
  live: LiveDetail;
  registered: boolean;
  /** The paper is open (the key came, online or from a code). */
  opened: boolean;
  /** The key, when open: the device shows the code to pass on to a friend. */
  keyB64: string | null;
  unlock(code: string): Promise<'typo' | 'wrong' | null>;
};

/**
 * A live test on the exam intro (docs/live-tests.md "Live tests"): registration, the countdown to
 * the start on the server's clock, the unlock code for a device that was offline at the start,
 * the code shown once open (for a friend's device), and the window's end: starting after it is
 * refused here as on the server.
 */
export function LiveTestPanel({ qsid, live, registered, opened, keyB64, unlock }: Props) {
  const { t, i18n } = useTranslation('exam');
  const now = useServerNow();
  const phase = mayStartAt(live, now);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sms, setSms] = useState(true);
  const [busy, setBusy] = useState(false);
  const [registeredNow, setRegisteredNow] = useState(false);
  const [shareCode, setShareCode] = useState<string | null>(null);
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeStyle: 'short' });

  useEffect(() => {
    let cancelled = false;
    if (keyB64) void unlockCodeOf(keyB64, qsid).then((c) => !cancelled && setShareCode(formatUnlockCode(c)));
    return () => {
      cancelled = true;
    };
  }, [keyB64, qsid]);

  const register = async () => {
    setBusy(true);
    try {
      await api('/live/register', { method: 'POST', body: { qsid, sms, lang: i18n.language === 'hi' ? 'hi' : 'en' } });
      setRegisteredNow(true);
    } catch {
      // The API client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const tryCode = async () => {
    setBusy(true);
    const out = await unlock(code);
    setBusy(false);
    setError(out === null ? null : t(`live.code.${out}`));
  };

  return (
    <Alert color={phase === 'closed' ? 'gray' : 'grape'} title={t('live.title')} data-testid="live-test">
      <Stack gap="xs">
        <Text size="sm">{t('live.times', { start: time(live.start), end: time(windowEnd(live)), result: time(live.res) })}</Text>
        {phase === 'early' && (
          <Text fw={700} size="lg" data-testid="live-countdown">
            {t('live.startsIn', { time: countdown(live.start - now) })}
          </Text>
        )}
        {phase === 'closed' && <Text size="sm">{t('live.closed')}</Text>}
        {!registered && !registeredNow && phase !== 'closed' && (
          <Group>
            <Checkbox label={t('live.smsCode')} checked={sms} onChange={(e) => setSms(e.currentTarget.checked)} />
            <Button size="sm" loading={busy} onClick={() => void register()} data-testid="live-register">
              {t('live.register')}
            </Button>
          </Group>
        )}
        {(registered || registeredNow) && <Text size="sm">{t('live.registered')}</Text>}
        {phase === 'open' && !opened && (
          <Stack gap={4}>
            <Text size="sm">{t('live.needCode')}</Text>
            <Group align="flex-end">
              <TextInput
                label={t('live.code.label')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                error={error}
                maxLength={14}
                autoCapitalize="characters"
                autoComplete="off"
                data-testid="live-code"
              />
              <Button loading={busy} onClick={() => void tryCode()} disabled={code.trim() === ''}>
                {t('live.code.open')}
              </Button>
            </Group>
          </Stack>
        )}
        {opened && shareCode && phase === 'open' && (
          <Text size="sm" data-testid="live-share-code">
            {t('live.shareCode', { code: shareCode })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
