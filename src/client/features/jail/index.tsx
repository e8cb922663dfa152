/** The jail's screens (routes /jail/prep_before/:id and /jail/live/:id): the screen is JailScreens.tsx; App.tsx routes to these exports by name. */
export { LiveScreen, PrepBeforeScreen } from './JailScreens.tsx';
