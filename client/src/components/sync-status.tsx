import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { useReplica } from '../db/learner/replica-context';
import { getSyncStatus, subscribeSyncStatus, type SyncStatus, waitingUploads } from '../db/sync/sync-status';
import classes from './sync-status.module.css';
import { relativeTimeFormat } from '../lib/intl-format';

type Tone = 'ok' | 'busy' | 'warn' | 'off';

function toneOf(s: SyncStatus): Tone {
  if (!s.online || s.phase === 'offline') return 'off';
  if (s.phase === 'signed-out' || s.phase === 'error') return 'warn';
  if (s.phase === 'syncing' || s.phase === 'idle' || waitingUploads(s) > 0) return 'busy';
  return 'ok';
}

/** "2 minutes ago" in the page language, from the platform's Intl (no date library needed). */
function useRelativeTime(time: number | null): string | null {
  const { i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(id);
  }, []);
  if (time === null) return null;
  const seconds = Math.round((time - Math.max(now, time)) / 1000);
  const rtf = relativeTimeFormat(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', { numeric: 'auto' });
  if (seconds > -45) return rtf.format(0, 'second');
  if (seconds > -3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (seconds > -86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

/**
 * The sync status every signed-in person sees (docs/replication.md "Sync status"): online or offline, how many changes
 * wait to upload ("All saved" when none) and the last successful sync; the button opens the
 * details and a "Sync now" action.
 */
export function SyncStatusIndicator({ onLogoutErase }: { onLogoutErase: () => void }) {
  const { t } = useTranslation();
  const status = useSyncExternalStore(subscribeSyncStatus, getSyncStatus, getSyncStatus);
  const replica = useReplica();
  const [open, setOpen] = useState(false);
  const [confirmErase, setConfirmErase] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const lastSync = useRelativeTime(status.lastSync);
  const toggle = (next: boolean) => {
    setOpen(next);
    setConfirmErase(false);
  };
  const tone = toneOf(status);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) toggle(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') toggle(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const connection = status.online && status.phase !== 'offline' ? t('sync.online') : t('sync.offline');
  const waiting = waitingUploads(status);
  const uploads = waiting > 0 ? t('sync.pending', { count: waiting }) : t('sync.allSaved');
  const short =
    status.phase === 'syncing' && waiting === 0 && status.online ? t('sync.syncing') : tone === 'off' ? `${connection} · ${uploads}` : uploads;

  return (
    <div className={classes.root} ref={root}>
      <button
        type="button"
        className={classes.pill}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('sync.label', { connection, uploads })}
        data-testid="sync-status"
        data-phase={status.phase}
        onClick={() => toggle(!open)}
      >
        <span className={classes.dot} data-tone={tone} aria-hidden />
        <span className={classes.short}>{short}</span>
      </button>
      {open && (
        <div className={classes.panel} id={panelId} role="dialog" aria-label={t('sync.title')}>
          <dl>
            <dt>{t('sync.connection')}</dt>
            <dd>{connection}</dd>
            <dt>{t('sync.uploads')}</dt>
            <dd>{uploads}</dd>
            <dt>{t('sync.lastSync')}</dt>
            <dd>{lastSync ?? t('sync.never')}</dd>
          </dl>
          {status.phase === 'signed-out' && <p className={classes.note}>{t('sync.signInAgain')}</p>}
          {status.phase === 'error' && <p className={classes.note}>{t('sync.retrying')}</p>}
          {/* An upload the server refused for want of a plan (402, docs/payments.md "Without a plan"). */}
          {!!status.planRequired?.length && (
            <p className={classes.note} data-testid="sync-plan-required">
              {t('sync.planRequired')} <Link to={paths.plan}>{t('sync.seePlans')}</Link>
            </p>
          )}
          {(!status.online || status.phase === 'offline') && <p className={classes.note}>{t('sync.offlineNote')}</p>}
          {confirmErase ? (
            <div role="group" aria-label={t('sync.eraseTitle')}>
              <p>
                <strong>{t('sync.eraseTitle')}</strong>
              </p>
              <p>{t('sync.eraseText')}</p>
              {waitingUploads(status) > 0 && <p className={classes.note}>{t('sync.erasePending', { count: waitingUploads(status) })}</p>}
              <div className={classes.actions}>
                <button type="button" className={classes.action} data-variant="danger" onClick={onLogoutErase}>
                  {t('sync.eraseConfirm')}
                </button>
                <button type="button" className={classes.action} data-variant="subtle" onClick={() => setConfirmErase(false)}>
                  {t('sync.cancel')}
                </button>
              </div>
            </div>
          ) : (
            <div className={classes.actions}>
              <button type="button" className={classes.action} disabled={!replica || !status.online} onClick={() => replica?.syncNow()}>
                {t('sync.syncNow')}
              </button>
              <button type="button" className={classes.action} data-variant="subtle" onClick={() => setConfirmErase(true)}>
                {t('sync.logoutErase')}
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
