/**
 * The few icons the UI uses, as inline SVG (no icon font, nothing fetched): 16 px, stroke in the
 * current text colour, hidden from assistive technology (every icon sits beside a text label).
 */
import type { ReactNode } from 'react';

const PATHS: Record<string, ReactNode> = {
  servers: (<><rect x="2.5" y="2.5" width="11" height="4.5" rx="1.2" /><rect x="2.5" y="9" width="11" height="4.5" rx="1.2" /><path d="M5 4.75h.01M5 11.25h.01" /></>),
  sessions: (<><path d="M2 4h12M2 8h8M2 12h10" /></>),
  clients: (<><rect x="2" y="3" width="12" height="8" rx="1.2" /><path d="M6 14h4M8 11v3" /></>),
  // A page with lines and a check: the audit trail.
  audit: (<><path d="M4 1.8h6l2.5 2.5v9.9H4z" /><path d="M6 6h4M6 8.5h2.5" /><path d="m7 11.6 1.2 1.2 2.6-2.6" /></>),
  keys: (<><circle cx="5.5" cy="10.5" r="3" /><path d="M7.6 8.4 13.5 2.5M11 5l1.8 1.8" /></>),
  settings: (<><circle cx="8" cy="8" r="2.2" /><path d="M8 1.8v1.6M8 12.6v1.6M1.8 8h1.6M12.6 8h1.6M3.6 3.6l1.1 1.1M11.3 11.3l1.1 1.1M3.6 12.4l1.1-1.1M11.3 4.7l1.1-1.1" /></>),
  profiles: (<><circle cx="6" cy="6" r="2.5" /><path d="M1.8 13.5c.6-2.4 2.2-3.6 4.2-3.6s3.6 1.2 4.2 3.6M10.5 3.7a2.3 2.3 0 0 1 0 4.6M12 10.2c1.1.5 1.9 1.6 2.2 3.3" /></>),
  search: (<><circle cx="7" cy="7" r="4.3" /><path d="m10.2 10.2 3.6 3.6" /></>),
  play: <path d="M5 3.2v9.6L12.8 8z" />,
  copy: (<><rect x="5.5" y="5.5" width="8" height="8" rx="1.3" /><path d="M10.5 5.5V3.8c0-.7-.6-1.3-1.3-1.3H3.8c-.7 0-1.3.6-1.3 1.3v5.4c0 .7.6 1.3 1.3 1.3h1.7" /></>),
  close: <path d="m4 4 8 8M12 4l-8 8" />,
  chevronRight: <path d="m6 3.5 4.5 4.5L6 12.5" />,
  chevronDown: <path d="m3.5 6 4.5 4.5L12.5 6" />,
  replay: (<><path d="M2.8 8a5.2 5.2 0 1 0 1.6-3.8" /><path d="M2.5 2.5v3h3" /></>),
  compare: (<><path d="M5.5 2v12M10.5 2v12" /><path d="m2.5 5 3-3 3 3M7.5 11l3 3 3-3" /></>),
  chart: (<><path d="M2 13.5h12" /><path d="M4 11V8M7 11V4.5M10 11V7M13 11V3" /></>),
  download: (<><path d="M8 2.5v7.5M4.8 7 8 10.2 11.2 7" /><path d="M2.5 12.5v1h11v-1" /></>),
  external: (<><path d="M9 2.5h4.5V7M13.5 2.5 7.5 8.5" /><path d="M11.5 9.5v3.2c0 .5-.4.8-.8.8H3.3c-.5 0-.8-.3-.8-.8V5.3c0-.4.3-.8.8-.8h3.2" /></>),
  plus: <path d="M8 3v10M3 8h10" />,
  trash: (<><path d="M2.8 4.2h10.4M6.3 4V2.6h3.4V4M4.2 4.2l.6 9.2h6.4l.6-9.2" /></>),
  alert: (<><path d="M8 1.8 14.5 13.5h-13z" /><path d="M8 6.3v3.3M8 11.6h.01" /></>),
  check: <path d="m3 8.5 3.2 3.2L13 4.8" />,
  stop: <rect x="4" y="4" width="8" height="8" rx="1" />,
  more: (<><circle cx="3.5" cy="8" r=".9" fill="currentColor" /><circle cx="8" cy="8" r=".9" fill="currentColor" /><circle cx="12.5" cy="8" r=".9" fill="currentColor" /></>),
  bolt: <path d="M9 1.5 3.5 9H8l-1 5.5L12.5 7H8z" />,
};

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg className={`icon${className ? ` ${className}` : ''}`} width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {PATHS[name]}
    </svg>
  );
}
