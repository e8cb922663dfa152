/** Reminders and calendar (route /reminders): the calendar feed. */
export { RemindersScreen } from './RemindersScreen.tsx';
