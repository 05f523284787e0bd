/**
 * A form generated from a JSON Schema (react-jsonschema-form, its plain theme styled by
 * styles/forms.css): a tool's arguments, an elicitation's requested fields. Validated as the
 * person types by the interpreting validator (no eval, see
 * schema-validator.ts). Submitting (Enter, or the form's own button) hands over the data.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
// The package index also loads a test helper that needs the Ajv validator (not installed, and
// not usable under the UI's CSP): the Form component itself is imported directly.
import Form from '@rjsf/core/lib/components/Form.js';
import { useState, type ReactNode } from 'react';
import { formValidator } from './schema-validator.js';

// Our own submit button; list items without move buttons (reordering arguments is rarely what a person wants here).
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true }, 'ui:globalOptions': { orderable: false } };

export function hasFields(schema: object | undefined): boolean {
  const props = (schema as { properties?: object } | undefined)?.properties;
  return props !== undefined && Object.keys(props).length > 0;
}

export function SchemaForm(props: {
  schema: object;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  onSubmit(value: Record<string, unknown>): void;
  /** Unique per form on the page: field ids derive from it. */
  idPrefix: string;
  children?: ReactNode;
  disabled?: boolean;
  testId?: string;
  /** The form element's id, for a submit button outside it (`<button form={formId}>`, a dialog's footer). */
  formId?: string;
}) {
  // Controlled, as the library expects: it recomputes its state from `formData` whenever its
  // props change (a re-render of the parent re-creates `children`), so `formData` must always be
  // what it last reported. The value given is where it starts (remount it, with a key, to start over).
  const [data, setData] = useState(props.value);
  return (
    <div className="schema-form" data-testid={props.testId}>
      <Form
        schema={props.schema as RJSFSchema}
        uiSchema={UI_SCHEMA}
        validator={formValidator}
        formData={data}
        idPrefix={props.idPrefix}
        {...(props.formId ? { id: props.formId } : {})}
        disabled={props.disabled}
        showErrorList={false}
        noHtml5Validate
        liveValidate="onChange"
        focusOnFirstError
        onChange={(e) => {
          const next = (e.formData ?? {}) as Record<string, unknown>;
          setData(next);
          props.onChange(next);
        }}
        onSubmit={(e) => props.onSubmit((e.formData ?? {}) as Record<string, unknown>)}
      >
        {props.children ?? <span />}
      </Form>
    </div>
  );
}
