/** An error shown where it happened, with what to fix; announced to screen readers. */
export function ErrorMessage({ children, id, testId }: { children: React.ReactNode; id?: string; testId?: string }) {
  return (
    <div className="error-message" role="alert" id={id} data-testid={testId}>
      {children}
    </div>
  );
}
