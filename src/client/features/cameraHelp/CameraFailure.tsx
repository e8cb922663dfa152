import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { CAMERA_FAILURE_MESSAGE } from '../../vision/capture.ts';
import { browserFamilyOf, cameraProblemOf } from './camera-help.ts';
import './camera-help.css';

/**
 * A camera that could not be opened, said plainly: what is wrong in the
 * guest's terms, the product's camera failure message as it is, how to
 * allow the camera on this browser when it is blocked, and a way to try
 * again (`onRetry`, where the screen can open the camera anew).
 */
export function CameraFailure({ reason, onRetry }: { reason: string; onRetry?: () => void }) {
  const { t } = useTranslation('cameraHelp');
  const problem = cameraProblemOf(reason);
  const family = browserFamilyOf(navigator);
  const desktop = family === 'chromium' || family === 'firefox' || family === 'safari';
  return (
    <div className="camera-failure" role="alert" data-problem={problem}>
      <p className="camera-failure-title">{t(`problem_${problem}`)}</p>
      <p>{CAMERA_FAILURE_MESSAGE}</p>
      {problem === 'blocked' ? (
        <>
          <p className="camera-failure-how">{t('how_title')}</p>
          <p>{t(`how_${family}`)}</p>
          {desktop ? <p>{t('how_system')}</p> : null}
        </>
      ) : null}
      {problem === 'busy' ? <p>{t('how_busy')}</p> : null}
      {problem === 'missing' ? <p>{t('how_missing')}</p> : null}
      {onRetry === undefined ? null : (
        <Button variant="secondary" icon={RefreshCw} onClick={onRetry}>
          {t('retry')}
        </Button>
      )}
    </div>
  );
}
