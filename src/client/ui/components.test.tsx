import Coffee from 'lucide-react/icons/coffee';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Card } from './Card.tsx';
import { Chip } from './Chip.tsx';
import { SegmentedControl } from './SegmentedControl.tsx';
import { Toast } from './Toast.tsx';

/** The attributes (lower-cased names, as HTML reads them) of each `<tag …>` in the markup React renders for `node`: the node tests have no DOM. */
function tagsOf(node: ReactNode, tag: string): Record<string, string>[] {
  const html = renderToStaticMarkup(node);
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map(([, attributes = '']) =>
    Object.fromEntries([...attributes.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name = '', value = '']) => [name.toLowerCase(), value])),
  );
}

function onlyTag(node: ReactNode, tag: string): Record<string, string> {
  const tags = tagsOf(node, tag);
  expect(tags).toHaveLength(1);
  return tags[0] ?? {};
}

const noop = () => undefined;

describe('Card', () => {
  it('is a section labelled by its heading, with the actions in its header', () => {
    const card = (
      <Card title="Next jail" actions={<a href="/reservation/1">Open</a>}>
        <p>Tomorrow 9:00</p>
      </Card>
    );
    const section = onlyTag(card, 'section');
    const heading = onlyTag(card, 'h2');
    expect(section['aria-labelledby']).toBe(heading.id);
    expect(heading.class).toBe('card-title');
    expect(renderToStaticMarkup(card)).toMatch(
      /^<section class="card"[^>]*><header class="card-header"><h2[^>]*>Next jail<\/h2><div class="card-actions"><a href="\/reservation\/1">Open<\/a><\/div><\/header><p>Tomorrow 9:00<\/p><\/section>$/,
    );
  });

  it('takes the heading level of its place in the outline', () => {
    expect(
      tagsOf(
        <Card title="Plan" headingLevel={3}>
          x
        </Card>,
        'h3',
      ),
    ).toHaveLength(1);
  });

  it('is a plain box without a title, so that it adds no landmark', () => {
    const markup = renderToStaticMarkup(<Card className="extra">Body</Card>);
    expect(markup).toBe('<div class="card extra">Body</div>');
  });
});

describe('Chip', () => {
  it('is a plain label in a tone, its icon hidden from assistive technology', () => {
    const chip = (
      <Chip tone="success" icon={Coffee}>
        Break
      </Chip>
    );
    expect(tagsOf(chip, 'span')[0]).toEqual({ class: 'chip success' });
    expect(onlyTag(chip, 'svg')).toMatchObject({ 'aria-hidden': 'true', focusable: 'false' });
    expect(tagsOf(chip, 'button')).toEqual([]);
    expect(renderToStaticMarkup(<Chip>Trial</Chip>)).toBe('<span class="chip"><span>Trial</span></span>');
  });

  it('is a toggle button that says whether it is pressed', () => {
    expect(
      onlyTag(
        <Chip pressed={false} onPressedChange={noop}>
          Past
        </Chip>,
        'button',
      ),
    ).toEqual({
      type: 'button',
      class: 'chip toggle',
      'aria-pressed': 'false',
    });
    expect(
      onlyTag(
        <Chip pressed onPressedChange={noop}>
          Past
        </Chip>,
        'button',
      )['aria-pressed'],
    ).toBe('true');
    expect(
      onlyTag(
        <Chip pressed disabled onPressedChange={noop}>
          Past
        </Chip>,
        'button',
      ),
    ).toHaveProperty('disabled');
  });
});

describe('SegmentedControl', () => {
  const options = [
    { value: 'light', label: 'Light' },
    { value: 'dark', label: 'Dark', icon: Coffee },
    { value: 'auto', label: 'Auto', disabled: true },
  ] as const;

  it('is a fieldset named by its legend, of radios of one name, the value checked', () => {
    const control = <SegmentedControl legend="Theme" value="dark" options={options} onValueChange={noop} />;
    expect(onlyTag(control, 'fieldset').class).toBe('segmented');
    expect(renderToStaticMarkup(control)).toContain('<legend class="segmented-legend">Theme</legend>');
    const radios = tagsOf(control, 'input');
    expect(radios.map((radio) => radio.type)).toEqual(['radio', 'radio', 'radio']);
    expect(new Set(radios.map((radio) => radio.name)).size).toBe(1);
    expect(radios[0]?.name).toBeTruthy();
    expect(radios.map((radio) => [radio.value, 'checked' in radio, 'disabled' in radio])).toEqual([
      ['light', false, false],
      ['dark', true, false],
      ['auto', false, true],
    ]);
  });

  it('names each radio by the label around it, the icon hidden', () => {
    const markup = renderToStaticMarkup(<SegmentedControl legend="Theme" value="dark" options={options} onValueChange={noop} />);
    expect(markup).toMatch(/<label class="segmented-option"><input[^>]*value="light"[^>]*\/?><span class="segmented-label">Light<\/span><\/label>/);
    expect(onlyTag(<SegmentedControl legend="Theme" value="dark" options={options} onValueChange={noop} />, 'svg')).toMatchObject({
      'aria-hidden': 'true',
    });
  });

  it('marks a label in another language', () => {
    const markup = renderToStaticMarkup(
      <SegmentedControl legend="Language" value="en" options={[{ value: 'ja', label: '日本語', lang: 'ja' }]} onValueChange={noop} />,
    );
    expect(markup).toContain('<span class="segmented-label" lang="ja">日本語</span>');
  });

  it('keeps a hidden legend for screen readers', () => {
    const markup = renderToStaticMarkup(<SegmentedControl legend="Theme" hideLegend value="light" options={options} onValueChange={noop} />);
    expect(markup).toContain('<legend class="visually-hidden">Theme</legend>');
  });
});

describe('Toast', () => {
  it('is an empty polite status region when quiet', () => {
    expect(renderToStaticMarkup(<Toast message={null} onDismiss={noop} />)).toBe('<div class="toast-region" role="status"></div>');
  });

  it('puts its one message in the status region', () => {
    const markup = renderToStaticMarkup(<Toast message="You are back online." icon={Coffee} onDismiss={noop} />);
    expect(markup).toMatch(
      /^<div class="toast-region" role="status"><p class="toast"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span>You are back online.<\/span><\/p><\/div>$/,
    );
  });
});
