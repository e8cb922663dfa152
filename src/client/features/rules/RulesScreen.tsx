/** The rules (route /rules): three sections, seven rule items (docs/client.md, Screens and routes). */
import CalendarClock from 'lucide-react/icons/calendar-clock';
import ClipboardCheck from 'lucide-react/icons/clipboard-check';
import Timer from 'lucide-react/icons/timer';
import { useTranslation } from 'react-i18next';
import './rules.css';

/** The three moments of a jail, each with its picture. */
const SECTIONS = [
  { title: 'before_title', icon: CalendarClock, rules: ['before_1', 'before_2'] },
  { title: 'in_title', icon: Timer, rules: ['in_1', 'in_2', 'in_3'] },
  { title: 'after_title', icon: ClipboardCheck, rules: ['after_1', 'after_2'] },
] as const;

export function RulesScreen() {
  const { t } = useTranslation('rules');
  return (
    <div className="screen rules-screen">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      {SECTIONS.map(({ icon: Icon, ...section }) => (
        <section key={section.title} className="rules-section" aria-labelledby={`rules-${section.title}`}>
          <h2 id={`rules-${section.title}`}>
            <span className="icon-badge small" aria-hidden="true">
              <Icon size={22} focusable="false" />
            </span>
            {t(section.title)}
          </h2>
          <ol className="rules-list">
            {section.rules.map((rule) => (
              <li key={rule}>{t(rule)}</li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
