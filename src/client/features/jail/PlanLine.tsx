import ListChecks from 'lucide-react/icons/list-checks';
import { useTranslation } from 'react-i18next';
import { clockOf } from '../reservations/common.ts';
import type { PlanStep } from '../reservations/plan.ts';

/** What the guest is doing now and what comes next, by the plan they booked (nothing without one). */
export function PlanLine({ current, next, timeZone }: { current: PlanStep | null; next: PlanStep | null; timeZone: string }) {
  const { t } = useTranslation('jail');
  if (current === null && next === null) return null;
  return (
    <section className="live-plan" aria-label={t('live_plan')}>
      <ListChecks className="live-plan-icon" aria-hidden="true" focusable="false" size={18} />
      <div>
        {current === null ? null : <p className="live-plan-now">{t('live_plan_now', { title: current.title })}</p>}
        {next === null ? null : <p className="live-plan-next">{t('live_plan_next', { time: clockOf(next.at, timeZone), title: next.title })}</p>}
      </div>
    </section>
  );
}
