/**
 * The demo server's tools: one of each thing a client must handle — plain text, structured
 * content with an output schema, an elicitation (a form the person fills in), sampling (the
 * client's model is asked), progress, an image, and a tool that fails (`isError: true`).
 */
import { barChartPng } from './png.js';
import { RpcError, type Json, type RequestContext } from './demo-protocol.js';

interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  outputSchema?: Json;
  annotations?: Json;
  run(args: Json, ctx: RequestContext): Promise<Json>;
}

const text = (t: string): Json => ({ content: [{ type: 'text', text: t }] });

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

export const TOOLS: Tool[] = [
  {
    name: 'echo',
    title: 'Echo',
    description: 'Returns the text you send. The simplest round trip.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'What to echo back' } }, required: ['text'] },
    annotations: { readOnlyHint: true },
    run: async (args) => text(String(args.text ?? '')),
  },
  {
    name: 'add',
    title: 'Add two numbers',
    description: 'Adds a and b; the result is structured content checked against an output schema.',
    inputSchema: { type: 'object', properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } }, required: ['a', 'b'] },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    annotations: { readOnlyHint: true },
    run: async (args) => {
      const a = Number(args.a);
      const b = Number(args.b);
      if (!Number.isFinite(a) || !Number.isFinite(b)) throw new RpcError(-32602, 'a and b must be numbers');
      return { content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } };
    },
  },
  {
    name: 'book_table',
    title: 'Book a table (asks you)',
    description: 'Asks the client for booking details through elicitation, then confirms them.',
    inputSchema: { type: 'object', properties: { restaurant: { type: 'string', description: 'Where to book', default: 'Chez Patch' } } },
    run: async (args, ctx) => {
      if (!ctx.clientCapabilities.elicitation) return { isError: true, content: [{ type: 'text', text: 'This client does not support elicitation, so the booking cannot ask for details.' }] };
      const answer = await ctx.ask('elicitation/create', {
        message: `Booking at ${String(args.restaurant ?? 'Chez Patch')}: how many people, and when?`,
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name on the booking', minLength: 1 },
            guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
            time: { type: 'string', title: 'Time', enum: ['18:00', '19:30', '21:00'], default: '19:30' },
            terrace: { type: 'boolean', title: 'Terrace if possible', default: false },
          },
          required: ['name', 'guests'],
        },
      });
      if (answer.action !== 'accept') return text(`Booking ${String(answer.action ?? 'cancelled')}: nothing was reserved.`);
      const c = (answer.content ?? {}) as Json;
      return text(`Booked for ${String(c.name)}: ${String(c.guests)} guest(s) at ${String(c.time ?? '19:30')}${c.terrace ? ', on the terrace' : ''}.`);
    },
  },
  {
    name: 'summarize',
    title: 'Summarize (asks your model)',
    description: "Asks the client's model for a one-line summary through sampling.",
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to summarize' } }, required: ['text'] },
    run: async (args, ctx) => {
      if (!ctx.clientCapabilities.sampling) return { isError: true, content: [{ type: 'text', text: 'This client does not support sampling.' }] };
      const answer = await ctx.ask('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: `Summarize in one line:\n\n${String(args.text ?? '')}` } }],
        systemPrompt: 'You write one-line summaries.',
        maxTokens: 100,
      });
      const content = answer.content as { type?: string; text?: string } | undefined;
      return text(`Summary (${String(answer.model ?? 'unknown model')}): ${content?.type === 'text' ? content.text : '(no text)'}`);
    },
  },
  {
    name: 'long_task',
    title: 'Long task with progress',
    description: 'Works for a few seconds and reports progress at every step; cancellable.',
    inputSchema: {
      type: 'object',
      properties: { steps: { type: 'integer', minimum: 1, maximum: 50, default: 5, description: 'How many steps' }, stepMs: { type: 'integer', minimum: 10, maximum: 5000, default: 600, description: 'Milliseconds per step' } },
    },
    run: async (args, ctx) => {
      const steps = Math.min(50, Math.max(1, Number(args.steps ?? 5) | 0));
      const stepMs = Math.min(5000, Math.max(10, Number(args.stepMs ?? 600) | 0));
      for (let i = 1; i <= steps; i++) {
        await delay(stepMs, ctx.signal);
        if (ctx.signal.aborted) return text('cancelled');
        ctx.progress(i, steps, `step ${i} of ${steps}`);
        ctx.log('info', `long_task: step ${i} of ${steps} done`);
      }
      return text(`Done: ${steps} steps.`);
    },
  },
  {
    name: 'chart',
    title: 'Draw a bar chart',
    description: 'Returns a PNG image of a bar chart of the values you send.',
    inputSchema: { type: 'object', properties: { values: { type: 'array', items: { type: 'number', minimum: 0 }, default: [3, 7, 4, 9, 6], description: 'Bar heights' } } },
    annotations: { readOnlyHint: true },
    run: async (args) => {
      const values = Array.isArray(args.values) && args.values.length > 0 ? args.values.map((v) => Math.max(0, Number(v) || 0)).slice(0, 40) : [3, 7, 4, 9, 6];
      return { content: [{ type: 'image', data: barChartPng(values).toString('base64'), mimeType: 'image/png' }, { type: 'text', text: `A bar chart of ${values.length} values.` }] };
    },
  },
  {
    name: 'read_secret',
    title: 'Read a protected file (fails)',
    description: 'Always fails the way real tools do: a normal result with isError: true.',
    inputSchema: { type: 'object', properties: { path: { type: 'string', default: '/etc/shadow', description: 'File to read' } } },
    run: async (args) => ({ isError: true, content: [{ type: 'text', text: `Access denied: ${String(args.path ?? '/etc/shadow')} is outside the allowed directories` }] }),
  },
];

export function listTools(): Json[] {
  return TOOLS.map(({ run: _run, ...tool }) => tool);
}

export async function callTool(params: Json, ctx: RequestContext): Promise<Json> {
  const tool = TOOLS.find((t) => t.name === params.name);
  // Unknown tools answer with isError too, as the SDKs do: the model sees the message.
  if (!tool) return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${String(params.name)}` }] };
  return tool.run((params.arguments ?? {}) as Json, ctx);
}
