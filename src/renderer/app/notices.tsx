/**
 * Notices, below the screen rather than over it: the bar takes its own room at the bottom of the
 * content column, so a notice never covers what the person reads (at 900 × 700 a floating one
 * did). Confirmations in a polite live region, gone a few seconds after they were raised (the
 * store's timer); failures that happened on their own (a server crashed) in an assertive one,
 * kept until dismissed or until the person leaves the page where they appeared.
 */
import { Icon } from '../components/icons.js';
import type { Notice } from '../stores/notices-store.js';
import { useNotices, useServices } from './services.js';

export function Notices() {
  const notices = useNotices((s) => s.notices);
  const { stores } = useServices();
  const dismiss = (id: number): void => stores.notices.getState().noticeDismissed(id);
  return (
    <div className={`notices${notices.length === 0 ? ' notices-empty' : ''}`} data-testid="notices">
      <div role="alert" className="notice-stack">
        {notices.filter((n) => n.tone === 'error').map((n) => <NoticeCard key={n.id} notice={n} onDismiss={dismiss} />)}
      </div>
      <div role="status" aria-live="polite" className="notice-stack">
        {notices.filter((n) => n.tone !== 'error').map((n) => <NoticeCard key={n.id} notice={n} onDismiss={dismiss} />)}
      </div>
    </div>
  );
}

function NoticeCard({ notice, onDismiss }: { notice: Notice; onDismiss(id: number): void }) {
  return (
    <div className={`notice${notice.tone === 'error' ? ' notice-error' : ''}`} data-testid={notice.tone === 'error' ? 'notice-error' : 'notice'}>
      {notice.tone === 'error' && <Icon name="alert" />}
      <span className="notice-text">{notice.text}</span>
      {notice.href && (
        <a className="notice-link" href={notice.href} onClick={() => onDismiss(notice.id)}>
          Show
        </a>
      )}
      {notice.action && (
        <button type="button" className="notice-link" onClick={() => { notice.action!.run(); onDismiss(notice.id); }}>
          {notice.action.label}
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => onDismiss(notice.id)}>
        <Icon name="close" />
      </button>
    </div>
  );
}
