/** The rules (route /rules): the screen is RulesScreen.tsx; App.tsx routes to these exports by name. */
export { RulesScreen } from './RulesScreen.tsx';
