/**
 * "Verify chain": the hash chain checked (`audit.verify`, as `patchbay audit verify`), and its
 * answer where the button is: intact, or the first line that was edited, removed or moved, with
 * its file and line number.
 */
import { useState } from 'react';
import type { AuditVerifyDto } from '../../../shared/api/audit-contract.js';
import { ErrorMessage } from '../../components/error-message.js';
import { plural } from '../../components/format.js';
import { Icon } from '../../components/icons.js';
import { useServices } from '../../app/services.js';

type VerifyState = { state: 'idle' } | { state: 'running' } | { state: 'done'; result: AuditVerifyDto } | { state: 'failed'; message: string };

export function useVerify(): { verify: VerifyState; run(): Promise<void> } {
  const { bridge } = useServices();
  const [verify, setVerify] = useState<VerifyState>({ state: 'idle' });
  const run = async (): Promise<void> => {
    setVerify({ state: 'running' });
    const r = await bridge.call('audit.verify', {});
    setVerify(r.ok ? { state: 'done', result: r.value } : { state: 'failed', message: r.message });
  };
  return { verify, run };
}

export function VerifyButton({ running, onClick }: { running: boolean; onClick(): void }) {
  return (
    <button type="button" className="button" onClick={onClick} disabled={running} data-testid="audit-verify">
      {running ? <span className="spinner small" aria-hidden="true" /> : <Icon name="check" />} Verify chain
    </button>
  );
}

export function VerifyResult({ verify }: { verify: VerifyState }) {
  if (verify.state === 'failed') return <ErrorMessage testId="audit-verify-result">Could not check the chain: {verify.message}</ErrorMessage>;
  if (verify.state !== 'done') return null;
  const r = verify.result;
  if (r.ok) {
    return (
      <div className="outcome" role="status" data-testid="audit-verify-result">
        <p>
          <Icon name="check" /> <strong>The chain is intact:</strong> {plural(r.lines, 'line')} in {plural(r.files, 'file')}, none edited, removed or moved.
        </p>
      </div>
    );
  }
  const p = r.problem;
  return (
    <ErrorMessage testId="audit-verify-result">
      <strong>The chain is broken{p ? ` at line ${p.line}` : ''}.</strong>
      {p && (
        <p>
          <code data-testid="audit-verify-where">
            {p.file}:{p.line}
          </code>
          : {p.reason}.
        </p>
      )}
      <p>
        {plural(r.lines, 'line')} before it check out. The files were changed outside Patchbay: compare them with a copy kept elsewhere.
      </p>
    </ErrorMessage>
  );
}
