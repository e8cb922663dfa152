/** The approved scenes feature (route /filters). */
export { FiltersScreen } from './FiltersScreen.tsx';
