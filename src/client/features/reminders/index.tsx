/** Reminders and calendar (route /reminders): reminders before a jail, and the calendar feed. */
export { RemindersScreen } from './RemindersScreen.tsx';
