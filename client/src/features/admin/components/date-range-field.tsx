import { DatePickerInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import 'dayjs/locale/hi';
import { useTranslation } from 'react-i18next';
import { checkRange, type DayRange } from '../lib/report-range';

/** A report's start–end date picker with the spec's 'Invalid start date' / 'Invalid end date'. */
export function DateRangeField({ value, onChange, required = true, label }: { value: DayRange; onChange: (v: DayRange) => void; required?: boolean; label?: string }) {
  const { t, i18n } = useTranslation('admin-dashboard');
  const empty = !value[0] && !value[1];
  const check = checkRange(value);
  const error = (required || !empty) && !check.ok ? (check.error === 'start' ? t('sale.invalidStart') : t('sale.invalidEnd')) : undefined;
  return (
    <DatePickerInput
      type="range"
      label={label ?? t('sale.range')}
      value={value}
      onChange={(v) => onChange(v as DayRange)}
      locale={i18n.language}
      valueFormat="DD MMM YYYY"
      allowSingleDateInRange
      clearable
      miw={240}
      maw={360}
      error={error}
    />
  );
}

/** The range as epoch-ms filters, or nothing when the field is empty or invalid. */
export function rangeFilter(value: DayRange): { startDate?: number; endDate?: number } {
  const c = checkRange(value);
  return c.ok ? { startDate: c.startDate, endDate: c.endDate } : {};
}
