import { fileURLToPath } from 'node:url';

/**
 * The source trees an app benchmark measures one after the other in the same run: a worktree of
 * another commit at `AGENT_MUX_BENCH_BEFORE` (node_modules symlinked) when set, labelled `before`,
 * then this tree, labelled `after`.
 */
export function treesToCompare(): [label: string, tree: string][] {
  const before = process.env.AGENT_MUX_BENCH_BEFORE;
  return [
    ...(before ? [['before', before] as [string, string]] : []),
    ['after', fileURLToPath(new URL('../', import.meta.url))],
  ];
}
