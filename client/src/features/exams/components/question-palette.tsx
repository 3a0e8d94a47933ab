import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useStableCallback } from '../../../hooks/use-stable-callback';
import { countStates, type Attempt, PALETTE_STATES, type PaletteState, type Part, paletteState, type Slot } from '../lib/test-engine';
import classes from './test-dialog.module.css';

export const STATE_LABEL: Record<PaletteState, 'state.notVisited' | 'state.notAnswered' | 'state.answered' | 'state.marked' | 'state.answeredMarked'> = {
  NOT_VISITED: 'state.notVisited',
  VISITED: 'state.notAnswered',
  ANSWERED: 'state.answered',
  MARKED: 'state.marked',
  ANSWERED_MARKED: 'state.answeredMarked',
};

export function partLabel(part: Part, t: (k: 'main') => string): string {
  if (!part.section) return t('main');
  return part.sub ? `${part.section} › ${part.sub}` : part.section;
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

/** Question buttons grouped into a Main panel and one per non-empty section (spec §2). */
export function QuestionPalette({
  parts,
  slots,
  answers,
  current,
  onPick,
}: {
  parts: Part[];
  slots: Slot[];
  answers: Attempt['answers'];
  current: number;
  onPick: (index: number) => void;
}) {
  const { t } = useTranslation('exam');
  // A stable callback for the memoised buttons.
  const stablePick = useStableCallback(onPick);
  return (
    <nav aria-label={t('palette')}>
      {parts.map((part) => (
        <section key={part.key} aria-label={partLabel(part, t)}>
          <h3 className={classes.partTitle}>{partLabel(part, t)}</h3>
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
