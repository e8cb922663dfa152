/** "Your data" and the page after an account was deleted (docs/client.md, Screens and routes); App.tsx routes to these exports by name. */
import '../account/account.css';
import './privacy.css';
export { YourDataScreen } from './YourDataScreen.tsx';
export { AccountDeletedScreen } from './AccountDeletedScreen.tsx';
