import { useTranslation } from 'react-i18next';
import type { Progress } from '../../../shared/api/progress.ts';
import { barShare, chartTopHours, shortDate } from './progress-view.ts';

/**
 * Focused hours per week as bars (HTML and CSS: twelve bars need no chart
 * library), with the same figures as a table for screen readers: the bars
 * are hidden from them, the table from the eye.
 */
export function WeeklyChart({
  weeks,
  timeZone,
  language,
  format,
}: {
  weeks: Progress['weeks'];
  timeZone: string;
  language: string;
  format(ms: number): string;
}) {
  const { t } = useTranslation('progress');
  const top = chartTopHours(weeks);
  return (
    <>
      <div className="progress-chart" aria-hidden="true" data-testid="weekly-chart">
        <div className="progress-chart-scale">
          <span>{t('hours_short', { count: top })}</span>
          <span>{t('hours_short', { count: 0 })}</span>
        </div>
        <ol className="progress-chart-bars">
          {weeks.map((week, index) => (
            <li key={week.start} className={index === weeks.length - 1 ? 'is-current' : undefined}>
              <span className="progress-bar" style={{ height: `${barShare(week.focusedMs, top) * 100}%` }} title={format(week.focusedMs)} />
              {/* Every fourth week is named under its bar, counting back from the current one: room for "This week" on a phone. */}
              <span className="progress-chart-label">
                {(weeks.length - 1 - index) % 4 === 0 ? (index === weeks.length - 1 ? t('this_week') : shortDate(week.start, timeZone, language)) : ''}
              </span>
            </li>
          ))}
        </ol>
      </div>
      {/* A table keeps its width whatever its box says: the hidden box around it clips it. */}
      <div className="visually-hidden">
        <table>
          <caption>{t('table_caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('column_week')}</th>
              <th scope="col">{t('column_focused')}</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.start}>
                <th scope="row">{shortDate(week.start, timeZone, language)}</th>
                <td>{format(week.focusedMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
