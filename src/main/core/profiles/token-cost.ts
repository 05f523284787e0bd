/**
 * Context cost: how many tokens a tool costs in a model's context before the first prompt. What
 * is counted is what a client sends a model for each tool: its (exposed) name, title,
 * description, input schema and output schema, as compact JSON. The tokenizer is o200k_base
 * (OpenAI's current encoding, via gpt-tokenizer: pure JavaScript, no WASM, no download at run
 * time). Anthropic publishes no tokenizer for current Claude models, so for them the figure is
 * an estimate of the same order, which is what a budget needs.
 *
 * The encoding's tables take about a second to load, so they are loaded on first use only.
 */
export type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | undefined;

/** The tokenizer, loaded once. */
export function loadTokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens as CountTokens);
  return loading;
}

/** The text of a tool that reaches the model, under the name the client sees. */
export function toolCostText(tool: { title?: unknown; description?: unknown; inputSchema?: unknown; outputSchema?: unknown }, exposedName: string): string {
  const sent: Record<string, unknown> = { name: exposedName };
  if (typeof tool.title === 'string') sent.title = tool.title;
  if (typeof tool.description === 'string') sent.description = tool.description;
  sent.inputSchema = tool.inputSchema ?? { type: 'object' };
  if (tool.outputSchema !== undefined) sent.outputSchema = tool.outputSchema;
  return JSON.stringify(sent);
}

/** Counts with a cache keyed by the text's digest-free identity (the text itself, bounded). */
export class TokenMeter {
  private readonly cache = new Map<string, number>();

  constructor(private readonly count: CountTokens) {}

  tokens(text: string): number {
    let n = this.cache.get(text);
    if (n === undefined) {
      n = this.count(text);
      if (this.cache.size >= 5000) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(text, n);
    }
    return n;
  }
}
