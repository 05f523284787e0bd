/** The demo server's resources (one static, one that changes, a template) and prompts, with completions. */
import { RpcError, type Json } from './demo-protocol.js';

const README = `# Patchbay demo server

This server ships with Patchbay so there is something to talk to on a fresh install.
Try its tools in the **playground**, then watch the traffic in **Sessions**.

- \`book_table\` asks *you* for details (elicitation)
- \`summarize\` asks *your model* (sampling)
- \`long_task\` reports progress
- \`read_secret\` fails, as real tools do

Remove it from the Servers screen when you no longer need it.
`;

const TOPICS = ['getting-started', 'inspector', 'playground', 'profiles', 'relay', 'security'];
const LANGUAGES = ['c', 'csharp', 'go', 'java', 'javascript', 'kotlin', 'python', 'ruby', 'rust', 'swift', 'typescript'];

export const CLOCK_URI = 'demo://clock';

export function listResources(): Json {
  return {
    resources: [
      { uri: 'demo://readme', name: 'readme', title: 'About this server', mimeType: 'text/markdown', description: 'What the demo server offers' },
      { uri: 'demo://settings.json', name: 'settings', title: 'Settings (JSON)', mimeType: 'application/json' },
      { uri: CLOCK_URI, name: 'clock', title: 'Clock (subscribe to it)', mimeType: 'text/plain', description: 'The time; subscribers hear of every change' },
    ],
  };
}

export function listTemplates(): Json {
  return { resourceTemplates: [{ uriTemplate: 'demo://notes/{topic}', name: 'notes', title: 'Notes on a topic', mimeType: 'text/markdown', description: `Topics: ${TOPICS.join(', ')}` }] };
}

export function readResource(uri: string): Json {
  const content = (mimeType: string, text: string): Json => ({ contents: [{ uri, mimeType, text }] });
  if (uri === 'demo://readme') return content('text/markdown', README);
  if (uri === 'demo://settings.json') return content('application/json', JSON.stringify({ theme: 'system', retries: 3, endpoints: ['primary', 'backup'] }, null, 2));
  if (uri === CLOCK_URI) return content('text/plain', new Date().toISOString());
  const note = /^demo:\/\/notes\/([^/]+)$/.exec(uri);
  if (note) {
    const topic = decodeURIComponent(note[1]!);
    return content('text/markdown', `# Notes: ${topic}\n\n${TOPICS.includes(topic) ? `Patchbay's ${topic}, in short.` : `Nothing written about “${topic}” yet.`}\n`);
  }
  throw new RpcError(-32002, `Resource not found: ${uri}`);
}

export function listPrompts(): Json {
  return {
    prompts: [
      {
        name: 'review_code',
        title: 'Review code',
        description: 'Asks for a review of a snippet in a given language',
        arguments: [
          { name: 'language', description: 'Programming language (completions as you type)', required: true },
          { name: 'code', description: 'The code to review', required: true },
        ],
      },
      { name: 'greeting', title: 'Greeting', description: 'A friendly hello', arguments: [{ name: 'name', description: 'Who to greet' }] },
    ],
  };
}

export function getPrompt(params: Json): Json {
  const args = (params.arguments ?? {}) as Record<string, string>;
  if (params.name === 'review_code') {
    if (!args.language || !args.code) throw new RpcError(-32602, 'review_code needs language and code');
    return {
      description: `Review of ${args.language} code`,
      messages: [{ role: 'user', content: { type: 'text', text: `Please review this ${args.language} code for bugs and style:\n\n\`\`\`${args.language}\n${args.code}\n\`\`\`` } }],
    };
  }
  if (params.name === 'greeting') return { messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${args.name ?? 'the person'} warmly.` } }] };
  throw new RpcError(-32602, `Unknown prompt: ${String(params.name)}`);
}

export function complete(params: Json): Json {
  const ref = (params.ref ?? {}) as { type?: string; name?: string; uri?: string };
  const arg = (params.argument ?? {}) as { name?: string; value?: string };
  const prefix = (arg.value ?? '').toLowerCase();
  let pool: string[] = [];
  if (ref.type === 'ref/prompt' && ref.name === 'review_code' && arg.name === 'language') pool = LANGUAGES;
  if (ref.type === 'ref/resource' && ref.uri === 'demo://notes/{topic}' && arg.name === 'topic') pool = TOPICS;
  const values = pool.filter((v) => v.startsWith(prefix));
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: false } };
}
