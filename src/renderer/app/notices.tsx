/** Confirmations in a polite live region, dismissed after a few seconds or by the person. */
import { useEffect } from 'react';
import { useNotices, useServices } from './services.js';

export function Notices() {
  const notices = useNotices((s) => s.notices);
  const { stores } = useServices();
  useEffect(() => {
    if (notices.length === 0) return;
    const oldest = notices[0]!;
    const t = setTimeout(() => stores.notices.getState().noticeDismissed(oldest.id), 5000);
    return () => clearTimeout(t);
  }, [notices, stores]);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className="notice">
          <span>{n.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => stores.notices.getState().noticeDismissed(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
