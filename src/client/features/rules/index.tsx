/** The rules (route /rules): three sections, seven rule items (docs/client.md, Screens and routes). */
import { useTranslation } from 'react-i18next';
import './rules.css';

const SECTIONS = [
  { title: 'before_title', rules: ['before_1', 'before_2'] },
  { title: 'in_title', rules: ['in_1', 'in_2', 'in_3'] },
  { title: 'after_title', rules: ['after_1', 'after_2'] },
] as const;

export function RulesScreen() {
  const { t } = useTranslation('rules');
  return (
    <div className="rules-screen">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      {SECTIONS.map((section) => (
        <section key={section.title} aria-labelledby={`rules-${section.title}`}>
          <h2 id={`rules-${section.title}`}>{t(section.title)}</h2>
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
