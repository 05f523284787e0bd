/**
 * Resizable side-by-side panes (react-resizable-panels): the handle drags with the mouse and moves
 * with the arrow keys. `disableCursor`: the library would otherwise set a page-wide cursor through
 * a constructed stylesheet while dragging; the handle's own CSS cursor is enough.
 */
import type { ReactNode } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';

export function SplitPanes(props: { id: string; left: ReactNode; right: ReactNode; leftLabel: string; defaultLeft?: number; minLeft?: number; minRight?: number }) {
  return (
    <Group id={props.id} orientation="horizontal" className="split" disableCursor>
      <Panel id={`${props.id}-a`} defaultSize={`${props.defaultLeft ?? 58}%`} minSize={`${props.minLeft ?? 30}%`} className="split-pane">
        {props.left}
      </Panel>
      <Separator className="split-handle" aria-label={`Resize ${props.leftLabel}`} />
      <Panel id={`${props.id}-b`} minSize={`${props.minRight ?? 28}%`} className="split-pane">
        {props.right}
      </Panel>
    </Group>
  );
}
