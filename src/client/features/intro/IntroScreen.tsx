/** The introduction (route /): a 4-slide carousel, sign-up and sign-in under every slide, the language selector and the privacy page's link (docs/client.md, Screens and routes). */
import type { LucideIcon } from 'lucide-react';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import Camera from 'lucide-react/icons/camera';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Eye from 'lucide-react/icons/eye';
import LogIn from 'lucide-react/icons/log-in';
import UserPlus from 'lucide-react/icons/user-plus';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from '../../app/LanguageSelector.tsx';
import { useLanguageChoice } from '../../app/languageChoice.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { privacyUrl } from '../account/links.ts';
import { SLIDES, stepSlide } from './slides.ts';
import './intro.css';

/** The picture of each slide, in order: the Warden watching, booking, the camera, joining. */
const SLIDE_ICONS: readonly LucideIcon[] = [Eye, CalendarPlus, Camera, UserPlus];

export function IntroScreen() {
  const { t } = useTranslation('intro');
  const { t: common } = useTranslation('common');
  const id = useId();
  const { language } = useLanguageChoice();
  const [current, setCurrent] = useState(0);
  const slide = SLIDES[current];
  const SlideIcon = SLIDE_ICONS[current] ?? Eye;
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
          <span className="icon-badge" aria-hidden="true">
            <SlideIcon size={40} strokeWidth={1.75} focusable="false" />
          </span>
          <h2>{t(slide.title)}</h2>
          <p>{t(slide.text)}</p>
          {slide.action === 'camera' && (
            <ButtonLink variant="secondary" icon={Camera} to="/camera-check">
              {t('intro_3_link')}
            </ButtonLink>
          )}
        </div>
        <div className="intro-controls">
          <Button
            variant="secondary"
            icon={ChevronLeft}
            className="intro-previous"
            aria-controls={`${id}-slide`}
            disabled={current === 0}
            onClick={() => setCurrent(stepSlide(current, -1))}
          >
            {t('intro_previous')}
          </Button>
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
          <Button className="intro-next" aria-controls={`${id}-slide`} disabled={current === total - 1} onClick={() => setCurrent(stepSlide(current, 1))}>
            {t('intro_next')}
            <ChevronRight className="button-icon" aria-hidden="true" focusable="false" size={20} />
          </Button>
        </div>
      </div>
      {/* On every slide: a guest who knows what Warden is need not page through the slides. */}
      <div className="intro-actions">
        <ButtonLink icon={UserPlus} to="/signup">
          {t('intro_signup')}
        </ButtonLink>
        <ButtonLink variant="secondary" icon={LogIn} to="/signin">
          {t('intro_signin')}
        </ButtonLink>
      </div>
      <LanguageSelector className="intro-language" />
      <p className="intro-privacy">
        <a href={privacyUrl(language)} target="_blank" rel="noopener noreferrer">
          {common('privacyLink')}
        </a>
      </p>
    </section>
  );
}
