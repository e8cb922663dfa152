/** The camera check (route /camera-check): the screen is CameraCheckScreen.tsx; App.tsx routes to these exports by name. */
export { CameraCheck } from './CameraCheckScreen.tsx';
