import { describe, expect, it } from 'vitest';
import type { CatalogInput } from '../../../shared/api/catalog-contract.js';
import { fieldKind, initialValues, valuesToSend } from './install-form-model.js';

const input = (extra: Partial<CatalogInput>): CatalogInput => ({ key: 'env:X', kind: 'env', name: 'X', required: false, secret: false, format: 'string', ...extra });

describe('the install form', () => {
  it('starts with the defaults, and a required choice on its first choice', () => {
    expect(initialValues([input({ key: 'env:MODE', default: 'fast', choices: ['slow', 'fast'] }), input({ key: 'env:K', required: true, choices: ['a', 'b'] }), input({ key: 'env:S', secret: true, required: true })])).toEqual({ 'env:MODE': 'fast', 'env:K': 'a' });
  });
  it('sends only what has a value', () => {
    expect(valuesToSend({ a: '', b: 'x' })).toEqual({ b: 'x' });
  });
  it('draws choices as a select, booleans as a checkbox, secrets as a password', () => {
    expect(fieldKind(input({ choices: ['a'] }))).toBe('select');
    expect(fieldKind(input({ format: 'boolean' }))).toBe('checkbox');
    expect(fieldKind(input({ secret: true }))).toBe('password');
    expect(fieldKind(input({ format: 'number' }))).toBe('number');
  });
});
