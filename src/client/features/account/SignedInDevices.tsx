import LogOut from 'lucide-react/icons/log-out';
import { useTranslation } from 'react-i18next';
import type { SignedInDevice } from '../../../shared/api/sessions.ts';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { useAppDispatch, useIsFacilitatorSession } from '../../app/hooks.ts';
import { forgetSession } from '../../app/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { useLanguage, useTimeZone } from '../reservations/common.ts';
import { useGuestLogoutEverywhereMutation, useGuestLogoutSessionMutation, useGuestReadSessionsQuery } from './sessionsApi.ts';

/**
 * "Signed-in devices" on Account info (docs/sessions.md): where the account
 * is signed in, each with Sign out, and Sign out everywhere. A facilitator's
 * session is told that only the guest can.
 */
export function SignedInDevices() {
  const { t } = useTranslation('account');
  const facilitator = useIsFacilitatorSession();
  return (
    <Card title={t('devices_heading')} className="account-devices">
      {facilitator ? <p className="account-note">{t('devices_facilitator')}</p> : <DeviceList />}
    </Card>
  );
}

function DeviceList() {
  const { t } = useTranslation('account');
  const language = useLanguage();
  const timeZone = useTimeZone();
  const dispatch = useAppDispatch();
  // Read afresh each time: another device may have signed in or out meanwhile.
  const { data } = useGuestReadSessionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [logoutSession, one] = useGuestLogoutSessionMutation();
  const [logoutEverywhere, all] = useGuestLogoutEverywhereMutation();
  const nameOf = (device: SignedInDevice): string =>
    device.browser !== null && device.os !== null
      ? t('devices_name', { browser: device.browser, os: device.os })
      : (device.browser ?? device.os ?? t('devices_unknown'));

  async function signOut(device: SignedInDevice) {
    const result = await logoutSession({ id: device.id });
    // This device's own session has ended: signed out here as by Log out.
    if ('data' in result && device.current) forgetSession({ dispatch });
  }

  async function signOutEverywhere() {
    if ('data' in (await logoutEverywhere())) forgetSession({ dispatch });
  }

  return (
    <>
      <p className="account-note">{t('devices_explain')}</p>
      <ul className="row-list">
        {(data?.sessions ?? []).map((device) => (
          <li key={device.id} data-testid="signed-in-device">
            <span>
              <strong>{nameOf(device)}</strong>
              {device.current ? ` (${t('devices_this')})` : ''}
              {device.facilitator ? ` (${t('devices_by_facilitator')})` : ''}
              <br />
              <span className="account-devices-times">
                {t('devices_times', {
                  started: formatDateTime(device.createdAt, timeZone, language, systemTimeZone()),
                  used: formatDateTime(device.lastSeenAt, timeZone, language, systemTimeZone()),
                })}
              </span>
            </span>
            <Button
              variant="secondary"
              icon={LogOut}
              className="button-small"
              disabled={one.isLoading}
              aria-label={t('devices_sign_out_named', { device: nameOf(device) })}
              onClick={() => void signOut(device)}
            >
              {t('devices_sign_out')}
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" icon={LogOut} disabled={all.isLoading} onClick={() => void signOutEverywhere()}>
        {t('devices_sign_out_everywhere')}
      </Button>
    </>
  );
}
