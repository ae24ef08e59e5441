// `node:fs` for the bridge when it runs in the page (`vite --mode mock` aliases it here): the
// in-memory host's AttachmentFiles deletes a removed attachment's file with `rmSync`; in the
// page files live in MemoryFiles, which the mock bridge clears itself (createMockBridge.ts).

/** Nothing to delete on a disk the page does not have. */
export function rmSync(_path: string, _options?: { force?: boolean }): void {}
