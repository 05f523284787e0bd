/**
 * MCP content as a person wants to see it: text (markdown rendered when it reads like markdown),
 * images shown, audio playable, embedded resources and resource links with their content, and
 * anything else as JSON. Used by the playground's results and the inspector's detail pane.
 */
import { useState } from 'react';
import { Icon } from './icons.js';
import { JsonBlock } from './json-view.js';
import { looksLikeMarkdown, MarkdownText } from './markdown.js';

export interface ContentBlock {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
  [key: string]: unknown;
}

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A blob as a download link (the browser saves it; nothing is executed). */
function DownloadLink({ data, mimeType, name }: { data: string; mimeType: string; name: string }) {
  return (
    <a className="button button-small" href={`data:${mimeType};base64,${data}`} download={name}>
      <Icon name="download" /> Download ({mimeType}, {sizeText(base64Bytes(data))})
    </a>
  );
}

export function TextContent({ text, mimeType }: { text: string; mimeType?: string | undefined }) {
  const markdownLike = mimeType === 'text/markdown' || (mimeType === undefined && looksLikeMarkdown(text));
  const [rendered, setRendered] = useState(markdownLike);
  if (mimeType === 'application/json' || (mimeType === undefined && /^\s*[{[]/.test(text))) {
    try {
      return <JsonBlock value={JSON.parse(text) as unknown} />;
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  return (
    <div className="text-content">
      {markdownLike && (
        <button type="button" className="link-button small" onClick={() => setRendered(!rendered)}>
          {rendered ? 'Show source' : 'Render markdown'}
        </button>
      )}
      {rendered ? <MarkdownText text={text} /> : <pre className="content-pre">{text}</pre>}
    </div>
  );
}

function ResourceBody({ resource }: { resource: NonNullable<ContentBlock['resource']> }) {
  const mime = resource.mimeType ?? 'application/octet-stream';
  if (typeof resource.text === 'string') return <TextContent text={resource.text} mimeType={resource.mimeType} />;
  if (typeof resource.blob === 'string') {
    if (mime.startsWith('image/')) return <img className="content-image" src={`data:${mime};base64,${resource.blob}`} alt={`Image from ${resource.uri ?? 'the resource'}`} />;
    return <DownloadLink data={resource.blob} mimeType={mime} name={(resource.uri ?? 'resource').split('/').pop() ?? 'resource'} />;
  }
  return <JsonBlock value={resource} />;
}

export function ContentItem({ block, onOpenResource }: { block: ContentBlock; onOpenResource?: ((uri: string) => void) | undefined }) {
  switch (block.type) {
    case 'text':
      return <TextContent text={block.text ?? ''} />;
    case 'image':
      return (
        <figure className="content-figure" data-testid="content-image">
          <img className="content-image" src={`data:${block.mimeType ?? 'image/png'};base64,${block.data ?? ''}`} alt="Image returned by the server" />
          <figcaption className="muted small">
            {block.mimeType} · {sizeText(base64Bytes(block.data ?? ''))} <DownloadLink data={block.data ?? ''} mimeType={block.mimeType ?? 'image/png'} name="image" />
          </figcaption>
        </figure>
      );
    case 'audio':
      return (
        <div className="content-audio">
          <audio controls src={`data:${block.mimeType ?? 'audio/wav'};base64,${block.data ?? ''}`} aria-label="Audio returned by the server" />
          <DownloadLink data={block.data ?? ''} mimeType={block.mimeType ?? 'audio/wav'} name="audio" />
        </div>
      );
    case 'resource':
      return (
        <div className="content-resource">
          <p className="content-label">
            <span className="tag">resource</span> <code>{block.resource?.uri}</code> {block.resource?.mimeType && <span className="muted small">{block.resource.mimeType}</span>}
          </p>
          {block.resource && <ResourceBody resource={block.resource} />}
        </div>
      );
    case 'resource_link':
      return (
        <div className="content-resource">
          <p className="content-label">
            <span className="tag">link</span> <code>{block.uri}</code> {block.name && <span>{block.title ?? block.name}</span>}
            {onOpenResource && block.uri && (
              <button type="button" className="button button-small" onClick={() => onOpenResource(block.uri!)}>
                Read it
              </button>
            )}
          </p>
          {block.description && <p className="muted small">{block.description}</p>}
        </div>
      );
    default:
      return <JsonBlock value={block} />;
  }
}

export function ContentList({ content, onOpenResource }: { content: ContentBlock[]; onOpenResource?: (uri: string) => void }) {
  if (content.length === 0) return <p className="muted">No content.</p>;
  return (
    <div className="content-list">
      {content.map((block, i) => (
        <ContentItem key={i} block={block} onOpenResource={onOpenResource} />
      ))}
    </div>
  );
}
