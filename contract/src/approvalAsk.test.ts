import { describe, expect, it } from 'vitest';
import { agentNameOf, approvalAsk, notifiedTool } from './approvalAsk';

const COMMAND = "curl -H 'Authorization: Bearer sk-live-4417' https://deploy.example/run";
const OPTIONS = [{ optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' }];

describe('approvalAsk', () => {
  it("names the host's own tools' file or program, any other tool by its name alone", () => {
    expect(approvalAsk({ tool: 'write_file', args: '{"path":"notes.md","content":"x"}' })).toEqual({
      verb: 'write',
      target: 'notes.md',
    });
    expect(approvalAsk({ tool: 'run_command', args: JSON.stringify({ command: COMMAND }) })).toEqual({
      verb: 'run',
      target: 'curl',
    });
    expect(approvalAsk({ tool: 'github__create_issue', args: '{"body":"secret"}' })).toEqual({
      verb: 'use',
      target: 'github__create_issue',
    });
  });

  // An agent's title for its call is its free text (a shell call's command line): never said.
  it("names an agent's question by its diff's file, else by the agent, never by its title or input", () => {
    const asked = { tool: COMMAND, args: JSON.stringify({ command: COMMAND }), options: OPTIONS };
    expect(approvalAsk(asked, 'OpenCode')).toEqual({ verb: 'use', target: 'OpenCode' });
    expect(notifiedTool(asked, 'OpenCode')).toBe('OpenCode');
    const edit = { ...asked, tool: 'Edit /home/me/app/src/parser.ts' };
    expect(
      approvalAsk({ ...edit, diffs: [{ path: '/home/me/app/src/parser.ts', oldText: 'a' }] }, 'OpenCode'),
    ).toEqual({ verb: 'edit', target: 'parser.ts' });
    expect(approvalAsk({ ...edit, diffs: [{ path: 'C:\\app\\new.ts', oldText: null }] }, 'OpenCode')).toEqual(
      {
        verb: 'write',
        target: 'new.ts',
      },
    );
    // A tool that is named like one of the host's own does not make an agent's input speak.
    const lookalike = { tool: 'run_command', args: JSON.stringify({ command: COMMAND }), options: OPTIONS };
    expect(approvalAsk(lookalike, 'OpenCode')).toEqual({ verb: 'use', target: 'OpenCode' });
    expect(notifiedTool({ tool: 'write_file', args: '{}' }, 'OpenCode')).toBe('write_file');
  });

  it("finds the agent's name for a conversation: its title, else its id, none for the built-in loop", () => {
    const state = {
      conversations: {
        list: [{ id: 'c1', agentId: 'opencode' }, { id: 'c2', agentId: 'gemini' }, { id: 'c3' }],
      },
      agents: { list: [{ name: 'opencode', title: 'OpenCode' }, { name: 'gemini' }] },
    };
    expect(agentNameOf(state, 'c1')).toBe('OpenCode');
    expect(agentNameOf(state, 'c2')).toBe('gemini');
    expect(agentNameOf(state, 'c3')).toBeUndefined();
    expect(agentNameOf(state, 'nope')).toBeUndefined();
  });
});
