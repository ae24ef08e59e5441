/**
 * Who owns the host's conversation data, counted in the source (issue 22): how often the
 * controller names and calls the SQLite store, how often code reaches into `ControllerCore`
 * through a `core` reference (and two levels deep, `core.a.b`), and which files name the
 * message's SQL row or its columns (the files a new stored field of a message makes one read,
 * and most of them edit), and how often code outside db/ reads a column of the other tables'
 * rows (issue 30: each table keeps its row to itself). Not a timing: the same count on the same tree prints the same figures.
 * Run: cd tests && node --import tsx bench/conversationOwner.ts [path to host/src]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable } from './table';

const root = process.argv[2] ?? fileURLToPath(new URL('../../host/src', import.meta.url));

/** Every non-test TypeScript file under a folder. */
function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(folder, file));
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const controller = sources(join(root, 'controller')).filter((file) => !file.includes('/tools/'));
const all = sources(root);
const read = (file: string) => readFileSync(file, 'utf8');

const sum = (files: string[], pattern: RegExp) =>
  files.reduce((n, file) => n + count(read(file), pattern), 0);
/** The message row's type names and the columns only `messages` has. */
const MESSAGE_ROW = /\b(MessageRow|MessagePatch|parent_id|tool_name|tool_args|approval_id|sibling_order)\b/;
const namingRows = all.filter((file) => MESSAGE_ROW.test(read(file))).map((file) => relative(root, file));
/** A read of a snake_case column of projects, conversations, attachments, approvals or push subscriptions. */
const TABLE_COLUMN =
  /\.(workspace_path|created_at|project_id|current_leaf_id|model_id|agent_id|agent_session_id|agent_unavailable|conversation_id|message_id|decided_kind|decided_name|decided_device|decided_at|device_id|device_name)\b/g;
const outsideDb = all.filter((file) => !relative(root, file).startsWith('db/'));

printTable(`Conversation data ownership in ${relative(process.cwd(), root) || root}`, [
  {
    figure: 'controller files importing db/HostStore',
    value: controller.filter((f) => /db\/HostStore'/.test(read(f))).length,
  },
  { figure: 'controller: "HostStore" named', value: sum(controller, /\bHostStore\b/g) },
  { figure: 'controller: store.<member> calls', value: sum(controller, /\bstore\.[A-Za-z]+/g) },
  { figure: 'core.<member> reaches (controller)', value: sum(controller, /\bcore\.[A-Za-z]+/g) },
  { figure: 'core.<a>.<b> (two levels deep)', value: sum(controller, /\bcore\.[A-Za-z]+\.[A-Za-z]+/g) },
  { figure: 'files naming the message row or its columns', value: namingRows.length },
  { figure: "reads of other tables' columns outside db/", value: sum(outsideDb, TABLE_COLUMN) },
  {
    figure: 'files outside db/ reading them',
    value: outsideDb.filter((file) => count(read(file), TABLE_COLUMN) > 0).length,
  },
]);
console.log(`\nfiles naming the message row or its columns: ${namingRows.join(', ')}`);
