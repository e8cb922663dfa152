import Eye from 'lucide-react/icons/eye';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkContext } from '../ui/link.tsx';

/**
 * The frame's header: the brand, a link home. index.html holds the same
 * markup (Layout.test.tsx checks it), painted before the scripts have run.
 */
export function AppHeader() {
  const { t } = useTranslation('common');
  const Link = use(LinkContext);
  return (
    <header className="app-header">
      <Link to="/" className="brand">
        <Eye className="brand-mark" aria-hidden="true" focusable="false" size={26} strokeWidth={2.25} />
        <span>{t('brand')}</span>
      </Link>
    </header>
  );
}
