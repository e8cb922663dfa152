/** The visitor's first screen (route /): the screen is IntroScreen.tsx; App.tsx routes to these exports by name. */
export { IntroScreen } from './IntroScreen.tsx';
