/** The jail screens (SPEC §2 /jail/*). */
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks.ts';
import { browserVoice } from '../../app/speech.ts';
import './jail.css';

/** `/jail/prep_before/:id`: what the sound and the camera are for, then the start (which says 'Here we go'). */
export function PrepBeforeScreen() {
  const { t } = useTranslation('jail');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const language = useAppSelector((state) => state.application.language);
  const start = () => {
    // The line is said on the way; the preparation does not wait for it.
    void browserVoice().speak(t('here_we_go'), language);
    void navigate(`/jail/prep/${id}`);
  };
  return (
    <div className="jail-screen">
      <h1>{t('prep_before_title')}</h1>
      <p>{t('prep_before_intro')}</p>
      <section aria-labelledby="prep-before-audio">
        <h2 id="prep-before-audio">{t('prep_before_audio_title')}</h2>
        <p>{t('prep_before_audio')}</p>
      </section>
      <section aria-labelledby="prep-before-camera">
        <h2 id="prep-before-camera">{t('prep_before_camera_title')}</h2>
        <p>{t('prep_before_camera')}</p>
      </section>
      <button type="button" className="button" onClick={start}>
        {t('prep_before_start')}
      </button>
    </div>
  );
}
