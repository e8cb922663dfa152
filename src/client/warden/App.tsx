import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { PasswordField, TextField } from '../ui/Field.tsx';
import { errorDismissed, jailClosed, jailOpened, jailOpening } from './consoleSlice.ts';
import { JailPanel } from './JailPanel.tsx';
import { LiveGrid } from './LiveGrid.tsx';
import { RelayProvider, useRelay } from './RelayContext.tsx';
import { signIn, signOut } from './session.ts';
import { languageChanged } from './sessionSlice.ts';
import { useConsoleDispatch, useConsoleSelector, useConsoleStore } from './store.ts';
import { useServerNow } from './useNow.ts';

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ja: '日本語' };

function RelayStatus() {
  const { t } = useTranslation();
  const relay = useConsoleSelector((state) => state.console.relay);
  return (
    <p role="status" className={`relay-status relay-${relay}`}>
      {t(`relay_${relay}`)}
    </p>
  );
}

function Header() {
  const { t, i18n } = useTranslation();
  const dispatch = useConsoleDispatch();
  const store = useConsoleStore();
  const { phase, warden, language } = useConsoleSelector((state) => state.session);

  function changeLanguage(next: Language): void {
    dispatch(languageChanged(next));
    document.documentElement.lang = next;
    document.title = i18n.getFixedT(next)('page_title');
    void i18n.changeLanguage(next);
  }

  return (
    <header className="console-header">
      <h1>{t('page_title')}</h1>
      {phase === 'signedIn' && warden !== null && (
        <>
          <p className="signed-in-as">{t('signed_in_as', { title: warden.title })}</p>
          <RelayStatus />
        </>
      )}
      <div className="header-tools">
        <label className="language">
          {t('language')}{' '}
          <select value={language} onChange={(event) => changeLanguage(event.target.value === 'ja' ? 'ja' : 'en')}>
            {LANGUAGES.map((option) => (
              <option key={option} value={option} lang={option}>
                {LANGUAGE_NAMES[option]}
              </option>
            ))}
          </select>
        </label>
        {phase === 'signedIn' && (
          <button type="button" className="button secondary" onClick={() => void signOut(store)}>
            {t('sign_out')}
          </button>
        )}
      </div>
    </header>
  );
}

/** The latest failure (a refused ack, no answer): stays until dismissed or replaced. */
function ErrorBanner() {
  const { t } = useTranslation();
  const dispatch = useConsoleDispatch();
  const error = useConsoleSelector((state) => state.console.error);
  return (
    <div role="alert" className={error === null ? 'error-banner is-empty' : 'error-banner'}>
      {error !== null && (
        <>
          <p>
            <strong>{t('error_title')}:</strong> {error}
          </p>
          <button type="button" className="button secondary" onClick={() => dispatch(errorDismissed())}>
            {t('dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

function SignInForm() {
  const { t } = useTranslation();
  const store = useConsoleStore();
  const error = useConsoleSelector((state) => state.session.signInError);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    await signIn(store, email.trim(), password);
    setBusy(false);
  }

  return (
    <main id="main" className="sign-in">
      <h2>{t('sign_in_title')}</h2>
      <form onSubmit={(event) => void submit(event)}>
        <TextField label={t('email')} type="email" autoComplete="username" required value={email} onValueChange={setEmail} />
        <PasswordField label={t('password')} purpose="current" required value={password} onValueChange={setPassword} />
        {error !== null && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('signing_in') : t('sign_in')}
        </button>
      </form>
    </main>
  );
}

/** The signed-in console: the live grid and, beside it, the jail the warden opened. */
function ConsoleBody() {
  const dispatch = useConsoleDispatch();
  const store = useConsoleStore();
  const { send } = useRelay();
  const open = useConsoleSelector((state) => state.console.openJail);
  const now = useServerNow();

  async function openJail(reservationId: number): Promise<void> {
    const current = store.getState().console.openJail;
    if (current?.reservationId === reservationId) return;
    if (current !== null) void send('close_jail_from_warden', { reservationId: current.reservationId });
    dispatch(jailOpening(reservationId));
    const ack = await send('open_jail_from_warden', { reservationId });
    if (ack?.jail !== undefined) dispatch(jailOpened({ jail: ack.jail, logs: ack.logs ?? [], hasEarlier: ack.hasEarlier ?? false }));
    else if (store.getState().console.openJail?.reservationId === reservationId) dispatch(jailClosed());
  }

  function closeJail(): void {
    const current = store.getState().console.openJail;
    dispatch(jailClosed());
    if (current !== null) void send('close_jail_from_warden', { reservationId: current.reservationId });
  }

  return (
    <main id="main" className={open === null ? 'console-body' : 'console-body has-open'}>
      <LiveGrid now={now} onOpen={(reservationId) => void openJail(reservationId)} />
      {open !== null && <JailPanel open={open} now={now} onClose={closeJail} />}
    </main>
  );
}

export function ConsoleApp() {
  const { t } = useTranslation();
  const { phase, token } = useConsoleSelector((state) => state.session);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skip_to_main')}
      </a>
      <Header />
      <ErrorBanner />
      {phase === 'checking' && (
        <main id="main">
          <p role="status">{t('checking_session')}</p>
        </main>
      )}
      {phase === 'signedOut' && <SignInForm />}
      {phase === 'signedIn' && token !== null && (
        <RelayProvider token={token}>
          <ConsoleBody />
        </RelayProvider>
      )}
    </>
  );
}
