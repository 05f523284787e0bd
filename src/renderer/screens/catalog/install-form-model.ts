/**
 * The install form's values: one string per input key, defaults filled in; what is sent to
 * `catalog.plan` / `catalog.install` leaves out what is empty, so the engine's `missing` says
 * which required fields are still blank.
 */
import type { CatalogInput } from '../../../shared/api/catalog-contract.js';

export type FormValues = Record<string, string>;

export function initialValues(inputs: readonly CatalogInput[]): FormValues {
  const values: FormValues = {};
  for (const input of inputs) {
    if (input.default !== undefined) values[input.key] = input.default;
    // A required choice without a default starts on its first choice (a select cannot show "nothing" and be required).
    else if (input.choices && input.choices.length > 0 && input.required) values[input.key] = input.choices[0] ?? '';
  }
  return values;
}

export function valuesToSend(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** How a field is drawn. */
export function fieldKind(input: CatalogInput): 'select' | 'checkbox' | 'password' | 'number' | 'text' {
  if (input.choices && input.choices.length > 0) return 'select';
  if (input.format === 'boolean') return 'checkbox';
  if (input.secret) return 'password';
  if (input.format === 'number') return 'number';
  return 'text';
}

const KIND_TEXT: Record<CatalogInput['kind'], string> = { env: 'environment variable', header: 'HTTP header', url: 'URL variable', argument: 'argument' };

export function kindText(input: CatalogInput): string {
  return KIND_TEXT[input.kind];
}
