/** Copies text to the clipboard and says so (in the button, announced politely). */
import { useEffect, useState } from 'react';
import { Icon } from './icons.js';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an insecure context, a test browser): select-and-copy fallback.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

const COPIED = 'Copied';
const FAILED = 'Copy failed';

/** `text` may take a call to make (the curl command reads the settings). */
export function CopyButton({ label, text, testId, small = true }: { label: string; text: () => string | Promise<string>; testId?: string; small?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async (): Promise<void> => {
    let ok = false;
    try {
      ok = await copyText(await text());
    } catch {
      ok = false;
    }
    setState(ok ? 'copied' : 'failed');
  };
  return (
    <button type="button" className={`button${small ? ' button-small' : ''}`} data-testid={testId} onClick={() => void copy()}>
      <Icon name={state === 'copied' ? 'check' : 'copy'} />
      {/* The label and "Copy failed" (longer than "Copied") are also drawn, invisible, by CSS
          (stable-label, from data-sizes) in the same grid cell: the button keeps the width of its
          longest text, so "Copied" does not move its neighbours. */}
      <span className="stable-label" data-size-a={label} data-size-b={FAILED}>
        <span aria-live="polite">{state === 'copied' ? COPIED : state === 'failed' ? FAILED : label}</span>
      </span>
    </button>
  );
}
