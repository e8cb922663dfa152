import { useState } from 'react';
import type { z } from 'zod';
import type { Language } from '../../shared/constants.ts';
import { isMessageKey, message, type MessageKey } from '../../shared/messages.ts';
import { i18n } from '../i18n.ts';
import type { CallError } from './baseQuery.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { refusalShown } from './slices/network.ts';

/** A form's messages, each beside its field (docs/client.md, Global UI). */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** Which field of a form each refusal of the server (its `errorCode`, a message key) concerns. */
export type RefusalFields<F extends string> = Partial<Record<MessageKey, F>>;

/** Where a failed call's refusal shows: beside a field, in the banner, or nowhere (the base query has shown what was no refusal). */
type RefusalPlace<F extends string> = { field: F; message: string } | { banner: string } | null;

function isCallError(error: unknown): error is CallError {
  return typeof error === 'object' && error !== null && 'status' in error && typeof (error as { message?: unknown }).message === 'string';
}

/**
 * Where a failed call's error goes: a refusal whose code names one of the
 * form's fields beside that field, any other refusal in the banner; offline,
 * an unreachable or failing server, and the calls the app dropped, the base
 * query has already dealt with.
 */
export function placeRefusal<F extends string>(error: unknown, fields: RefusalFields<F>): RefusalPlace<F> {
  if (!isCallError(error) || error.status !== 'FAILED') return null;
  const field = error.code !== undefined && isMessageKey(error.code) ? fields[error.code] : undefined;
  return field === undefined ? { banner: error.message } : { field, message: error.message };
}

/**
 * What a shared schema finds wrong with a form's values, every field at
 * once, each by the first rule it breaks, in the server's words (the
 * schemas' rules name message keys); a rule that names none says
 * 'Please fill this in.' of an empty field, else 'Please check this field.'.
 */
export function schemaErrors<F extends string>(schema: z.ZodType, values: Partial<Record<F, unknown>>, language: Language): FieldErrors<F> {
  const parsed = schema.safeParse(values);
  const errors: FieldErrors<F> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '') as F;
    if (errors[field] !== undefined) continue;
    const empty = values[field] === '';
    errors[field] = isMessageKey(issue.message)
      ? message(language, issue.message)
      : i18n.t(empty ? 'fieldRequired' : 'fieldInvalid', { ns: 'common', lng: language });
  }
  return errors;
}

/**
 * The errors of one form, beside their fields: its own rules and the shared
 * schemas checked before sending (several at once), then the server's
 * refusal of what was sent. The form's calls say `refusalsBesideFields`, so
 * that a refusal reaches the form instead of the banner; one that concerns
 * none of the form's fields goes to the banner from here.
 */
export function useFieldErrors<F extends string>(refusalFields: RefusalFields<F> = {}) {
  const dispatch = useAppDispatch();
  const language = useAppSelector((state) => state.application.language);
  const [errors, setErrors] = useState<FieldErrors<F>>({});

  /** Shows these errors in place of the last ones; whether there were none. */
  function show(found: FieldErrors<F>): boolean {
    setErrors(found);
    return Object.values(found).every((text) => text === undefined);
  }

  return {
    errors,
    show,
    /** Checks the values by a shared schema, beside the form's own rules' `more`; whether the form may be sent. */
    check(schema: z.ZodType, values: Partial<Record<F, unknown>>, more: FieldErrors<F> = {}): boolean {
      return show({ ...schemaErrors(schema, values, language), ...more });
    },
    /** Whether a call succeeded; when it was refused, shows why beside the field it concerns, or in the banner. */
    succeeded<T>(result: { data: T } | { error: unknown }): result is { data: T } {
      if ('data' in result) return true;
      const place = placeRefusal(result.error, refusalFields);
      if (place !== null && 'field' in place) setErrors({ [place.field]: place.message } as FieldErrors<F>);
      else if (place !== null) dispatch(refusalShown(place.banner));
      return false;
    },
  };
}
