import { type ComponentType, lazy, type ReactNode, useEffect, useMemo } from 'react';
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
import type { FirstScreenCall } from './app/deviceSession.ts';
import { applyLanguage, i18n } from './i18n.ts';
import { LinkContext } from './ui/link.tsx';
import { LIST_NAMESPACES } from './features/reservations/listTexts.ts';

/**
 * The client shell: the store, the texts, the access rules and the routes of
 * docs/client.md (Screens and routes). Each feature's screens are loaded with their feature (one chunk
 * each) and named here; see docs/client.md.
 */

type Module = Record<string, ComponentType>;

/** A screen exported as `name` by a feature module, loaded on first use. */
function screen(load: () => Promise<unknown>, name: string): ComponentType {
  return lazy(async () => {
    const module = (await load()) as Module;
    const component = module[name];
    if (component === undefined) throw new Error(`The feature module exports no ${name}`);
    return { default: component };
  });
}

const intro = () => import('./features/intro/index.tsx');
const account = () => import('./features/account/index.tsx');
const reservations = () => import('./features/reservations/index.tsx');
// The guest's home, without the rest of the feature (the booking form, the report, the reminders).
const reservationList = () => import('./features/reservations/ListScreen.tsx');
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
 * makes beside the guest's (app/deviceSession.ts).
 */
export function preloadFirstScreen(pathname: string): Promise<FirstScreenCall> | undefined {
  if (pathname !== HOME_PATH && pathname !== '/') return undefined;
  void reservationList();
  void i18n.loadNamespaces([...LIST_NAMESPACES]);
  return import('./features/reservations/api.ts').then(
    ({ reservationApi }) =>
      // Not kept by itself: the list screen's own read of the same entry keeps it, and uses this answer.
      (store) =>
        store.dispatch(reservationApi.endpoints.reservationReadList.initiate(undefined, { subscribe: false })),
  );
}

const IntroScreen = screen(intro, 'IntroScreen');
const SigninScreen = screen(account, 'SigninScreen');
const SignupScreen = screen(account, 'SignupScreen');
const GuestShowScreen = screen(account, 'GuestShowScreen');
const GuestEditScreen = screen(account, 'GuestEditScreen');
const GuestEditTitleScreen = screen(account, 'GuestEditTitleScreen');
const GuestEditEmailScreen = screen(account, 'GuestEditEmailScreen');
const GuestEditPhoneScreen = screen(account, 'GuestEditPhoneScreen');
const GuestEditedScreen = screen(account, 'GuestEditedScreen');
const ResetPasswordEmailScreen = screen(account, 'ResetPasswordEmailScreen');
const UpdatePasswordScreen = screen(account, 'UpdatePasswordScreen');
const VerifyEmailScreen = screen(account, 'VerifyEmailScreen');
const LoginAsLimFacilitatorScreen = screen(account, 'LoginAsLimFacilitatorScreen');
const ReservationListScreen = screen(reservationList, 'ReservationListScreen');
const ReservationAddScreen = screen(reservations, 'ReservationAddScreen');
const ReservationAddedScreen = screen(reservations, 'ReservationAddedScreen');
const ReservationEditScreen = screen(reservations, 'ReservationEditScreen');
const ReservationEditedScreen = screen(reservations, 'ReservationEditedScreen');
const ReservationRemoveScreen = screen(reservations, 'ReservationRemoveScreen');
const ReservationRemovedScreen = screen(reservations, 'ReservationRemovedScreen');
const ReservationDetailScreen = screen(reservations, 'ReservationDetailScreen');
const RulesScreen = screen(rules, 'RulesScreen');
const ForumScreen = screen(forum, 'ForumScreen');
const PrepBeforeScreen = screen(jail, 'PrepBeforeScreen');
const LiveScreen = screen(jail, 'LiveScreen');
const FiltersScreen = screen(filters, 'FiltersScreen');
const TryScreen = screen(tryAnyway, 'TryScreen');
const PrepScreen = screen(prep, 'PrepScreen');
const CollaborationScreen = screen(collaboration, 'CollaborationScreen');
const RemindersScreen = screen(reminders, 'RemindersScreen');
const ProgressScreen = screen(progress, 'ProgressScreen');
const SubscriptionScreen = screen(subscription, 'SubscriptionScreen');
const YourDataScreen = screen(privacy, 'YourDataScreen');
const AccountDeletedScreen = screen(privacy, 'AccountDeletedScreen');

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
        <Route path="/" element={<IntroScreen />} />
        <Route path="/index.html" element={<Navigate to="/" replace />} />
        <Route path="/signin" element={<SigninScreen />} />
        <Route path="/signup" element={<SignupScreen />} />
        <Route path="/guest/updatePassword/:token" element={<UpdatePasswordScreen />} />
        <Route path="/guest/verifyEmail/:token" element={<VerifyEmailScreen />} />
        <Route path="/guest/loginAsLimFacilitator/:token/:guestId" element={<LoginAsLimFacilitatorScreen />} />
        <Route path="/guest/deleted" element={<AccountDeletedScreen />} />
        <Route path="/jail/prep_before/:id" element={<PrepBeforeScreen />} />
        <Route path="/jail/prep/:id" element={<PrepScreen />} />
        <Route path="/jail/live/try" element={<TryScreen />} />
        <Route path="/jail/live/:id" element={<LiveScreen />} />
        <Route path="/camera-check" element={<CameraCheck />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
      <Route element={<FrameForSession />}>
        <Route path="/guest/resetPasswordEmail" element={<ResetPasswordEmailScreen />} />
      </Route>
      <Route element={<AppFrame withNav />}>
        <Route path="/reservations" element={<ReservationListScreen />} />
        <Route path="/reservation/add" element={<ReservationAddScreen />} />
        <Route path="/reservation/added" element={<ReservationAddedScreen />} />
        <Route path="/reservation/edit/:id" element={<ReservationEditScreen />} />
        <Route path="/reservation/edited/:id" element={<ReservationEditedScreen />} />
        <Route path="/reservation/remove/:id" element={<ReservationRemoveScreen />} />
        <Route path="/reservation/removed" element={<ReservationRemovedScreen />} />
        <Route path="/reservation/:id" element={<ReservationDetailScreen />} />
        <Route path="/rules" element={<RulesScreen />} />
        <Route path="/guest/show" element={<GuestShowScreen />} />
        <Route path="/guest/edit" element={<GuestEditScreen />} />
        <Route path="/guest/editTitle" element={<GuestEditTitleScreen />} />
        <Route path="/guest/editEmail" element={<GuestEditEmailScreen />} />
        <Route path="/guest/editPhone" element={<GuestEditPhoneScreen />} />
        <Route path="/guest/edited" element={<GuestEditedScreen />} />
        <Route path="/guest/data" element={<YourDataScreen />} />
        <Route path="/subscription" element={<SubscriptionScreen />} />
        <Route path="/userForum" element={<ForumScreen />} />
        <Route path="/collaboration" element={<CollaborationScreen />} />
        <Route path="/reminders" element={<RemindersScreen />} />
        <Route path="/progress" element={<ProgressScreen />} />
        <Route path="/filters" element={<FiltersScreen />} />
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
