import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/api/guest.ts';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { PasswordField, TextField } from '../ui/Field.tsx';
import { errorDismissed, jailClosed, jailOpening } from './consoleSlice.ts';
import { JailPanel } from './JailPanel.tsx';
import { LiveGrid } from './LiveGrid.tsx';
import { openJailAtRelay } from './relay.ts';
import { RelayProvider, useRelay } from './RelayContext.tsx';
import { formatDuration } from './format.ts';
import { changePassword, checkSession, confirmCode, idleTimeLeft, signIn, signOut } from './session.ts';
import { languageChanged, signedOut } from './sessionSlice.ts';
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

function Header({ passwordOpen, onPasswordToggle }: { passwordOpen: boolean; onPasswordToggle(): void }) {
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
          <>
            <button type="button" className="button secondary" aria-expanded={passwordOpen} onClick={onPasswordToggle}>
              {t('change_password')}
            </button>
            <button type="button" className="button secondary" onClick={() => void signOut(store)}>
              {t('sign_out')}
            </button>
          </>
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

/** Six digits, as an authenticator app shows them (a space in the middle is fine). */
function CodeField({ code, onCode }: { code: string; onCode(code: string): void }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('code')}
      hint={t('code_hint')}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]{6,7}"
      maxLength={7}
      required
      value={code}
      onValueChange={onCode}
    />
  );
}

/** The key grouped by four, as authenticator apps print it. */
function groupedKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The second step of the sign-in: the code of the authenticator app. A
 * warden without one sets it up here first: the QR code, or the key typed in.
 */
function SecondFactorForm() {
  const { t } = useTranslation();
  const store = useConsoleStore();
  const dispatch = useConsoleDispatch();
  const { pendingSignIn, signInError: error } = useConsoleSelector((state) => state.session);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const enrolment = pendingSignIn?.enrolment ?? null;

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setBusy(true);
    await confirmCode(store, code);
    setBusy(false);
  }

  return (
    <main id="main" className="sign-in">
      <h2>{enrolment === null ? t('code_title') : t('enrol_title')}</h2>
      {enrolment === null ? (
        <p>{t('code_intro')}</p>
      ) : (
        <>
          <p>{t('enrol_intro')}</p>
          <img className="enrol-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`} alt={t('enrol_qr')} />
          <p>
            {t('enrol_key')} <code className="enrol-key">{groupedKey(enrolment.secret)}</code>
          </p>
        </>
      )}
      <form onSubmit={(event) => void submit(event)}>
        <CodeField code={code} onCode={setCode} />
        {error !== null && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <button type="submit" className="button" disabled={busy}>
          {busy ? t('confirming') : t('confirm')}
        </button>
        <button type="button" className="button secondary" onClick={() => dispatch(signedOut({ reason: null }))}>
          {t('start_over')}
        </button>
      </form>
      {enrolment === null && <p className="field-hint">{t('code_lost')}</p>}
    </main>
  );
}

/** A new password: the current one first; the warden's other consoles are signed out. */
function PasswordPanel({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const store = useConsoleStore();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const nextTooShortOrLong = next !== '' && (next.length < PASSWORD_MIN_LENGTH || next.length > PASSWORD_MAX_LENGTH);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (nextTooShortOrLong) return;
    setBusy(true);
    const refusal = await changePassword(store, current, next);
    setBusy(false);
    setError(refusal);
    setDone(refusal === null);
    if (refusal === null) {
      setCurrent('');
      setNext('');
    }
  }

  return (
    <section className="password-panel" aria-labelledby="password-title">
      <h2 id="password-title">{t('change_password')}</h2>
      <form onSubmit={(event) => void submit(event)}>
        <PasswordField label={t('current_password')} purpose="current" required value={current} onValueChange={setCurrent} />
        <PasswordField
          label={t('new_password')}
          purpose="new"
          required
          value={next}
          onValueChange={setNext}
          hint={t('new_password_hint', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
          error={nextTooShortOrLong ? t('new_password_hint', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }) : undefined}
        />
        {error !== null && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        {done && <p role="status">{t('password_changed')}</p>}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('save_password')}
          </button>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('close_password')}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * Shown in the idle time's last minutes (docs/sessions.md): the time left
 * and a way to stay; at its end the console asks the server, which answers
 * that the session has ended, and the sign-in screen says so.
 */
function IdleWarning() {
  const { t } = useTranslation();
  const store = useConsoleStore();
  const lastUsedAt = useConsoleSelector((state) => state.session.lastUsedAt);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);
  const left = idleTimeLeft(lastUsedAt, now);
  const over = left === 0;
  useEffect(() => {
    if (over) void checkSession(store);
  }, [over, store]);
  if (left === null) return null;
  return (
    <div role="alert" className="idle-warning">
      <p>{t('idle_warning', { time: formatDuration(left) })}</p>
      <button type="button" className="button" onClick={() => void checkSession(store)}>
        {t('stay_signed_in')}
      </button>
    </div>
  );
}

/** The signed-in console: the live grid and, beside it, the jail the warden opened. */
function ConsoleBody() {
  const dispatch = useConsoleDispatch();
  const store = useConsoleStore();
  const { send, socket } = useRelay();
  const open = useConsoleSelector((state) => state.console.openJail);
  const now = useServerNow();

  async function openJail(reservationId: number): Promise<void> {
    const current = store.getState().console.openJail;
    if (current?.reservationId === reservationId) return;
    if (current !== null) void send('close_jail_from_warden', { reservationId: current.reservationId });
    dispatch(jailOpening(reservationId));
    await openJailAtRelay(socket, store);
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
  const [passwordOpen, setPasswordOpen] = useState(false);
  const signedInNow = phase === 'signedIn';
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skip_to_main')}
      </a>
      <Header passwordOpen={passwordOpen && signedInNow} onPasswordToggle={() => setPasswordOpen((open) => !open)} />
      <ErrorBanner />
      {signedInNow && <IdleWarning />}
      {signedInNow && passwordOpen && <PasswordPanel onClose={() => setPasswordOpen(false)} />}
      {phase === 'checking' && (
        <main id="main">
          <p role="status">{t('checking_session')}</p>
        </main>
      )}
      {phase === 'signedOut' && <SignInForm />}
      {phase === 'secondFactor' && <SecondFactorForm />}
      {phase === 'signedIn' && token !== null && (
        <RelayProvider token={token}>
          <ConsoleBody />
        </RelayProvider>
      )}
    </>
  );
}
