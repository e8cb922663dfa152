import type { LucideIcon } from 'lucide-react';
import CalendarCheck from 'lucide-react/icons/calendar-check';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import Clock from 'lucide-react/icons/clock';
import Flame from 'lucide-react/icons/flame';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Trophy from 'lucide-react/icons/trophy';
import { useTranslation } from 'react-i18next';
import { RouterLink } from '../../app/RouterLink.tsx';
import type { Progress } from '../../../shared/api/progress.ts';
import { MINUTE_MS } from '../../../shared/durations.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { Chip, type ChipTone } from '../../ui/Chip.tsx';
import { dateWithWeekday, timeRange, useLanguage, useTimeZone } from '../reservations/common.ts';
import { type HistoryOutcome, outcomeOfFinish } from '../reservations/reservation-view.ts';
import { useProgressReadQuery } from './api.ts';
import { attendancePercent, hoursAndMinutes, totalFocusedMs } from './progress-view.ts';
import { WeeklyChart } from './WeeklyChart.tsx';
import './progress.css';

const OUTCOME_TONES: Record<HistoryOutcome, ChipTone> = {
  finished: 'success',
  early: 'warning',
  forced: 'danger',
  warden: 'warning',
  ignored: 'danger',
  skipped: 'neutral',
  paused: 'neutral',
};

function Tile({ icon: Icon, label, value, detail, testId }: { icon: LucideIcon; label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="progress-tile" data-testid={testId}>
      <Icon className="progress-tile-icon" aria-hidden="true" focusable="false" size={22} />
      <p className="progress-tile-label">{label}</p>
      <p className="progress-tile-value">{value}</p>
      {detail === undefined ? null : <p className="progress-tile-detail">{detail}</p>}
    </div>
  );
}

function Figures({ progress }: { progress: Progress }) {
  const { t } = useTranslation(['progress', 'reservations/list']);
  const language = useLanguage();
  const timeZone = useTimeZone();
  const duration = (ms: number) => {
    const { hours, minutes } = hoursAndMinutes(ms);
    return hours === 0 ? t('minutes_only', { minutes }) : t('hours_minutes', { hours, minutes });
  };
  const percent = attendancePercent(progress.attendance);
  const thisWeek = progress.weeks.at(-1)?.focusedMs ?? 0;
  return (
    <>
      <div className="progress-tiles">
        <Tile icon={Flame} testId="current-streak" label={t('current_streak')} value={t('days', { count: progress.currentStreak })} />
        <Tile icon={Trophy} testId="best-streak" label={t('best_streak')} value={t('days', { count: progress.bestStreak })} />
        <Tile
          icon={CalendarCheck}
          testId="attendance"
          label={t('attendance')}
          value={percent === null ? '–' : t('percent', { percent })}
          detail={percent === null ? t('attendance_none') : t('attendance_detail', progress.attendance)}
        />
        <Tile icon={Clock} testId="this-week" label={t('this_week')} value={duration(thisWeek)} />
      </div>
      <p className="progress-note">{t('streak_note')}</p>
      <Card title={t('weekly_heading')}>
        <WeeklyChart weeks={progress.weeks} timeZone={timeZone} language={language} format={duration} />
        <p className="progress-total">{t('weekly_total', { total: duration(totalFocusedMs(progress.weeks)) })}</p>
      </Card>
      <Card title={t('recent_heading')}>
        <ul className="progress-recent">
          {progress.recentJails.map((jail) => {
            const outcome = outcomeOfFinish(jail.finish);
            return (
              <li key={jail.id} data-testid="recent-jail">
                <RouterLink to={`/reservation/${jail.id}`}>
                  <span className="progress-recent-when">
                    {dateWithWeekday(jail.startTime, timeZone, language)} · {timeRange(jail.startTime, jail.endTime, timeZone)}
                  </span>
                  <span className="progress-recent-work">{jail.work === '' ? t('reservations/list:no_work') : jail.work}</span>
                  <span className="progress-recent-figures">
                    <Chip tone={OUTCOME_TONES[outcome]}>{t(`reservations/list:outcome_${outcome}`)}</Chip>
                    <span>{t('focused_minutes', { count: Math.floor(jail.focusedMs / MINUTE_MS) })}</span>
                  </span>
                </RouterLink>
              </li>
            );
          })}
        </ul>
      </Card>
    </>
  );
}

/** /progress (docs/progress.md): focused hours by week, streaks, attendance and the last jails. */
export function ProgressScreen() {
  const { t } = useTranslation('progress');
  const { data, isError, isFetching, refetch } = useProgressReadQuery(undefined, { refetchOnMountOrArgChange: true });
  const progress = data?.progress;
  // Offline or refused, the read is asked again when the network returns; meanwhile the guest may retry.
  const failed = progress === undefined && isError && !isFetching;
  return (
    <div className="screen progress-screen">
      <h1>{t('title')}</h1>
      <p className="progress-intro">{t('intro')}</p>
      {progress === undefined && !failed ? <p className="loading">{t('loading')}</p> : null}
      {failed ? (
        <Card title={t('failed_title')}>
          <p>{t('failed_text')}</p>
          <Button icon={RefreshCw} onClick={() => void refetch()}>
            {t('failed_retry')}
          </Button>
        </Card>
      ) : null}
      {progress !== undefined && progress.recentJails.length === 0 ? (
        <Card title={t('empty_title')}>
          <p>{t('empty_text')}</p>
          <ButtonLink icon={CalendarPlus} to="/reservation/add">
            {t('empty_action')}
          </ButtonLink>
        </Card>
      ) : null}
      {progress !== undefined && progress.recentJails.length > 0 ? <Figures progress={progress} /> : null}
      {/* Try-it-now jails are a demo (docs/progress.md): left out of every figure, and said so. */}
      {progress !== undefined && progress.trialJails > 0 ? (
        <p className="progress-note" data-testid="trial-jails">
          {t('trials_left_out', { count: progress.trialJails })}
        </p>
      ) : null}
    </div>
  );
}
