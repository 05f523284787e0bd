/**
 * What the demo server answers: MCP's methods over its tools, resources and prompts (a
 * dependency-free server, so it ships inside Patchbay and starts in milliseconds).
 */
import { complete, getPrompt, listPrompts, listResources, listTemplates, readResource, CLOCK_URI } from './demo-content.js';
import { RpcError, StdioPeer, type Json, type RequestContext } from './demo-protocol.js';
import { callTool, listTools } from './demo-tools.js';

export const PATCHBAY_DEMO_NAME = 'patchbay-demo';
const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/** The demo server on a peer that writes with `write` (stdout when run). */
export function createDemoServer(write?: (line: string) => void): { peer: StdioPeer; stop(): void } {
  const subscriptions = new Map<string, NodeJS.Timeout>();
  async function handle(method: string, params: Json, ctx: RequestContext): Promise<Json> {
    switch (method) {
      case 'initialize': {
        peer.clientCapabilities = (params.capabilities ?? {}) as Json;
        const asked = String(params.protocolVersion ?? '');
        return {
          protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[PROTOCOL_VERSIONS.length - 1],
          capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} },
          serverInfo: { name: PATCHBAY_DEMO_NAME, title: 'Patchbay demo', version: '1.0.0' },
          instructions: 'A demo server shipped with Patchbay: try book_table (elicitation), summarize (sampling), long_task (progress) and read_secret (a failing tool).',
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: listTools() };
      case 'tools/call':
        return callTool(params, ctx);
      case 'resources/list':
        return listResources();
      case 'resources/templates/list':
        return listTemplates();
      case 'resources/read':
        return readResource(String(params.uri ?? ''));
      case 'resources/subscribe': {
        const uri = String(params.uri ?? '');
        if (uri === CLOCK_URI && !subscriptions.has(uri)) {
          const timer = setInterval(() => peer.notify('notifications/resources/updated', { uri }), 5000);
          timer.unref();
          subscriptions.set(uri, timer);
        }
        return {};
      }
      case 'resources/unsubscribe':
        clearInterval(subscriptions.get(String(params.uri ?? '')));
        subscriptions.delete(String(params.uri ?? ''));
        return {};
      case 'prompts/list':
        return listPrompts();
      case 'prompts/get':
        return getPrompt(params);
      case 'completion/complete':
        return complete(params);
      case 'logging/setLevel':
        peer.logLevel = String(params.level ?? 'info');
        return {};
      default:
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  }

  const peer = new StdioPeer(handle, () => {}, write);
  return {
    peer,
    stop: () => {
      for (const timer of subscriptions.values()) clearInterval(timer);
      subscriptions.clear();
    },
  };
}
