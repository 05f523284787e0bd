/**
 * A destructive action that asks first, inline (no modal): the first press turns the button into
 * "Confirm"/"Cancel"; focus moves to Cancel, the safe choice.
 */
import { useEffect, useRef, useState } from 'react';

/** `small`: sized as the small buttons beside it (a toolbar of `button-small`). */
export function ConfirmButton(props: { label: string; confirmLabel: string; onConfirm(): void | Promise<void>; testId?: string; accessibleName?: string; small?: boolean }) {
  const [asking, setAsking] = useState(false);
  const size = props.small ? ' button-small' : '';
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" className={`button button-danger-quiet${size}`} aria-label={props.accessibleName} data-testid={props.testId} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={props.accessibleName ?? props.label}>
      <button type="button" className={`button button-danger${size}`} data-testid={props.testId ? `${props.testId}-confirm` : undefined} onClick={() => { setAsking(false); void props.onConfirm(); }}>
        {props.confirmLabel}
      </button>
      <button type="button" className={`button${size}`} ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
