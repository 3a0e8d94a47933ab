import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableCallback } from '@/hooks/use-stable-callback';
import { countStates, type Attempt, PALETTE_STATES, type PaletteState, type Part, paletteState, type Slot } from '../lib/test-engine';
import classes from './test-dialog.module.css';
import type { SetText } from '@pm/protocol/set-text';

export const STATE_LABEL: Record<PaletteState, 'state.notVisited' | 'state.notAnswered' | 'state.answered' | 'state.marked' | 'state.answeredMarked'> = {
  NOT_VISITED: 'state.notVisited',
  VISITED: 'state.notAnswered',
  ANSWERED: 'state.answered',
  MARKED: 'state.marked',
  ANSWERED_MARKED: 'state.answeredMarked',
};

/**
 * A part's name: Main, a section's, or "section › sub-section", in the learner's language where
 * the set has it (`text`, sync-protocol set-text.ts; English otherwise).
 */
export function partLabel(part: Part, t: (k: 'main') => string, text?: Pick<SetText, 'part'>): string {
  if (!part.section) return t('main');
  const section = text ? text.part(part.section) : part.section;
  if (!part.sub) return section;
  return `${section} › ${text ? text.part(part.section, part.sub) : part.sub}`;
}

/** The NTA legend: the five states with their shapes, colours and counts. */
export function PaletteLegend({ qids, answers }: { qids: string[]; answers: Attempt['answers'] }) {
  const { t } = useTranslation('exam');
  const counts = countStates(qids, answers);
  return (
    <div className={classes.legend} aria-label={t('legend')} role="list">
      {PALETTE_STATES.map((s) => (
        <div key={s} role="listitem">
          <span className={`${classes.pal} ${classes.small}`} data-state={s} aria-hidden>
            {counts[s]}
          </span>
          <span>{t(STATE_LABEL[s])}</span>
        </div>
      ))}
    </div>
  );
}

/** One palette button; memoised so that a tap re-renders only the buttons whose state changed. */
const PaletteButton = memo(function PaletteButton({ n, state, current, onPick }: { n: number; state: PaletteState; current: boolean; onPick: (i: number) => void }) {
  const { t } = useTranslation('exam');
  return (
    <button
      type="button"
      className={classes.pal}
      data-state={state}
      data-current={current || undefined}
      aria-current={current ? 'step' : undefined}
      aria-label={t('paletteItem', { n, state: t(STATE_LABEL[state]) })}
      onClick={() => onPick(n - 1)}
    >
      {n}
    </button>
  );
});

/** Question buttons grouped into a Main panel and one per non-empty section. */
export function QuestionPalette({
  parts,
  slots,
  answers,
  current,
  onPick,
  text,
}: {
  parts: Part[];
  slots: Slot[];
  answers: Attempt['answers'];
  current: number;
  onPick: (index: number) => void;
  /** The set's names in the learner's language (set-text.ts). */
  text?: Pick<SetText, 'part'>;
}) {
  const { t } = useTranslation('exam');
  // A stable callback for the memoised buttons.
  const stablePick = useStableCallback(onPick);
  return (
    <nav aria-label={t('palette')}>
      {parts.map((part) => (
        <section key={part.key} aria-label={partLabel(part, t, text)}>
          <h3 className={classes.partTitle}>{partLabel(part, t, text)}</h3>
          <div className={classes.grid}>
            {slots
              .filter((s) => s.part === part)
              .map((s) => (
                <PaletteButton key={s.qid} n={s.n} state={paletteState(answers[s.qid])} current={s.n - 1 === current} onPick={stablePick} />
              ))}
          </div>
        </section>
      ))}
    </nav>
  );
}
