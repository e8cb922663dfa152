import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PasswordField, SelectField, TextAreaField, TextField } from './Field.tsx';

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

/** The text of the element whose id is `id`. */
function textOf(node: ReactNode, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(renderToStaticMarkup(node))?.[1];
}

const noop = () => undefined;

describe('TextField', () => {
  it('ties its label to the input and wraps both in .field', () => {
    const field = <TextField label="E-mail" value="" onValueChange={noop} />;
    const label = onlyTag(field, 'label');
    const input = onlyTag(field, 'input');
    expect(input.id).toBeTruthy();
    expect(label.for).toBe(input.id);
    expect(renderToStaticMarkup(field)).toMatch(/^<div class="field"><label[^>]*>E-mail<\/label><input/);
  });

  it('passes the input attributes through', () => {
    const input = onlyTag(
      <TextField
        label="Code"
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        minLength={6}
        maxLength={6}
        value="12"
        onValueChange={noop}
      />,
      'input',
    );
    expect(input).toMatchObject({
      name: 'code',
      type: 'text',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      required: '',
      minlength: '6',
      maxlength: '6',
      value: '12',
    });
  });

  it('is described by nothing and valid without a hint or an error', () => {
    const input = onlyTag(<TextField label="E-mail" value="" onValueChange={noop} />, 'input');
    expect(input).not.toHaveProperty('aria-describedby');
    expect(input).not.toHaveProperty('aria-invalid');
    expect(tagsOf(<TextField label="E-mail" value="" onValueChange={noop} />, 'p')).toEqual([]);
  });

  it('is described by its hint', () => {
    const field = <TextField label="E-mail" hint="We never share it." value="" onValueChange={noop} />;
    const input = onlyTag(field, 'input');
    expect(input).not.toHaveProperty('aria-invalid');
    expect(onlyTag(field, 'p')).toEqual({ id: input['aria-describedby'], class: 'field-hint' });
    expect(textOf(field, input['aria-describedby'] ?? '')).toBe('We never share it.');
  });

  it('marks the input invalid and is described by the error, which stands in the hint’s place and is announced', () => {
    const field = <TextField label="E-mail" hint="We never share it." error="That is not an e-mail address." value="x" onValueChange={noop} />;
    const input = onlyTag(field, 'input');
    expect(input['aria-invalid']).toBe('true');
    expect(onlyTag(field, 'p')).toEqual({ id: input['aria-describedby'], class: 'field-error', role: 'alert' });
    expect(textOf(field, input['aria-describedby'] ?? '')).toBe('That is not an e-mail address.');
  });

  it('renders what else belongs to the field after the input', () => {
    const markup = renderToStaticMarkup(
      <TextField label="Work" value="" onValueChange={noop}>
        <button type="button">Help</button>
      </TextField>,
    );
    expect(markup).toMatch(/<input[^>]*\/?><button type="button">Help<\/button><\/div>$/);
  });

  it('gives every field its own id', () => {
    const inputs = tagsOf(
      <>
        <TextField label="Password" value="" onValueChange={noop} />
        <TextField label="Confirm" value="" onValueChange={noop} />
      </>,
      'input',
    );
    expect(new Set(inputs.map((input) => input.id)).size).toBe(2);
  });
});

describe('PasswordField', () => {
  it('hides what is typed and asks the password manager for the current or a new password', () => {
    expect(onlyTag(<PasswordField label="Password" purpose="current" value="" onValueChange={noop} />, 'input')).toMatchObject({
      type: 'password',
      autocomplete: 'current-password',
    });
    expect(onlyTag(<PasswordField label="New password" purpose="new" value="" onValueChange={noop} />, 'input')).toMatchObject({
      type: 'password',
      autocomplete: 'new-password',
    });
  });
});

describe('TextAreaField', () => {
  it('ties its label and its error to the textarea', () => {
    const field = <TextAreaField label="JSON body" rows={6} error="Not JSON." value="{" onValueChange={noop} />;
    const textarea = onlyTag(field, 'textarea');
    expect(onlyTag(field, 'label').for).toBe(textarea.id);
    expect(textarea).toMatchObject({ rows: '6', 'aria-invalid': 'true' });
    expect(textOf(field, textarea['aria-describedby'] ?? '')).toBe('Not JSON.');
  });
});

describe('SelectField', () => {
  it('ties its label to a select of the options, the value selected', () => {
    const field = (
      <SelectField
        label="Duration"
        value="2"
        options={[
          { value: '1', label: '1:00', disabled: true },
          { value: '2', label: '2:00' },
        ]}
        onValueChange={noop}
      />
    );
    const select = onlyTag(field, 'select');
    expect(onlyTag(field, 'label').for).toBe(select.id);
    expect(tagsOf(field, 'option')).toEqual([
      { value: '1', disabled: '' },
      { value: '2', selected: '' },
    ]);
  });
});
