import { type ComponentType, lazy, type ReactNode, useEffect, useMemo, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { RouterLink } from './app/RouterLink.tsx';
import { AccessGate } from './app/AccessGate.tsx';
import { HOME_PATH } from '../shared/pages.ts';
import { useAppDispatch, useAppSelector, useIsLoggedIn } from './app/hooks.ts';
import { type LanguageChoice, LanguageChoiceContext } from './app/languageChoice.ts';
import { AppFrame, LoadingOverlay, NetworkBanner } from './app/Layout.tsx';
import { Connectivity } from './app/OfflineNotice.tsx';
import { languageChanged } from './app/slices/application.ts';
import type { AppStore } from './app/store.ts';
import type { FirstScreen } from './app/deviceSession.ts';
import { applyLanguage, i18n } from './i18n.ts';
import { LinkContext } from './ui/link.tsx';
import { LIST_NAMESPACES } from './features/reservations/list/listTexts.ts';

/**
 * The client shell: the store, the texts, the access rules and the routes of
 * docs/client.md (Screens and routes). Each feature's screens are loaded with their feature (one chunk
 * each) and named here; see docs/client.md.
 */

type Module = Record<string, ComponentType>;

/**
 * A screen exported as `name` by a feature module, loaded on first use
 * (shown by `<Screen of={…} />`); `preload` loads its module ahead.
 */
class ScreenModule {
  /** The component, once its module is loaded. */
  loaded: ComponentType | undefined;
  readonly lazy: ComponentType;

  constructor(
    private readonly load: () => Promise<unknown>,
    /** The screen's export, unique among the screens. */
    readonly name: string,
  ) {
    this.lazy = lazy(async () => ({ default: await this.loadComponent() }));
  }

  async preload(): Promise<void> {
    await this.loadComponent();
  }

  private async loadComponent(): Promise<ComponentType> {
    const component = ((await this.load()) as Module)[this.name];
    if (component === undefined) throw new Error(`The feature module exports no ${this.name}`);
    this.loaded = component;
    return component;
  }
}

/**
 * Shows a screen module's screen. Once the module is loaded (ahead, or for an
 * earlier showing) the screen shows at once: a screen that suspends shows the
 * frame's "Loading" first, and React then holds it back until that has shown
 * for 300 ms.
 */
function Screen({ of }: { of: ScreenModule }) {
  // Keyed by the screen: the routes render every screen in the same place, and each screen is a showing of its own.
  return <ScreenShowing key={of.name} of={of} />;
}

function ScreenShowing({ of }: { of: ScreenModule }) {
  // Chosen once a showing: a screen switched from one to the other would lose its state.
  const [Component] = useState(() => of.loaded ?? of.lazy);
  return <Component />;
}

const intro = () => import('./features/intro/index.tsx');
const account = () => import('./features/account/index.tsx');
const reservations = () => import('./features/reservations/index.tsx');
// The guest's home, without the rest of the feature (the booking form, the report, the reminders).
const reservationList = () => import('./features/reservations/list/ListScreen.tsx');
const rules = () => import('./features/rules/index.tsx');
const forum = () => import('./features/forum/ForumScreen.tsx');
const jail = () => import('./features/jail/index.tsx');
const filters = () => import('./features/filters/index.tsx');
const tryAnyway = () => import('./features/tryAnyway/index.tsx');
const prep = () => import('./features/prep/PrepScreen.tsx');
const subscription = () => import('./features/subscription/index.tsx');
const collaboration = () => import('./features/collaboration/index.tsx');
const reminders = () => import('./features/reminders/index.tsx');
const progress = () => import('./features/progress/index.tsx');
const privacy = () => import('./features/privacy/index.tsx');

/**
 * Starts loading the guest's list and its texts while the session is
 * restored, rather than once the route renders, when the app starts at the
 * list or at `/` (where main.tsx starts the app only for a guest signed in on
 * this device, whom the access rules send to the list; a visitor's intro comes
 * without the app). Answers the list's read, which the session's restore
 * makes beside the guest's, and when the list's screen and texts are loaded,
 * which the session's screens wait for (app/deviceSession.ts).
 */
export function preloadFirstScreen(pathname: string): Promise<FirstScreen> | undefined {
  if (pathname !== HOME_PATH && pathname !== '/') return undefined;
  const ready = Promise.all([ReservationListScreen.preload(), i18n.loadNamespaces([...LIST_NAMESPACES])]).then(
    () => undefined,
    () => undefined,
  );
  return import('./features/reservations/api.ts').then(({ reservationApi }) => ({
    // Not kept by itself: the list screen's own read of the same entry keeps it, and uses this answer.
    call: (store) => store.dispatch(reservationApi.endpoints.reservationReadList.initiate(undefined, { subscribe: false })),
    ready,
  }));
}

const IntroScreen = new ScreenModule(intro, 'IntroScreen');
const SigninScreen = new ScreenModule(account, 'SigninScreen');
const SignupScreen = new ScreenModule(account, 'SignupScreen');
const GuestShowScreen = new ScreenModule(account, 'GuestShowScreen');
const GuestEditScreen = new ScreenModule(account, 'GuestEditScreen');
const GuestEditTitleScreen = new ScreenModule(account, 'GuestEditTitleScreen');
const GuestEditEmailScreen = new ScreenModule(account, 'GuestEditEmailScreen');
const GuestEditPhoneScreen = new ScreenModule(account, 'GuestEditPhoneScreen');
const GuestEditedScreen = new ScreenModule(account, 'GuestEditedScreen');
const ResetPasswordEmailScreen = new ScreenModule(account, 'ResetPasswordEmailScreen');
const UpdatePasswordScreen = new ScreenModule(account, 'UpdatePasswordScreen');
const TakeBackScreen = new ScreenModule(account, 'TakeBackScreen');
const VerifyEmailScreen = new ScreenModule(account, 'VerifyEmailScreen');
const LoginAsLimFacilitatorScreen = new ScreenModule(account, 'LoginAsLimFacilitatorScreen');
const ReservationListScreen = new ScreenModule(reservationList, 'ReservationListScreen');
const ReservationAddScreen = new ScreenModule(reservations, 'ReservationAddScreen');
const ReservationAddedScreen = new ScreenModule(reservations, 'ReservationAddedScreen');
const ReservationEditScreen = new ScreenModule(reservations, 'ReservationEditScreen');
const ReservationEditedScreen = new ScreenModule(reservations, 'ReservationEditedScreen');
const ReservationRemoveScreen = new ScreenModule(reservations, 'ReservationRemoveScreen');
const ReservationRemovedScreen = new ScreenModule(reservations, 'ReservationRemovedScreen');
const ReservationDetailScreen = new ScreenModule(reservations, 'ReservationDetailScreen');
const RulesScreen = new ScreenModule(rules, 'RulesScreen');
const ForumScreen = new ScreenModule(forum, 'ForumScreen');
const PrepBeforeScreen = new ScreenModule(jail, 'PrepBeforeScreen');
const LiveScreen = new ScreenModule(jail, 'LiveScreen');
const FiltersScreen = new ScreenModule(filters, 'FiltersScreen');
const TryScreen = new ScreenModule(tryAnyway, 'TryScreen');
const PrepScreen = new ScreenModule(prep, 'PrepScreen');
const CollaborationScreen = new ScreenModule(collaboration, 'CollaborationScreen');
const RemindersScreen = new ScreenModule(reminders, 'RemindersScreen');
const ProgressScreen = new ScreenModule(progress, 'ProgressScreen');
const SubscriptionScreen = new ScreenModule(subscription, 'SubscriptionScreen');
const YourDataScreen = new ScreenModule(privacy, 'YourDataScreen');
const AccountDeletedScreen = new ScreenModule(privacy, 'AccountDeletedScreen');

// The camera check brings the worker and the wasm; load it only when visited.
const CameraCheck = lazy(async () => {
  const module = await import('./features/cameraCheck/index.tsx');
  return { default: module.CameraCheck };
});

/**
 * The routes (docs/client.md, Screens and routes), behind the access rules: the
 * signed-in screens in the frame with the navigation, the others in the plain frame.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppFrame withNav={false} />}>
        <Route path="/" element={<Screen of={IntroScreen} />} />
        <Route path="/index.html" element={<Navigate to="/" replace />} />
        <Route path="/signin" element={<Screen of={SigninScreen} />} />
        <Route path="/signup" element={<Screen of={SignupScreen} />} />
        <Route path="/guest/updatePassword/:token" element={<Screen of={UpdatePasswordScreen} />} />
        <Route path="/guest/takeBack/:token" element={<Screen of={TakeBackScreen} />} />
        <Route path="/guest/verifyEmail/:token" element={<Screen of={VerifyEmailScreen} />} />
        <Route path="/guest/loginAsLimFacilitator/:token/:guestId" element={<Screen of={LoginAsLimFacilitatorScreen} />} />
        <Route path="/guest/deleted" element={<Screen of={AccountDeletedScreen} />} />
        <Route path="/jail/prep_before/:id" element={<Screen of={PrepBeforeScreen} />} />
        <Route path="/jail/prep/:id" element={<Screen of={PrepScreen} />} />
        <Route path="/jail/live/try" element={<Screen of={TryScreen} />} />
        <Route path="/jail/live/:id" element={<Screen of={LiveScreen} />} />
        <Route path="/camera-check" element={<CameraCheck />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
      <Route element={<FrameForSession />}>
        <Route path="/guest/resetPasswordEmail" element={<Screen of={ResetPasswordEmailScreen} />} />
      </Route>
      <Route element={<AppFrame withNav />}>
        <Route path="/reservations" element={<Screen of={ReservationListScreen} />} />
        <Route path="/reservation/add" element={<Screen of={ReservationAddScreen} />} />
        <Route path="/reservation/added" element={<Screen of={ReservationAddedScreen} />} />
        <Route path="/reservation/edit/:id" element={<Screen of={ReservationEditScreen} />} />
        <Route path="/reservation/edited/:id" element={<Screen of={ReservationEditedScreen} />} />
        <Route path="/reservation/remove/:id" element={<Screen of={ReservationRemoveScreen} />} />
        <Route path="/reservation/removed" element={<Screen of={ReservationRemovedScreen} />} />
        <Route path="/reservation/:id" element={<Screen of={ReservationDetailScreen} />} />
        <Route path="/rules" element={<Screen of={RulesScreen} />} />
        <Route path="/guest/show" element={<Screen of={GuestShowScreen} />} />
        <Route path="/guest/edit" element={<Screen of={GuestEditScreen} />} />
        <Route path="/guest/editTitle" element={<Screen of={GuestEditTitleScreen} />} />
        <Route path="/guest/editEmail" element={<Screen of={GuestEditEmailScreen} />} />
        <Route path="/guest/editPhone" element={<Screen of={GuestEditPhoneScreen} />} />
        <Route path="/guest/edited" element={<Screen of={GuestEditedScreen} />} />
        <Route path="/guest/data" element={<Screen of={YourDataScreen} />} />
        <Route path="/subscription" element={<Screen of={SubscriptionScreen} />} />
        <Route path="/userForum" element={<Screen of={ForumScreen} />} />
        <Route path="/collaboration" element={<Screen of={CollaborationScreen} />} />
        <Route path="/reminders" element={<Screen of={RemindersScreen} />} />
        <Route path="/progress" element={<Screen of={ProgressScreen} />} />
        <Route path="/filters" element={<Screen of={FiltersScreen} />} />
      </Route>
    </Routes>
  );
}

/** The frame of a screen both visitors and guests use: with the navigation for a signed-in guest. */
function FrameForSession() {
  return <AppFrame withNav={useIsLoggedIn()} />;
}

/** The language lives in the store: i18next and `<html lang>` follow it, and the language selector changes it. */
function StoreLanguage({ children }: { children: ReactNode }) {
  const language = useAppSelector((state) => state.application.language);
  const dispatch = useAppDispatch();
  useEffect(() => applyLanguage(language), [language]);
  const choice = useMemo<LanguageChoice>(() => ({ language, choose: (next) => dispatch(languageChanged(next)) }), [language, dispatch]);
  return <LanguageChoiceContext value={choice}>{children}</LanguageChoiceContext>;
}

function Shell() {
  return (
    <BrowserRouter>
      <LinkContext value={RouterLink}>
        <StoreLanguage>
          <AccessGate>
            <AppRoutes />
          </AccessGate>
          <LoadingOverlay />
          <NetworkBanner />
          <Connectivity />
        </StoreLanguage>
      </LinkContext>
    </BrowserRouter>
  );
}

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <Shell />
      </I18nextProvider>
    </Provider>
  );
}
