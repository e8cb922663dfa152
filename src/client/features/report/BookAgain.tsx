import CalendarPlus from 'lucide-react/icons/calendar-plus';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterLink } from '../../app/RouterLink.tsx';
import type { Reservation } from '../../../shared/api/reservation.ts';
import { ButtonLink } from '../../ui/Button.tsx';
import { useReservationReadListQuery } from '../reservations/api.ts';
import { AGAIN_DAYS, type AgainChoice, againStart, bookAgainPath, bookedInSlot } from '../reservations/book-again.ts';
import { durationLabel } from '../reservations/duration-options.ts';
import { clockOf, dateWithWeekday, useLanguage } from '../reservations/common.ts';

/**
 * After the report: the same work, length and plan tomorrow or next week at
 * the same time, each opening the booking form filled in; a slot one of the
 * guest's jails already holds is named instead of offered.
 */
export function BookAgain({ reservation, timeZone }: { reservation: Reservation; timeZone: string }) {
  const { t } = useTranslation('report');
  const language = useLanguage();
  const [now] = useState(() => Date.now());
  const { data } = useReservationReadListQuery();
  const reservations = data?.reservations ?? [];
  const when = (time: number) => `${dateWithWeekday(time, timeZone, language)} ${clockOf(time, timeZone)}`;
  return (
    <section className="report-again" aria-labelledby="report-again-title">
      <h3 id="report-again-title">{t('again_title')}</h3>
      <p className="report-again-intro">{t('again_intro', { length: durationLabel(reservation.duration) })}</p>
      <ul className="report-again-choices">
        {(Object.keys(AGAIN_DAYS) as AgainChoice[]).map((choice) => {
          const startTime = againStart(reservation.startTime, AGAIN_DAYS[choice], now, timeZone);
          const booked = bookedInSlot(startTime, reservation.duration, reservations, timeZone);
          return (
            <li key={choice} data-testid={`again-${choice}`}>
              {booked === null ? (
                <ButtonLink variant="secondary" icon={CalendarPlus} to={bookAgainPath(reservation.id, AGAIN_DAYS[choice])}>
                  {t(`again_${choice}`, { when: when(startTime) })}
                </ButtonLink>
              ) : (
                <p className="report-again-booked">
                  {t(`again_booked_${choice}`, { when: when(startTime) })}
                  {/* Japanese runs on after its full stop; English leaves a space. */}
                  {language === 'ja' ? '' : ' '}
                  <RouterLink to={`/reservation/${booked.id}`}>{t('again_booked_link')}</RouterLink>
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
