/** /subscription (docs/payments.md); App.tsx routes to this export by name. */
import './subscription.css';
export { SubscriptionScreen } from './SubscriptionScreen.tsx';
