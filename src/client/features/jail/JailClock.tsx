import { useTranslation } from 'react-i18next';
import { clockOf } from '../reservations/common.ts';
import { countdownText, isRemainingTimeShown } from './session-rules.ts';

/**
 * The live screen's clock, readable at arm's length on a phone: before the
 * start, the countdown to it and its time; during the jail, the time left
 * (m:ss, or h:mm:ss from an hour) and the end time. The last 30 minutes are
 * marked as the final stretch.
 */
export function JailClock({ startTime, endTime, now, timeZone }: { startTime: number; endTime: number; now: number; timeZone: string }) {
  const { t } = useTranslation('jail');
  const beforeStart = now < startTime;
  const left = beforeStart ? startTime - now : endTime - now;
  return (
    <div className="live-clock" role="timer" data-phase={beforeStart ? 'before' : 'during'} data-final={!beforeStart && isRemainingTimeShown(endTime, now)}>
      <span className="live-clock-label">{beforeStart ? t('live_clock_starts_in') : t('live_clock_left')}</span>
      <span className="live-clock-time">{countdownText(left)}</span>
      <span className="live-clock-at">
        {beforeStart ? t('live_clock_starts_at', { time: clockOf(startTime, timeZone) }) : t('live_clock_until', { time: clockOf(endTime, timeZone) })}
      </span>
    </div>
  );
}
