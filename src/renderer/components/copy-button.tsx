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

export function CopyButton({ label, text, testId, small = true }: { label: string; text: () => string; testId?: string; small?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button type="button" className={`button${small ? ' button-small' : ''}`} data-testid={testId} onClick={() => void copyText(text()).then((ok) => setState(ok ? 'copied' : 'failed'))}>
      <Icon name={state === 'copied' ? 'check' : 'copy'} />
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}</span>
    </button>
  );
}
