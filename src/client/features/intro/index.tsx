/** The introduction (route /): a 4-slide carousel and the language selector (docs/client.md, Screens and routes). */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageSelector } from '../../app/LanguageSelector.tsx';
import { SLIDES, stepSlide } from './slides.ts';
import './intro.css';

export function IntroScreen() {
  const { t } = useTranslation('intro');
  const { t: common } = useTranslation('common');
  const id = useId();
  const [current, setCurrent] = useState(0);
  const slide = SLIDES[current];
  const total = SLIDES.length;

  return (
    <section className="intro">
      <h1>{common('brand')}</h1>
      <div className="intro-carousel" role="region" aria-roledescription="carousel" aria-label={t('intro_label')}>
        <div
          id={`${id}-slide`}
          className="intro-slide"
          role="group"
          aria-roledescription="slide"
          aria-label={t('intro_slide_of', { current: current + 1, total })}
          aria-live="polite"
        >
          <h2>{t(slide.title)}</h2>
          <p>{t(slide.text)}</p>
          {slide.action === 'camera' && (
            <Link className="button button-secondary" to="/camera-check">
              {t('intro_3_link')}
            </Link>
          )}
          {slide.action === 'account' && (
            <div className="intro-actions">
              <Link className="button" to="/signup">
                {t('intro_signup')}
              </Link>
              <Link className="button button-secondary" to="/signin">
                {t('intro_signin')}
              </Link>
            </div>
          )}
        </div>
        <div className="intro-controls">
          <button
            type="button"
            className="button button-secondary"
            aria-controls={`${id}-slide`}
            disabled={current === 0}
            onClick={() => setCurrent(stepSlide(current, -1))}
          >
            {t('intro_previous')}
          </button>
          <ol className="intro-dots">
            {SLIDES.map((item, index) => (
              <li key={item.title}>
                <button
                  type="button"
                  className="intro-dot"
                  aria-controls={`${id}-slide`}
                  aria-current={index === current ? 'true' : undefined}
                  aria-label={t('intro_go_to', { number: index + 1 })}
                  onClick={() => setCurrent(index)}
                />
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button button-secondary"
            aria-controls={`${id}-slide`}
            disabled={current === total - 1}
            onClick={() => setCurrent(stepSlide(current, 1))}
          >
            {t('intro_next')}
          </button>
        </div>
      </div>
      <LanguageSelector className="intro-language" />
    </section>
  );
}
