import type { ReactNode } from 'react';

/** An empty list says what it is for and what to do next. */
export function EmptyState({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}
