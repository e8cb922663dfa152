/**
 * The rules (route /rules). PLACEHOLDER from the shell: the reservations
 * helper replaces it, keeping the export `RulesScreen`.
 */
import { Placeholder } from '../../app/Layout.tsx';

export const RulesScreen = () => <Placeholder title="Rules" />;
