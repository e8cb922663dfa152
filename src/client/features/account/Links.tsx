import ArrowRight from 'lucide-react/icons/arrow-right';
import X from 'lucide-react/icons/x';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { HOME_PATH } from '../../../shared/pages.ts';
import { useAppDispatch, useIsLoggedIn } from '../../app/hooks.ts';
import { clearLocal } from '../../app/localDb.ts';
import { logout } from '../../app/session.ts';
import { announceGuestChanged } from '../../app/deviceSession.ts';
import { useGuestAuthenticateAsLimFacilitatorMutation, useGuestVerifyEmailMutation } from './api.ts';
import { facilitatorDestination } from './rules.ts';

/** Delay after a facilitator authenticates as a guest, before going to /filters. */
const FACILITATOR_LOGIN_DELAY_MS = 500;

/** How long a window the browser agreed to close takes to go; a window still open after this was not closed. */
const CLOSE_WAIT_MS = 300;

/**
 * /guest/verifyEmail/:token: 'verifying...', then the verified message and
 * OK, which closes the window. A browser closes only a window a script
 * opened; for a tab opened from a mail, the page offers the way back to the
 * app instead. The app's other tabs learn the new state at once.
 */
export function VerifyEmailScreen() {
  const { t } = useTranslation('account');
  const { token = '' } = useParams();
  const loggedIn = useIsLoggedIn();
  const [verify, { isSuccess, isError }] = useGuestVerifyEmailMutation();
  const [stayedOpen, setStayedOpen] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void verify({ token }).then((result) => {
      if ('data' in result) announceGuestChanged();
    });
  }, [token, verify]);

  function close(): void {
    window.close();
    setTimeout(() => {
      if (!window.closed) setStayedOpen(true);
    }, CLOSE_WAIT_MS);
  }

  return (
    <section className="screen account-screen">
      <h1>{t('verify_heading')}</h1>
      <div role="status">
        {!isSuccess && !isError && <p>{t('verify_waiting')}</p>}
        {isSuccess && <p className="account-done">{t('verify_done')}</p>}
        {stayedOpen && <p>{t('verify_still_open')}</p>}
      </div>
      {isSuccess &&
        (stayedOpen ? (
          <ButtonLink icon={ArrowRight} to={loggedIn ? HOME_PATH : '/signin'}>
            {loggedIn ? t('verify_back_to_app') : t('signin_heading')}
          </ButtonLink>
        ) : (
          <Button icon={X} onClick={close}>
            {t('verify_ok')}
          </Button>
        ))}
    </section>
  );
}

/**
 * /guest/loginAsLimFacilitator/:token/:guestId: clears the stored auth, logs
 * out, authenticates as the guest, waits 500 ms, then goes to /filters.
 */
export function LoginAsLimFacilitatorScreen() {
  const { t } = useTranslation('account');
  const { token = '', guestId = '' } = useParams();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [authenticate] = useGuestAuthenticateAsLimFacilitatorMutation();
  const started = useRef(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        await clearLocal('auth');
      } catch {
        // The shell already alerted that the local database cannot be opened.
      }
      logout({ dispatch });
      const result = await authenticate({ guestId, token });
      if (!('data' in result)) {
        setFailed(true);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, FACILITATOR_LOGIN_DELAY_MS));
      navigate(facilitatorDestination(true), { replace: true });
    })();
  }, [authenticate, dispatch, guestId, navigate, token]);

  return (
    <section className="screen account-screen">
      <h1>{t('facilitator_heading')}</h1>
      <div role="status">{!failed && <p>{t('facilitator_waiting')}</p>}</div>
    </section>
  );
}
