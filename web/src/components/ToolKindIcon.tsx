import type { AgentToolCall } from '../state/agentMessageTypes';

/** The kind of an agent's tool call, drawn as a 24×24 stroked path (no emoji, no icon font). */
const PATHS: { readonly [K in AgentToolCall['kind']]: string } = {
  read: 'M6 3h8l5 5v13H6zM14 3v5h5M9 13h6M9 17h6',
  edit: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  delete: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  move: 'M4 12h14M14 7l5 5-5 5',
  search: 'M10.5 4a6.5 6.5 0 100 13 6.5 6.5 0 000-13zM15.2 15.2L20 20',
  execute: 'M4 5h16v14H4zM7 9l3 3-3 3M12 15h5',
  think: 'M12 3a6 6 0 00-3.5 10.9V17h7v-3.1A6 6 0 0012 3zM9.5 20h5',
  fetch: 'M12 3a9 9 0 100 18 9 9 0 000-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
  switch_mode: 'M4 8h13l-3-3M20 16H7l3 3',
  other: 'M14.7 6.3a4 4 0 00-5.4 5.1L4 16.7V20h3.3l5.3-5.3a4 4 0 005.1-5.4l-2.5 2.5-2.4-.6-.6-2.4z',
};

/** The icon of a tool call's kind; decorative (the card's label says what the call is). */
export function ToolKindIcon({ kind }: { readonly kind: AgentToolCall['kind'] }) {
  return (
    <svg
      class="icon-svg agent-tool-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
      data-kind={kind}
    >
      <path d={PATHS[kind]} />
    </svg>
  );
}
