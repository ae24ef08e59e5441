import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { AGENTS_CONSOLE_HELP, agentsCommand } from '../agents/agentsConsole';
import { MCP_CONSOLE_HELP, mcpCommand } from '../mcp/mcpConsole';
import type { RunningHost } from '../startHost';
import { authorityBanner, connectionBanner } from './connectionBanner';
import { generateAccessCode } from './generateAccessCode';

/** What the console needs from the running CLI. */
export interface ConsoleContext {
  readonly host: RunningHost;
  /** The current access code. */
  readonly code: () => string;
  /** Replaces the access code everywhere (bridge, CLI and the kept copy). */
  readonly setCode: (code: string) => void;
  /** The current view code, if any. */
  readonly viewCode?: () => string | undefined;
  /** Sets, replaces or (undefined) removes the view code everywhere. */
  readonly setViewCode?: (code: string | undefined) => void;
  /** Whether the bridge serves plain HTTP off loopback (warned about at every start). */
  readonly insecureHttp?: boolean;
  /** Shuts the service down. */
  readonly quit: () => void;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

const HELP = `Commands:
  help                 this list
  code                 show the access code
  qr                   a new one-time pairing link (QR code and text; valid 10 minutes)
  rotate               replace the access code (connected browsers must enter the new one;
                       every paired device is forgotten; media links handed out so far stop working)
  view                 create or replace the view code (watch only, no control) and show a
                       pairing link for a watching device; paired watching devices are forgotten
  view off             remove the view code (and forget the paired watching devices)
  devices              the paired devices: name, role, when paired and last seen
  forget <n>           forget paired device n (its streams end; it must pair again)
  ca                   the HTTPS certificate authority: fingerprint and a QR code to install it
  browsers             the connected browsers: address, since when, paired device, user agent
  convs                list the conversations
  switch <n>           make conversation n current, as the host's own user would
  new                  start a new conversation
  projects             list the projects
  project <n>          make project n current
  new-project <folder> [name]
                       create a project on an authorised folder and make it current
  roots                list the folders projects may use
  add-root <folder>    authorise another folder (browsers can then pick it or below it)
  approvals            list the tool calls waiting for approval
  allow <n>, deny <n>  decide approval n
${MCP_CONSOLE_HELP}
${AGENTS_CONSOLE_HELP}
  quit                 stop webbridge`;

/**
 * A small console on the terminal that acts as the host app's own user: it switches
 * conversations and projects, decides approvals and rotates the access code through the same
 * executor the browser's actions use, so the browser sees these changes exactly as it would
 * see a phone user's. It is also the only place a new workspace root can be authorised.
 * Returns a function that closes the console.
 */
export function startConsole(context: ConsoleContext): () => void {
  const { host, output } = context;
  const rl = readline.createInterface({ input: context.input, output, prompt: 'webbridge> ' });
  const print = (text: string): void => {
    output.write(`${text}\n`);
  };
  const controller = host.controller;
  const onMain = <T>(task: () => T) => controller.executor.run(task);
  const state = () => onMain(() => controller.readState());
  const nth = <T>(list: readonly T[], arg: string): T | undefined => {
    const n = Number(arg);
    return Number.isInteger(n) && n >= 1 ? list[n - 1] : undefined;
  };
  // A fresh one-time token each time: the link printed before may have been used already.
  const showQr = async () =>
    print(await connectionBanner(host.address.urls, host.bridge.pairingToken('control')));
  const when = (time: number) => new Date(time).toLocaleString();

  const commands: Record<string, (arg: string) => Promise<void> | void> = {
    help: () => print(HELP),
    code: () => {
      print(`Access code: ${context.code()}`);
      const view = context.viewCode?.();
      if (view !== undefined) print(`View code (watch only): ${view}`);
    },
    qr: showQr,
    rotate: async () => {
      const code = generateAccessCode();
      const paired = host.bridge.devices.list().length;
      context.setCode(code);
      print(`New access code: ${code}`);
      if (paired > 0) print(`Forgot ${paired === 1 ? '1 paired device' : `${paired} paired devices`}.`);
      await showQr();
    },
    view: async (arg) => {
      if (!context.setViewCode) throw new Error('This host has no view code.');
      if (arg === 'off') {
        context.setViewCode(undefined);
        print('View code removed; watching browsers are disconnected and watching devices forgotten.');
        return;
      }
      const code = generateAccessCode();
      context.setViewCode(code);
      print(`New view code (watch only): ${code}`);
      print(
        await connectionBanner(host.address.urls, host.bridge.pairingToken('view'), 'pair a watching device'),
      );
    },
    devices: () => {
      const devices = host.bridge.devices.list();
      if (devices.length === 0) print('No paired devices.');
      devices.forEach((device, index) => {
        const role = device.role === 'view' ? 'watch only' : 'control';
        print(
          `  ${index + 1}. ${device.name} (${role}) paired ${when(device.firstSeen)}, last seen ${when(device.lastSeen)}`,
        );
      });
    },
    forget: (arg) => {
      const device = nth(host.bridge.devices.list(), arg);
      if (!device || !host.bridge.devices.forget(device.id)) {
        print('No such device; see `devices`.');
        return;
      }
      print(`Forgot ${device.name}; it must pair again.`);
    },
    ca: async () => {
      const authority = host.bridge.authority;
      if (!authority) {
        print('This host serves no local certificate authority (plain HTTP, or your own certificate).');
        return;
      }
      print(await authorityBanner(authority));
    },
    browsers: () => {
      const connections = host.bridge.connections();
      const n = connections.length;
      print(n === 1 ? '1 browser connected.' : `${n} browsers connected.`);
      const names = new Map(host.bridge.devices.list().map((device) => [device.id, device.name]));
      for (const c of connections) {
        const since = new Date(c.openedAt).toLocaleTimeString();
        const device = c.deviceId === undefined ? '' : `  [${names.get(c.deviceId) ?? 'forgotten device'}]`;
        print(`  ${c.remoteAddress}  since ${since}${device}  ${c.userAgent}`);
      }
    },
    convs: async () => {
      const s = await state();
      s.conversations.list.forEach((conversation, index) => {
        const mark = conversation.id === s.conversationId ? '*' : ' ';
        print(`${mark} ${index + 1}. ${conversation.title}`);
      });
    },
    switch: async (arg) => {
      const title = await onMain(() => {
        const target = nth(controller.readState().conversations.list, arg);
        if (!target) return undefined;
        controller.conversations.selectConversation(target.id);
        return target.title;
      });
      print(title === undefined ? 'No such conversation; see `convs`.' : `Switched to: ${title}`);
    },
    new: async () => {
      await onMain(() => controller.conversations.newConversation());
      print('Started a new conversation.');
    },
    projects: async () => {
      const s = await state();
      s.projects.list.forEach((project, index) => {
        const mark = project.id === s.projectId ? '*' : ' ';
        print(`${mark} ${index + 1}. ${project.name} — ${project.workspace.uri}`);
      });
    },
    project: async (arg) => {
      const name = await onMain(() => {
        const target = nth(controller.readState().projects.list, arg);
        if (!target) return undefined;
        controller.projects.selectProject(target.id);
        return target.name;
      });
      print(name === undefined ? 'No such project; see `projects`.' : `Switched to project: ${name}`);
    },
    'new-project': async (arg) => {
      const [folder = '', ...name] = arg.split(' ');
      if (folder === '') throw new Error('Name a folder: new-project <folder> [name]');
      const resolved = resolveFolder(folder);
      const title = name.join(' ').trim() || path.basename(resolved);
      await onMain(() =>
        controller.projects.selectProject(controller.projects.createProject(title, resolved)),
      );
      print(`Created and switched to project: ${title}`);
    },
    roots: async () => {
      for (const root of (await state()).projects.roots) print(`  ${root.uri}`);
    },
    'add-root': async (arg) => {
      if (arg === '') throw new Error('Name a folder: add-root <folder>');
      const root = await onMain(() => controller.projects.addWorkspaceRoot(resolveFolder(arg)));
      print(`Authorised: ${root}`);
    },
    approvals: async () => {
      const { approvals } = await state();
      if (approvals.length === 0) print('Nothing waits for approval.');
      for (const [index, approval] of approvals.entries()) print(`  ${index + 1}. ${approval.summary}`);
    },
    allow: (arg) => decide(arg, 'allow'),
    mcp: (arg) => mcpCommand(host.mcp, arg, print),
    agents: (arg) => agentsCommand(host.agents, arg, print),
    deny: (arg) => decide(arg, 'deny'),
    quit: () => {
      rl.close();
      context.quit();
    },
  };

  async function decide(arg: string, decision: 'allow' | 'deny'): Promise<void> {
    const summary = await onMain(() => {
      const target = nth(controller.readState().approvals, arg);
      if (!target) return undefined;
      controller.approvals.approve(target.id, decision);
      return target.summary;
    });
    if (summary === undefined) print('No such approval; see `approvals`.');
    else print(`${decision === 'allow' ? 'Allowed' : 'Denied'}: ${summary}`);
  }

  // On a terminal readline takes Ctrl-C for itself; without this it would only pause the input.
  rl.on('SIGINT', () => {
    rl.close();
    context.quit();
  });
  rl.on('line', (line: string) => {
    const trimmed = line.trim();
    const space = trimmed.search(/\s/);
    const name = space === -1 ? trimmed : trimmed.slice(0, space);
    const arg = space === -1 ? '' : trimmed.slice(space + 1).trim();
    const command = commands[name];
    if (name === '') {
      rl.prompt();
      return;
    }
    if (!command) {
      print(`Unknown command "${name}". Type help.`);
      rl.prompt();
      return;
    }
    Promise.resolve()
      .then(() => command(arg))
      .catch((error: unknown) => print(`Failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (name !== 'quit') rl.prompt();
      });
  });
  if (context.insecureHttp) {
    print(
      'WARNING: plain HTTP off loopback (--insecure-http): anyone on this network can read the access code.',
    );
  }
  rl.prompt();
  return () => rl.close();
}

function resolveFolder(folder: string): string {
  const expanded =
    folder === '~' || folder.startsWith('~/') ? path.join(os.homedir(), folder.slice(1)) : folder;
  return path.resolve(expanded);
}
