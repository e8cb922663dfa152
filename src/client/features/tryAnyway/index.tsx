/** Try-anyway (docs/try-anyway.md): the waiting screen at /jail/live/try. */
export { TryScreen } from './TryScreen.tsx';
