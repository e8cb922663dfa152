/**
 * The account screens (SPEC §2). PLACEHOLDERS from the shell: the account
 * helper replaces them, keeping these exports (App.tsx routes to them by name).
 */
import { Placeholder } from '../../app/Layout.tsx';

export const SigninScreen = () => <Placeholder title="Sign in" />;
export const SignupScreen = () => <Placeholder title="Sign up" />;
export const GuestShowScreen = () => <Placeholder title="Account" />;
export const GuestEditScreen = () => <Placeholder title="Account info" />;
export const GuestEditTitleScreen = () => <Placeholder title="Username" />;
export const GuestEditEmailScreen = () => <Placeholder title="E-mail" />;
export const GuestEditPhoneScreen = () => <Placeholder title="Phone" />;
export const GuestEditedScreen = () => <Placeholder title="Saved" />;
export const ResetPasswordEmailScreen = () => <Placeholder title="Reset password" />;
export const UpdatePasswordScreen = () => <Placeholder title="New password" />;
export const VerifyEmailScreen = () => <Placeholder title="Verify e-mail" />;
export const LoginAsLimFacilitatorScreen = () => <Placeholder title="Facilitator" />;
