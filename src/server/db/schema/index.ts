// Every table of the server; drizzle-kit reads this folder, and the
// database handle is typed by this module. Add a table file here.
export * from './guests.ts';
export * from './operations.ts';
export * from './wardens.ts';
export * from './reservations.ts';
export * from './jails.ts';
export * from './payments.ts';
export * from './forum.ts';
export * from './triggers.ts';
export * from './reminders.ts';
export * from './contacts.ts';
