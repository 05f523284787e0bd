// The form validator: schema errors as a person reads them, at the field they belong to, with no
// code generation (the UI's CSP forbids eval).
import { describe, expect, it } from 'vitest';
import { formValidator, schemaErrors } from './schema-validator.js';

const schema = { type: 'object', properties: { name: { type: 'string', minLength: 1 }, guests: { type: 'integer', minimum: 1 } }, required: ['name', 'guests'] } as const;

describe('schema validator', () => {
  it('names the field of each problem', () => {
    const errors = schemaErrors(schema, { guests: 0 });
    expect(errors.map((e) => [e.property, e.name]).sort()).toEqual([
      ['.guests', 'minimum'],
      ['.name', 'required'],
    ]);
    expect(schemaErrors(schema, { name: 'Ada', guests: 2 })).toEqual([]);
    const data = formValidator.validateFormData({ guests: 'x' }, schema as never);
    expect(data.errorSchema).toMatchObject({ guests: { __errors: [expect.any(String)] }, name: { __errors: ['is required'] } });
    expect(formValidator.isValid({ type: 'string' }, 3, {})).toBe(false);
    // The schema given is not annotated by the library.
    expect(Object.keys(schema)).toEqual(['type', 'properties', 'required']);
  });
});
