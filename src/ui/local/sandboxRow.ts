/**
 * The session group's confinement row: "sandbox: workspace rw, home hidden" with its mounts in the tooltip, or
 * "not sandboxed: bubblewrap not installed" (a warning icon), or, once a git repository appeared inside during the
 * session, a warning naming how many. Paths are shown inert and home-relative.
 */
import type { Confinement } from '../../local/sandbox';
import { inertLine } from '../display';
import type { SessionRow } from '../tree/sessionRows';
import type { ManagedSession } from './manager';
import { SandboxStrings } from './sandboxStrings';

/** The row's contextValue (no actions). */
export const SANDBOX_ROW_CONTEXT = 'fountainLocalSandbox;';

const MAX_LISTED = 12;

function list(paths: readonly string[]): string {
  const shown = [...new Set(paths)].slice(0, MAX_LISTED).map((p) => inertLine(p, 200));
  return shown.join(', ') + (paths.length > MAX_LISTED ? ', …' : '');
}

/** The row's label and tooltip for a confinement. */
export function confinementText(c: Confinement): { label: string; tooltip: string; sandboxed: boolean } {
  if (!c.sandboxed) {
    const label = SandboxStrings.unsandboxedRow(SandboxStrings.why(c.reason));
    const extra = [c.install, c.fix, c.detail].filter((x): x is string => !!x).map((x) => inertLine(x, 300));
    return { label, tooltip: [label, SandboxStrings.unsandboxedTooltip, ...extra].join('\n'), sandboxed: false };
  }
  const home = c.plan.home;
  const short = (p: string) =>
    home !== '/' && (p === home || p.startsWith(home + '/')) ? `~${p.slice(home.length)}` : p;
  const mounts = c.plan.layers.filter((l) => l.type === 'mount' && l.at !== '/');
  const at = (pred: (l: (typeof mounts)[number]) => boolean) =>
    mounts.flatMap((l) => (l.type === 'mount' && pred(l) ? [short(l.at)] : []));
  const allowed = new Set(at((l) => l.type === 'mount' && l.why === 'allowPaths'));
  const label = SandboxStrings.sandboxedRow(
    (allowed.size ? SandboxStrings.allowPathsCount(allowed.size) : '') +
      (c.network === 'open' ? SandboxStrings.openNetworkCount : ''),
  );
  const lines = [
    label,
    SandboxStrings.writable(list(at((l) => l.type === 'mount' && l.access === 'rw'))),
    SandboxStrings.readOnly(list(at((l) => l.type === 'mount' && l.access === 'ro' && l.why !== 'protected'))),
  ];
  const prot = at((l) => l.type === 'mount' && l.why === 'protected');
  if (prot.length) {
    lines.push(SandboxStrings.protectedFiles(list(prot)));
  }
  lines.push(SandboxStrings.hidden(list(c.plan.hiddenPatterns.filter((p) => p.startsWith(home + '/')).map(short))));
  if (c.plan.skipped.length) {
    lines.push(SandboxStrings.skipped(list(c.plan.skipped.map((s) => `${short(s.path)} (${s.reason})`))));
  }
  lines.push(SandboxStrings.network(c.network));
  return { label, tooltip: lines.join('\n'), sandboxed: true };
}

export function sandboxRow(s: ManagedSession): SessionRow {
  const t = confinementText(s.session.confinement);
  // A repository created inside: its configuration may run code when git outside opens it (newRepos.ts).
  const repos = s.session.newRepositories;
  if (repos.length) {
    const label = SandboxStrings.newReposRow(repos.length);
    return {
      id: JSON.stringify([s.id, 'sandbox', '']),
      label,
      tooltip: [label, SandboxStrings.newReposTooltip(list(repos)), '', t.tooltip].join('\n'),
      icon: 'warning',
      contextValue: SANDBOX_ROW_CONTEXT,
    };
  }
  return {
    // Three elements: never read as a grant row id (src/ui/local/treeExtras.ts parseGrantRowId).
    id: JSON.stringify([s.id, 'sandbox', '']),
    label: t.label,
    tooltip: t.tooltip,
    icon: t.sandboxed ? 'shield' : 'warning',
    contextValue: SANDBOX_ROW_CONTEXT,
  };
}
