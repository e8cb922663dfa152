/** Collaboration (route /collaboration): the trigger and the webhook. */
export { CollaborationScreen } from './CollaborationScreen.tsx';
