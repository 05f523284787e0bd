/**
 * JSON Schema validation for forms and results, without code generation: Ajv compiles schemas
 * with `new Function`, which the UI's Content-Security-Policy (`script-src 'self'`, no
 * 'unsafe-eval') forbids, so @cfworker/json-schema (an interpreter) does the checking, and this
 * adapter gives react-jsonschema-form the validator interface it expects.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { createErrorHandler, toErrorSchema, unwrapErrorHandler, validationDataMerge, type CustomValidator, type ErrorTransformer, type RJSFSchema, type RJSFValidationError, type UiSchema, type ValidationData, type ValidatorType } from '@rjsf/utils';

const DRAFTS: Array<[RegExp, SchemaDraft]> = [
  [/draft-04/, '4'],
  [/draft-0[67]/, '7'],
  [/2019-09/, '2019-09'],
  [/2020-12/, '2020-12'],
];

function draftOf(schema: object): SchemaDraft {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared === 'string') for (const [pattern, draft] of DRAFTS) if (pattern.test(declared)) return draft;
  // MCP's default dialect (2025-11-25) is 2020-12.
  return '2020-12';
}

// The library annotates the schemas it is given: validators are built from copies, kept per schema.
const cache = new WeakMap<object, Validator>();

function validatorFor(schema: object, root?: object): Validator {
  const key = root && root !== schema ? root : schema;
  const cached = key === schema ? cache.get(schema) : undefined;
  if (cached) return cached;
  const copy = structuredClone(schema) as Schema;
  if (root && root !== schema) {
    const r = root as { $defs?: unknown; definitions?: unknown };
    if (r.$defs !== undefined && copy.$defs === undefined) copy.$defs = structuredClone(r.$defs);
    if (r.definitions !== undefined && copy.definitions === undefined) copy.definitions = structuredClone(r.definitions);
  }
  const validator = new Validator(copy, draftOf(schema), false);
  if (key === schema) cache.set(schema, validator);
  return validator;
}

/** Keywords that only say "something below failed": their children say what. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas', 'patternProperties', 'additionalProperties']);

/** `#/a/0/b` → `.a.0.b` (RJSF's property path); the missing property of a `required` error is appended. */
function toProperty(unit: OutputUnit): string {
  const parts = unit.instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean).map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (unit.keyword === 'required') {
    const missing = /property "([^"]+)"/.exec(unit.error)?.[1];
    if (missing) parts.push(missing);
  }
  return parts.map((p) => `.${p}`).join('');
}

function cleanMessage(unit: OutputUnit): string {
  if (unit.keyword === 'required') return 'is required';
  return unit.error.replace(/^Instance (does not|is not|has)/, (m) => m.replace('Instance ', '')).replace(/^Instance /, '');
}

/** Errors a person can act on: one per failing keyword at the leaves. */
export function schemaErrors(schema: object, value: unknown, root?: object): RJSFValidationError[] {
  const result = validatorFor(schema, root).validate(value);
  if (result.valid) return [];
  const out: RJSFValidationError[] = [];
  const seen = new Set<string>();
  for (const unit of result.errors) {
    if (WRAPPERS.has(unit.keyword)) continue;
    const property = toProperty(unit);
    const message = cleanMessage(unit);
    const stack = `${property || 'value'} ${message}`;
    if (seen.has(stack)) continue;
    seen.add(stack);
    out.push({ name: unit.keyword, property, message, stack, schemaPath: unit.keywordLocation });
  }
  return out;
}

class InterpretingValidator implements ValidatorType {
  validateFormData(formData: unknown, schema: RJSFSchema, customValidate?: CustomValidator, transformErrors?: ErrorTransformer, uiSchema?: UiSchema): ValidationData<unknown> {
    let errors = schemaErrors(schema, formData ?? {});
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<unknown>(errors);
    const data: ValidationData<unknown> = { errors, errorSchema };
    if (!customValidate) return data;
    const handler = customValidate(formData, createErrorHandler(formData), uiSchema, errorSchema);
    return validationDataMerge(data, unwrapErrorHandler(handler));
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      return validatorFor(schema, rootSchema).validate(formData).valid;
    } catch {
      return false;
    }
  }

  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      return { errors: schemaErrors(schema, formData) as Result[] };
    } catch (err) {
      return { validationError: err as Error };
    }
  }
}

export const formValidator: ValidatorType = new InterpretingValidator();
