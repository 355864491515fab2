/**
 * What the sandbox planner may know of the file system: the one interface its pure parts (plan.ts,
 * programMounts.ts) read it through, so tests give them a fake one. The real implementation is `fsFacts` in
 * confine.ts.
 */
export type PathKind = 'dir' | 'file' | 'other';

export interface PathFacts {
  /** `path` with every symlink resolved; undefined when it does not exist. */
  real(path: string): string | undefined;
  /** What `path` is (links followed); undefined when it does not exist. */
  kind(path: string): PathKind | undefined;
  /** The target of the symlink at `path`, as written in the link; undefined when `path` is not a symlink. */
  link(path: string): string | undefined;
  /** The names in the folder `path` (links followed); undefined when it is not a readable folder. */
  list(path: string): readonly string[] | undefined;
  /** The first line of the file `path` (at most 256 bytes); undefined when it is not a readable file. */
  firstLine(path: string): string | undefined;
}
