/**
 * What a profile costs in a model's context, both ways (issue 26): every tool the rules let
 * through, or on-demand tools (the pinned ones plus three meta-tools) — each against the limits
 * of the clients Patchbay knows (the engine's warnings lists). The row the profile serves by
 * default is marked; a client entry may choose the other (on-demand-panel.tsx).
 */
import type { ProfileView } from '../../../shared/api/profiles-contract.js';

type Warnings = ProfileView['warnings'];

const n = (v: number): string => v.toLocaleString('en-US');

export function ContextCost({ view }: { view: ProfileView }) {
  const servers = view.members.filter((m) => m.state === 'enabled').length;
  const od = view.onDemand;
  const pinned = od?.pinned.length ?? 0;
  return (
    <section className="panel" aria-labelledby="profile-totals-title" data-testid="profile-totals">
      <h2 id="profile-totals-title">In the model's context</h2>
      <div className="table-wrap">
        <table className="table cost-table">
          <caption className="visually-hidden">Tools and tokens a client carries, with every tool and with on-demand tools</caption>
          <thead>
            <tr>
              <th scope="col">Served as</th>
              <th scope="col" className="num">Tools</th>
              <th scope="col" className="num">Tokens</th>
              <th scope="col">Client limits</th>
            </tr>
          </thead>
          <tbody>
            <tr data-testid="cost-all">
              <th scope="row">
                All tools {od && !od.enabled && <span className="chip chip-accent">profile default</span>}
                <div className="muted small">every tool the rules let through</div>
              </th>
              <td className="num" data-testid="profile-total-tools">{n(view.totals.tools)}</td>
              <td className="num" data-testid="profile-total-tokens">{n(view.totals.tokens)}</td>
              <td>
                <Limits warnings={view.warnings} testId="profile-warnings" />
              </td>
            </tr>
            {od && (
              <tr data-testid="cost-on-demand">
                <th scope="row">
                  On demand {od.enabled && <span className="chip chip-accent">profile default</span>}
                  <div className="muted small">{pinned > 0 ? `pinned tools + 3 meta-tools` : '3 meta-tools, nothing pinned'}</div>
                </th>
                <td className="num" data-testid="on-demand-tools">{n(od.totals.tools)}</td>
                <td className="num" data-testid="on-demand-tokens">{n(od.totals.tokens)}</td>
                <td>
                  <Limits warnings={od.warnings} testId="on-demand-warnings" />
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <p className="muted small">
        {n(servers)} server{servers === 1 ? '' : 's'} · {n(view.changes.length)} changed tool{view.changes.length === 1 ? '' : 's'}. Limits known: Cursor about 40 tools, OpenAI and VS Code 128, Claude Code 25,000 tokens. Tokens are counted with the {view.tokenizer} tokenizer over what a client sends a model for each tool: name, title, description and schemas; tools only an MCP App calls are not counted.
      </p>
    </section>
  );
}

function Limits({ warnings, testId }: { warnings: Warnings; testId: string }) {
  if (warnings.length === 0) return <span className="muted small" data-testid={`${testId}-none`}>within every known limit</span>;
  return (
    <ul className="limit-list" data-testid={testId}>
      {warnings.map((w) => (
        <li key={`${w.client}-${w.kind}`}>
          <span className="chip chip-warn">{w.client}</span> {w.message}
        </li>
      ))}
    </ul>
  );
}
