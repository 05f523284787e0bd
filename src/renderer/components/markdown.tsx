/**
 * Markdown from servers (tool results, resources, descriptions), rendered to React elements by
 * markdown-to-jsx. Raw HTML in it stays text: a server's output never becomes markup. Links
 * open outside the app.
 */
import { Markdown } from 'markdown-to-jsx';

const OPTIONS = {
  disableParsingRawHTML: true,
  overrides: { a: { props: { target: '_blank', rel: 'noreferrer noopener' } } },
} as const;

export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown options={OPTIONS}>{text}</Markdown>
    </div>
  );
}

/** Text that reads like markdown (headings, lists, emphasis, code fences, links). */
export function looksLikeMarkdown(text: string): boolean {
  return /(^|\n)(#{1,6} |[-*] |\d+\. |```|> )|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\)/.test(text);
}
