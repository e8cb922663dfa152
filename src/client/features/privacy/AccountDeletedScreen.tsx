import CircleCheck from 'lucide-react/icons/circle-check';
import Home from 'lucide-react/icons/home';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useAppDispatch, useIsLoggedIn } from '../../app/hooks.ts';
import { ButtonLink } from '../../ui/Button.tsx';
import { ACCOUNT_DELETED, forgetDeletedAccount } from './deleted.ts';

/**
 * /guest/deleted, open to visitors: the account is deleted. Reached from
 * "Delete your account", it forgets the ended session on this device once
 * it shows (forgetting it before would send the page to / by the access
 * rules); opened any other way it only shows.
 */
export function AccountDeletedScreen() {
  const { t } = useTranslation('privacy');
  const dispatch = useAppDispatch();
  const { state } = useLocation();
  const signedIn = useIsLoggedIn();
  useEffect(() => {
    if (state === ACCOUNT_DELETED && signedIn) void forgetDeletedAccount({ dispatch });
  }, [state, signedIn, dispatch]);
  return (
    <section className="screen account-screen account-done-screen">
      <span className="icon-badge success" aria-hidden="true">
        <CircleCheck size={40} strokeWidth={1.75} focusable="false" />
      </span>
      <h1>{t('deleted_heading')}</h1>
      <p>{t('deleted_text')}</p>
      <ButtonLink icon={Home} to="/">
        {t('deleted_intro')}
      </ButtonLink>
    </section>
  );
}
