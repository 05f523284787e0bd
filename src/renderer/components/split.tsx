/**
 * Resizable side-by-side panes (react-resizable-panels): the handle drags with the mouse and moves
 * with the arrow keys. `disableCursor`: the library would otherwise set a page-wide cursor through
 * a constructed stylesheet while dragging; the handle's own CSS cursor is enough.
 *
 * `rightCollapsed`: the right pane takes no room while it would show nothing (a session's details
 * before a row is chosen, as DevTools' Network panel does), and opens at its default size.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Group, Panel, Separator, usePanelRef } from 'react-resizable-panels';

export function SplitPanes(props: { id: string; left: ReactNode; right: ReactNode; leftLabel: string; defaultLeft?: number; minLeft?: number; minRight?: number; rightCollapsed?: boolean }) {
  const defaultLeft = props.defaultLeft ?? 58;
  const right = usePanelRef();
  const collapsible = props.rightCollapsed !== undefined;
  // Collapsed from the first paint when it starts so (no flash of an empty pane).
  const startsCollapsed = useRef(props.rightCollapsed === true).current;
  useEffect(() => {
    const pane = right.current;
    if (!pane || !collapsible) return;
    if (props.rightCollapsed) pane.collapse();
    else if (pane.isCollapsed()) pane.resize(`${100 - defaultLeft}%`);
  }, [props.rightCollapsed, collapsible, defaultLeft, right]);
  return (
    <Group id={props.id} orientation="horizontal" className="split" disableCursor>
      <Panel id={`${props.id}-a`} defaultSize={startsCollapsed ? '100%' : `${defaultLeft}%`} minSize={`${props.minLeft ?? 30}%`} className="split-pane">
        {props.left}
      </Panel>
      <Separator className="split-handle" aria-label={`Resize ${props.leftLabel}`} />
      <Panel
        id={`${props.id}-b`}
        panelRef={right}
        collapsible={collapsible}
        collapsedSize="0%"
        {...(startsCollapsed ? { defaultSize: '0%' } : {})}
        minSize={`${props.minRight ?? 28}%`}
        className="split-pane"
      >
        {props.right}
      </Panel>
    </Group>
  );
}
