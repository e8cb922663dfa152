/** The account screens (docs/client.md, Screens and routes); App.tsx routes to these exports by name. */
import './account.css';
export { SigninScreen } from './Signin.tsx';
export { SignupScreen } from './Signup.tsx';
export { GuestShowScreen } from './GuestShow.tsx';
export { GuestEditScreen, GuestEditTitleScreen, GuestEditEmailScreen, GuestEditedScreen } from './GuestEdit.tsx';
export { GuestEditPhoneScreen } from './EditPhone.tsx';
export { ResetPasswordEmailScreen, TakeBackScreen, UpdatePasswordScreen } from './Password.tsx';
export { VerifyEmailScreen, LoginAsLimFacilitatorScreen } from './Links.tsx';
