import type { Project } from '@webbridge/contract';
import type { Database } from 'better-sqlite3';
import type { GroupCommit } from './GroupCommit';

/**
 * A project as the host keeps it: the contract's project with its workspace as the folder's
 * path (the projection shows it as a `file:` URI and a name).
 */
export type StoredProject = Omit<Project, 'workspace'> & { readonly workspacePath: string };

/** A row of `projects` as SQLite holds it. Nothing outside this file sees it. */
interface ProjectRow {
  readonly id: string;
  readonly name: string;
  readonly workspace_path: string;
  readonly created_at: number;
}

/** The `projects` table: reads and writes {@link StoredProject}s. Writes join the turn's group commit. */
export class ProjectTable {
  private readonly group: GroupCommit;
  private readonly s: ReturnType<typeof prepare>;

  constructor(db: Database, group: GroupCommit) {
    this.group = group;
    this.s = prepare(db);
  }

  /** Every project, oldest first. */
  all(): StoredProject[] {
    return (this.s.all.all() as ProjectRow[]).map(fromRow);
  }

  /** A project, if it exists. */
  get(id: string): StoredProject | undefined {
    const row = this.s.get.get(id) as ProjectRow | undefined;
    return row && fromRow(row);
  }

  /** Adds a project. */
  insert(project: StoredProject): void {
    this.group.beforeWrite();
    this.s.insert.run({
      id: project.id,
      name: project.name,
      workspace_path: project.workspacePath,
      created_at: project.createdAt,
    } satisfies ProjectRow);
  }

  /** Points a project at another workspace folder. */
  setWorkspace(id: string, workspacePath: string): void {
    this.group.beforeWrite();
    this.s.setWorkspace.run(workspacePath, id);
  }
}

function fromRow(row: ProjectRow): StoredProject {
  return { id: row.id, name: row.name, workspacePath: row.workspace_path, createdAt: row.created_at };
}

function prepare(db: Database) {
  return {
    all: db.prepare('SELECT * FROM projects ORDER BY created_at, rowid'),
    get: db.prepare('SELECT * FROM projects WHERE id = ?'),
    insert: db.prepare(
      'INSERT INTO projects (id, name, workspace_path, created_at) VALUES (@id, @name, @workspace_path, @created_at)',
    ),
    setWorkspace: db.prepare('UPDATE projects SET workspace_path = ? WHERE id = ?'),
  };
}
