import CalendarCheck from 'lucide-react/icons/calendar-check';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button } from '../../ui/Button.tsx';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureImage } from '../../../shared/api/featureImage.ts';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { useLanguage, useTimeZone } from '../reservations/common.ts';
import { useFeatureImageDestroyMutation, useFeatureImageReadQuery } from './api.ts';
import './filters.css';

function Scene({ scene, date }: { scene: FeatureImage; date: string }) {
  const { t } = useTranslation('filters');
  const [confirming, setConfirming] = useState(false);
  const [destroy, { isLoading }] = useFeatureImageDestroyMutation();
  const confirmId = `scene-confirm-${scene.id}`;
  return (
    <li className="scene" data-testid="scene">
      <img className="scene-image" src={scene.data} alt={t('image_alt', { date })} />
      <p className="scene-meta">
        <span className="scene-date">
          <CalendarCheck aria-hidden="true" focusable="false" size={16} />
          {t('approved_on', { date })}
        </span>
        {scene.wardenTitle === null ? null : <span>{t('approved_by', { warden: scene.wardenTitle })}</span>}
      </p>
      {confirming ? (
        <div className="scene-confirm" role="group" aria-labelledby={confirmId}>
          <p id={confirmId}>{t('confirm')}</p>
          <div className="scene-actions">
            <Button variant="danger" icon={Trash2} disabled={isLoading} onClick={() => void destroy({ id: scene.id })}>
              {t('confirm_remove')}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" icon={Trash2} aria-label={t('remove_label', { date })} onClick={() => setConfirming(true)}>
          {t('remove')}
        </Button>
      )}
    </li>
  );
}

/**
 * /filters: the signed-in guest's approved scenes (the facilitator lands
 * here after signing in as the guest), each with when and by whom it was
 * approved, and a confirmed removal.
 */
export function FiltersScreen() {
  const { t } = useTranslation('filters');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const { data, isSuccess } = useFeatureImageReadQuery();
  const scenes = data?.featureImages ?? [];
  return (
    <div className="screen filters-screen">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      {isSuccess && scenes.length === 0 ? <p className="filters-empty">{t('empty')}</p> : null}
      {scenes.length > 0 ? (
        <ul className="scene-list" aria-label={t('list_label')}>
          {scenes.map((scene) => (
            <Scene key={scene.id} scene={scene} date={formatDateTime(scene.createdAt, timeZone, language, systemTimeZone())} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
