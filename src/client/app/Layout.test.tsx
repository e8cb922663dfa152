import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n.ts';
import { AppHeader } from './AppHeader.tsx';

describe('the static shell of index.html', () => {
  it("is the frame's header as the visitor's first screen renders it (a plain link home), so the page paints it before the scripts run and nothing moves when they do", () => {
    const page = readFileSync(new URL('../../../index.html', import.meta.url), 'utf8');
    const shell = /<div id="root">\s*<div class="app-frame">\s*(<header class="app-header">[\s\S]*?<\/header>)\s*<\/div>\s*<\/div>/.exec(page)?.[1];
    expect(shell, 'index.html has the header in #root').toBeDefined();
    expect(shell?.replace(/>\s+</g, '><')).toBe(
      renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <AppHeader />
        </I18nextProvider>,
      ),
    );
  });
});
