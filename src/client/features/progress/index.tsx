/** Progress (route /progress): focused hours, streaks, attendance, the last jails. */
export { ProgressScreen } from './ProgressScreen.tsx';
