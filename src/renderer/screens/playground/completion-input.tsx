/**
 * A text field that offers the server's completions as the person types (completion/complete,
 * asked after a short pause). Ariakit's Combobox gives the listbox semantics and keys.
 */
import { Combobox, ComboboxItem, ComboboxPopover, ComboboxProvider } from '@ariakit/react';
import { useEffect, useRef, useState } from 'react';
import { completeArgument } from '../../app/playground-commands.js';
import { useServices } from '../../app/services.js';

export function CompletionInput(props: {
  server: string;
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** The prompt or resource template the argument belongs to. */
  completionRef: Record<string, unknown>;
  name: string;
  /** Other arguments filled in so far (the server may complete in their context). */
  context: Record<string, string>;
  required?: boolean;
  description?: string | undefined;
  testId?: string;
}) {
  const services = useServices();
  const [values, setValues] = useState<string[]>([]);
  const asked = useRef(0);
  const { server, completionRef, name, value, context } = props;
  const contextKey = JSON.stringify(context);
  const refKey = JSON.stringify(completionRef);
  useEffect(() => {
    const n = ++asked.current;
    const t = setTimeout(() => {
      void completeArgument(services, server, JSON.parse(refKey) as Record<string, unknown>, name, value, JSON.parse(contextKey) as Record<string, string>).then((found) => {
        if (n === asked.current) setValues(found.filter((v) => v !== value));
      });
    }, 150);
    return () => clearTimeout(t);
  }, [services, server, refKey, name, value, contextKey]);
  return (
    <div className="field">
      <label htmlFor={props.id}>
        {props.label}
        {props.required && <span className="required" aria-hidden="true">*</span>}
      </label>
      <ComboboxProvider value={value} setValue={props.onChange}>
        <Combobox id={props.id} className="input" required={props.required} aria-describedby={props.description ? `${props.id}-hint` : undefined} data-testid={props.testId} autoComplete="list" />
        {values.length > 0 && (
          <ComboboxPopover className="completions" gutter={4} sameWidth aria-label={`Suggestions for ${props.label}`}>
            {values.slice(0, 30).map((v) => (
              <ComboboxItem key={v} value={v} className="completion-item" data-testid="completion-item" />
            ))}
          </ComboboxPopover>
        )}
      </ComboboxProvider>
      {props.description && (
        <p className="hint" id={`${props.id}-hint`}>
          {props.description}
        </p>
      )}
    </div>
  );
}
