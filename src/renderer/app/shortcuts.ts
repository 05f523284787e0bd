/**
 * Keyboard shortcuts that work on every screen: Ctrl/Cmd-K opens the palette, `/` focuses the
 * screen's search (the element marked `data-shortcut="search"`), `j`/`k` move the selection in
 * the list marked `data-shortcut="rows"` (as its arrow keys do). Letters are ignored while the
 * person types in a field.
 */
import { useEffect } from 'react';

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function useGlobalShortcuts(openPalette: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        openPalette();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === '/') {
        const search = document.querySelector<HTMLElement>('[data-shortcut="search"]');
        if (search) {
          e.preventDefault();
          search.focus();
        }
        return;
      }
      if (e.key === 'j' || e.key === 'k') {
        const rows = document.querySelector<HTMLElement>('[data-shortcut="rows"]');
        if (!rows) return;
        e.preventDefault();
        rows.focus();
        rows.dispatchEvent(new KeyboardEvent('keydown', { key: e.key === 'j' ? 'ArrowDown' : 'ArrowUp', bubbles: true }));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openPalette]);
}
